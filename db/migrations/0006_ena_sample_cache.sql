CREATE TABLE "ena_sample_cache" (
	"accession" text PRIMARY KEY NOT NULL,
	"record" jsonb,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL
);
