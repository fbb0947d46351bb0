CREATE TABLE "biodata_sample_updates" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"sample_id" text NOT NULL,
	"update_type" text NOT NULL,
	"field" text NOT NULL,
	"old_value" text,
	"new_value" text,
	"actor_id" integer,
	"time_updated" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "biodata_sample_updates_type" CHECK ("biodata_sample_updates"."update_type" in ('system', 'user'))
);
--> statement-breakpoint
CREATE TABLE "biodata_samples" (
	"id" text PRIMARY KEY NOT NULL,
	"profile_id" text NOT NULL,
	"checklist_id" text NOT NULL,
	"alias" text NOT NULL,
	"taxon_id" text NOT NULL,
	"scientific_name" text NOT NULL,
	"fields" jsonb NOT NULL,
	"status" text DEFAULT 'confirmed' NOT NULL,
	"status_detail" text,
	"release_date" date,
	"biosample_accession" text,
	"sra_accession" text,
	"submission_accession" text,
	"report_id" uuid,
	"created_by" integer,
	"time_created" timestamp with time zone DEFAULT now() NOT NULL,
	"time_updated" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "biodata_samples_id_shape" CHECK ("biodata_samples"."id" ~ '^[0-9a-f]{24}$'),
	CONSTRAINT "biodata_samples_status" CHECK ("biodata_samples"."status" in ('confirmed', 'processing', 'accepted', 'refused'))
);
--> statement-breakpoint
ALTER TABLE "biodata_sample_updates" ADD CONSTRAINT "biodata_sample_updates_sample_id_biodata_samples_id_fk" FOREIGN KEY ("sample_id") REFERENCES "public"."biodata_samples"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "biodata_sample_updates" ADD CONSTRAINT "biodata_sample_updates_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "biodata_samples" ADD CONSTRAINT "biodata_samples_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "biodata_samples" ADD CONSTRAINT "biodata_samples_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "biodata_sample_updates_sample_idx" ON "biodata_sample_updates" USING btree ("sample_id","time_updated");--> statement-breakpoint
CREATE UNIQUE INDEX "biodata_samples_alias_idx" ON "biodata_samples" USING btree ("profile_id","alias");--> statement-breakpoint
CREATE INDEX "biodata_samples_profile_idx" ON "biodata_samples" USING btree ("profile_id","time_created");--> statement-breakpoint
CREATE INDEX "biodata_samples_biosample_idx" ON "biodata_samples" USING btree ("biosample_accession");