DROP INDEX "samples_taxon_idx";--> statement-breakpoint
DROP INDEX "samples_tube_idx";--> statement-breakpoint
CREATE INDEX "samples_scientific_name_idx" ON "samples" USING btree ("scientific_name","id");--> statement-breakpoint
CREATE INDEX "samples_project_id_idx" ON "samples" USING btree ("project","id");--> statement-breakpoint
CREATE INDEX "samples_taxon_idx" ON "samples" USING btree ("taxon_id","id");--> statement-breakpoint
CREATE INDEX "samples_tube_idx" ON "samples" USING btree ("tube_or_well_id","id");