CREATE TABLE "permits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"profile_id" text NOT NULL,
	"report_id" uuid NOT NULL,
	"manifest_id" uuid,
	"file_name" text NOT NULL,
	"stored_name" text NOT NULL,
	"size_in_bytes" integer NOT NULL,
	"sha256" text NOT NULL,
	"content" "bytea" NOT NULL,
	"uploaded_by" integer,
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "validation_reports" ADD COLUMN "permits" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "permits" ADD CONSTRAINT "permits_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "permits" ADD CONSTRAINT "permits_report_id_validation_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."validation_reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "permits" ADD CONSTRAINT "permits_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "permits_report_file_key" ON "permits" USING btree ("report_id","file_name");--> statement-breakpoint
CREATE INDEX "permits_profile_file_idx" ON "permits" USING btree ("profile_id","file_name");