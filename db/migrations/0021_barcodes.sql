CREATE TABLE "barcodes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"profile_id" text NOT NULL,
	"specimen_id" text NOT NULL,
	"checklist_id" text NOT NULL,
	"entry_number" text NOT NULL,
	"study_accession" text NOT NULL,
	"fields" jsonb NOT NULL,
	"sequence" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"error" text,
	"batch_id" uuid,
	"accession" text,
	"created_by" integer,
	"time_created" timestamp with time zone DEFAULT now() NOT NULL,
	"time_updated" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "barcodes_status" CHECK ("barcodes"."status" in ('pending', 'waiting', 'processing', 'accepted', 'rejected')),
	CONSTRAINT "barcodes_checklist" CHECK ("barcodes"."checklist_id" in ('ERT000020', 'ERT000002'))
);
--> statement-breakpoint
ALTER TABLE "barcodes" ADD CONSTRAINT "barcodes_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "barcodes" ADD CONSTRAINT "barcodes_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "barcodes_entry_idx" ON "barcodes" USING btree ("profile_id","entry_number");--> statement-breakpoint
CREATE INDEX "barcodes_profile_idx" ON "barcodes" USING btree ("profile_id","time_created");--> statement-breakpoint
CREATE INDEX "barcodes_batch_idx" ON "barcodes" USING btree ("batch_id");