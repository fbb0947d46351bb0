CREATE TABLE "manifest_definitions" (
	"project" text NOT NULL,
	"version" text NOT NULL,
	"is_current" boolean DEFAULT false NOT NULL,
	"definition" jsonb NOT NULL,
	"loaded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "manifest_definitions_project_version_pk" PRIMARY KEY("project","version")
);
--> statement-breakpoint
CREATE TABLE "manifests" (
	"id" uuid PRIMARY KEY NOT NULL,
	"profile_id" text NOT NULL,
	"project" text NOT NULL,
	"version" text NOT NULL,
	"sequencing_centres" text[] DEFAULT '{}'::text[] NOT NULL,
	"file_name" text DEFAULT '' NOT NULL,
	"report_id" uuid,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "validation_reports" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"profile_id" text NOT NULL,
	"project" text NOT NULL,
	"version" text NOT NULL,
	"file_name" text NOT NULL,
	"file_size" bigint NOT NULL,
	"upload" "bytea",
	"status" text DEFAULT 'pending' NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"summary" jsonb DEFAULT '{"rows":0,"errors":0,"warnings":0}'::jsonb NOT NULL,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"warnings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"rows" jsonb,
	"mode" text,
	"changes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"samples_fingerprint" text,
	"failure" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"confirmed_manifest_id" uuid,
	"confirmed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sample_updates" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"sample_id" text NOT NULL,
	"manifest_id" uuid NOT NULL,
	"project" text NOT NULL,
	"update_type" text NOT NULL,
	"field" text NOT NULL,
	"old_value" text,
	"new_value" text,
	"actor_id" integer,
	"time_updated" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sample_updates_type" CHECK ("sample_updates"."update_type" in ('system', 'user'))
);
--> statement-breakpoint
CREATE TABLE "samples" (
	"id" text PRIMARY KEY NOT NULL,
	"manifest_id" uuid NOT NULL,
	"profile_id" text NOT NULL,
	"project" text NOT NULL,
	"manifest_version" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"fields" jsonb NOT NULL,
	"specimen_id" text,
	"rack_or_plate_id" text,
	"tube_or_well_id" text,
	"taxon_id" text,
	"scientific_name" text,
	"symbiont" text,
	"public_name" text,
	"biosample_accession" text,
	"sra_accession" text,
	"submission_accession" text,
	"sample_derived_from" text,
	"sample_same_as" text,
	"sample_symbiont_of" text,
	"sequencing_centres" text[] DEFAULT '{}'::text[] NOT NULL,
	"associated_tol_projects" text[] DEFAULT '{}'::text[] NOT NULL,
	"approvals" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"rejection_reason" text,
	"last_bioimage_submitted" timestamp with time zone,
	"created_by" integer,
	"time_created" timestamp with time zone DEFAULT now() NOT NULL,
	"time_updated" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "samples_id_shape" CHECK ("samples"."id" ~ '^[0-9a-f]{24}$')
);
--> statement-breakpoint
CREATE TABLE "specimens" (
	"id" text PRIMARY KEY NOT NULL,
	"project" text NOT NULL,
	"specimen_id" text NOT NULL,
	"profile_id" text NOT NULL,
	"taxon_id" text,
	"fields" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"public_name" text,
	"biosample_accession" text,
	"sra_accession" text,
	"submission_accession" text,
	"time_created" timestamp with time zone DEFAULT now() NOT NULL,
	"time_updated" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "specimens_project_specimen_key" UNIQUE("project","specimen_id")
);
--> statement-breakpoint
CREATE TABLE "taxonomy_cache" (
	"key" text PRIMARY KEY NOT NULL,
	"response" jsonb NOT NULL,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "studies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"profile_id" text NOT NULL,
	"schema_name" text NOT NULL,
	"checklist_id" text NOT NULL,
	"study_id" text NOT NULL,
	"components" jsonb NOT NULL,
	"accessions" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "studies_profile_study_key" UNIQUE("profile_id","study_id")
);
--> statement-breakpoint
CREATE TABLE "submissions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"repository" text NOT NULL,
	"action" text DEFAULT 'submit' NOT NULL,
	"profile_id" text NOT NULL,
	"study_row_id" uuid,
	"sample_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"accessions" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"progress" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"receipts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"error" text,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "manifests" ADD CONSTRAINT "manifests_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "manifests" ADD CONSTRAINT "manifests_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "validation_reports" ADD CONSTRAINT "validation_reports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "validation_reports" ADD CONSTRAINT "validation_reports_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sample_updates" ADD CONSTRAINT "sample_updates_sample_id_samples_id_fk" FOREIGN KEY ("sample_id") REFERENCES "public"."samples"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sample_updates" ADD CONSTRAINT "sample_updates_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "samples" ADD CONSTRAINT "samples_manifest_id_manifests_id_fk" FOREIGN KEY ("manifest_id") REFERENCES "public"."manifests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "samples" ADD CONSTRAINT "samples_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "samples" ADD CONSTRAINT "samples_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "specimens" ADD CONSTRAINT "specimens_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "studies" ADD CONSTRAINT "studies_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "studies" ADD CONSTRAINT "studies_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_study_row_id_studies_id_fk" FOREIGN KEY ("study_row_id") REFERENCES "public"."studies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "manifests_created_idx" ON "manifests" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "manifests_project_created_idx" ON "manifests" USING btree ("project","created_at");--> statement-breakpoint
