CREATE TABLE "emails" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"to" text[] NOT NULL,
	"user_ids" integer[] NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"profile_id" text,
	"manifest_id" uuid,
	"status" text DEFAULT 'queued' NOT NULL,
	"result" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "emails" ADD CONSTRAINT "emails_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "emails_created_idx" ON "emails" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "emails_manifest_idx" ON "emails" USING btree ("manifest_id");