DROP INDEX "sample_updates_manifest_idx";--> statement-breakpoint
CREATE INDEX "sample_updates_manifest_idx" ON "sample_updates" USING btree ("manifest_id","time_updated","id");