CREATE TABLE "ontology_term_cache" (
	"key" text PRIMARY KEY NOT NULL,
	"term" jsonb,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL
);