CREATE INDEX "manifests_profile_idx" ON "manifests" USING btree ("profile_id");--> statement-breakpoint
CREATE INDEX "manifests_centres_idx" ON "manifests" USING gin ("sequencing_centres");--> statement-breakpoint
CREATE INDEX "validation_reports_user_idx" ON "validation_reports" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "validation_reports_profile_idx" ON "validation_reports" USING btree ("profile_id");--> statement-breakpoint
CREATE INDEX "sample_updates_sample_idx" ON "sample_updates" USING btree ("sample_id","time_updated");--> statement-breakpoint
CREATE INDEX "sample_updates_manifest_idx" ON "sample_updates" USING btree ("manifest_id");--> statement-breakpoint
CREATE INDEX "sample_updates_time_idx" ON "sample_updates" USING btree ("time_updated");--> statement-breakpoint
CREATE INDEX "sample_updates_type_idx" ON "sample_updates" USING btree ("update_type","project","time_updated");--> statement-breakpoint
CREATE INDEX "sample_updates_field_idx" ON "sample_updates" USING btree ("field","project");--> statement-breakpoint
CREATE INDEX "samples_manifest_idx" ON "samples" USING btree ("manifest_id");--> statement-breakpoint
CREATE INDEX "samples_profile_idx" ON "samples" USING btree ("profile_id");--> statement-breakpoint
CREATE INDEX "samples_project_created_idx" ON "samples" USING btree ("project","time_created");--> statement-breakpoint
CREATE INDEX "samples_created_idx" ON "samples" USING btree ("time_created");--> statement-breakpoint
CREATE INDEX "samples_status_idx" ON "samples" USING btree ("status","project");--> statement-breakpoint
CREATE INDEX "samples_taxon_idx" ON "samples" USING btree ("taxon_id");--> statement-breakpoint
CREATE INDEX "samples_specimen_idx" ON "samples" USING btree ("specimen_id");--> statement-breakpoint
CREATE INDEX "samples_rack_tube_idx" ON "samples" USING btree ("rack_or_plate_id","tube_or_well_id");--> statement-breakpoint
CREATE INDEX "samples_tube_idx" ON "samples" USING btree ("tube_or_well_id");--> statement-breakpoint
CREATE INDEX "samples_biosample_idx" ON "samples" USING btree ("biosample_accession");--> statement-breakpoint
CREATE INDEX "samples_sra_idx" ON "samples" USING btree ("sra_accession");--> statement-breakpoint
CREATE INDEX "samples_public_name_idx" ON "samples" USING btree ("public_name");--> statement-breakpoint
CREATE INDEX "samples_centres_idx" ON "samples" USING gin ("sequencing_centres");--> statement-breakpoint
CREATE INDEX "samples_associated_idx" ON "samples" USING gin ("associated_tol_projects");--> statement-breakpoint
CREATE INDEX "studies_profile_schema_idx" ON "studies" USING btree ("profile_id","schema_name");--> statement-breakpoint
CREATE INDEX "submissions_profile_idx" ON "submissions" USING btree ("profile_id","created_at");--> statement-breakpoint
CREATE INDEX "submissions_study_idx" ON "submissions" USING btree ("study_row_id","repository");--> statement-breakpoint
CREATE INDEX "submissions_status_idx" ON "submissions" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "submissions_one_active_per_study" ON "submissions" USING btree ("study_row_id","repository") WHERE "submissions"."status" in ('pending', 'processing') and "submissions"."study_row_id" is not null;