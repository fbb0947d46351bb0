CREATE TABLE "schema_workbook_sheets" (
	"key" text PRIMARY KEY NOT NULL,
	"file" text NOT NULL,
	"sheets" jsonb NOT NULL,
	"read_at" timestamp with time zone DEFAULT now() NOT NULL
);
