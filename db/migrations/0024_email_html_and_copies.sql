ALTER TABLE "emails" ADD COLUMN "html" text;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "cc" text[] DEFAULT '{}'::text[] NOT NULL;