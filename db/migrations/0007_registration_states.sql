ALTER TABLE "samples" ADD COLUMN "status_detail" text;--> statement-breakpoint
ALTER TABLE "samples" ADD COLUMN "next_attempt_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "specimens" ADD COLUMN "tolid_status" text;--> statement-breakpoint
ALTER TABLE "specimens" ADD COLUMN "tolid_reason" text;--> statement-breakpoint
ALTER TABLE "specimens" ADD COLUMN "tolid_asked_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "samples_waiting_idx" ON "samples" USING btree ("status","next_attempt_at") WHERE "samples"."status" in ('processing', 'awaiting_ena', 'awaiting_tolid');