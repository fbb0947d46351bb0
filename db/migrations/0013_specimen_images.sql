CREATE TABLE "specimen_images" (
	"id" uuid PRIMARY KEY NOT NULL,
	"profile_id" text NOT NULL,
	"manifest_id" uuid NOT NULL,
	"project" text NOT NULL,
	"specimen_id" text NOT NULL,
	"file_name" text NOT NULL,
	"format" text NOT NULL,
	"size_in_bytes" bigint NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"stored_name" text NOT NULL,
	"thumbnail_name" text NOT NULL,
	"uploaded_by" integer,
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"state" text DEFAULT 'waiting' NOT NULL,
	"sequence" integer,
	"bioimage_name" text,
	"submitted_at" timestamp with time zone,
	"failure" text,
	CONSTRAINT "specimen_images_state" CHECK ("specimen_images"."state" in ('waiting', 'held', 'sending', 'submitted', 'failed')),
	CONSTRAINT "specimen_images_format" CHECK ("specimen_images"."format" in ('jpeg', 'png', 'tiff')),
	CONSTRAINT "specimen_images_named" CHECK (("specimen_images"."sequence" is null) = ("specimen_images"."bioimage_name" is null))
);
--> statement-breakpoint
ALTER TABLE "specimen_images" ADD CONSTRAINT "specimen_images_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "specimen_images" ADD CONSTRAINT "specimen_images_manifest_id_manifests_id_fk" FOREIGN KEY ("manifest_id") REFERENCES "public"."manifests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "specimen_images" ADD CONSTRAINT "specimen_images_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "specimen_images_sequence_key" ON "specimen_images" USING btree ("project","specimen_id","sequence");--> statement-breakpoint
CREATE UNIQUE INDEX "specimen_images_unsent_name_key" ON "specimen_images" USING btree ("project","specimen_id",lower("file_name")) WHERE "specimen_images"."bioimage_name" is null;--> statement-breakpoint
CREATE INDEX "specimen_images_manifest_idx" ON "specimen_images" USING btree ("manifest_id");--> statement-breakpoint
CREATE INDEX "specimen_images_open_idx" ON "specimen_images" USING btree ("project","specimen_id") WHERE "specimen_images"."state" in ('waiting', 'held', 'sending');