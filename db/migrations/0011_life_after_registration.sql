CREATE TABLE "audit_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"actor_id" integer,
	"action" text NOT NULL,
	"object_type" text NOT NULL,
	"object_id" text NOT NULL,
	"profile_id" text,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"time" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_checks" (
	"service" text PRIMARY KEY NOT NULL,
	"ok" boolean NOT NULL,
	"detail" text NOT NULL,
	"checked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_approver_types" (
	"user_id" integer NOT NULL,
	"associated_type" text NOT NULL,
	CONSTRAINT "user_approver_types_user_id_associated_type_pk" PRIMARY KEY("user_id","associated_type")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "approval_reminded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "samples" ADD COLUMN "rights_checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "samples" ADD COLUMN "rights_cleared_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_approver_types" ADD CONSTRAINT "user_approver_types_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_events_object_idx" ON "audit_events" USING btree ("object_type","object_id");--> statement-breakpoint
CREATE INDEX "audit_events_profile_idx" ON "audit_events" USING btree ("profile_id","time");--> statement-breakpoint
CREATE INDEX "user_approver_types_type_idx" ON "user_approver_types" USING btree ("associated_type");