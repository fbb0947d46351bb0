-- substring search on sample fields (trigram GIN indexes below); PGlite loads the extension in db/client.ts
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
DROP INDEX "sample_updates_time_idx";--> statement-breakpoint
DROP INDEX "samples_created_idx";--> statement-breakpoint
CREATE INDEX "samples_gal_idx" ON "samples" USING btree (upper(("fields" ->> 'GAL')));--> statement-breakpoint
CREATE INDEX "samples_bioimage_idx" ON "samples" USING btree ("last_bioimage_submitted","id") WHERE "samples"."last_bioimage_submitted" is not null;--> statement-breakpoint
CREATE INDEX "samples_specimen_trgm_idx" ON "samples" USING gin ("specimen_id" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "samples_scientific_name_trgm_idx" ON "samples" USING gin ("scientific_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "samples_public_name_trgm_idx" ON "samples" USING gin ("public_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "samples_tube_trgm_idx" ON "samples" USING gin ("tube_or_well_id" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "samples_rack_trgm_idx" ON "samples" USING gin ("rack_or_plate_id" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "samples_taxon_trgm_idx" ON "samples" USING gin ("taxon_id" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "samples_biosample_trgm_idx" ON "samples" USING gin ("biosample_accession" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "samples_sra_trgm_idx" ON "samples" USING gin ("sra_accession" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "sample_updates_time_idx" ON "sample_updates" USING btree ("time_updated","id");--> statement-breakpoint
CREATE INDEX "samples_created_idx" ON "samples" USING btree ("time_created","id");