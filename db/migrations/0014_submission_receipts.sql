CREATE TABLE "submission_receipts" (
	"submission_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"kind" text NOT NULL,
	"alias" text,
	"objects" text,
	"success" boolean NOT NULL,
	"submission" text,
	"errors" jsonb,
	"infos" jsonb,
	"deposition" text,
	"xml" text,
	CONSTRAINT "submission_receipts_submission_id_seq_pk" PRIMARY KEY("submission_id","seq")
);
--> statement-breakpoint
ALTER TABLE "submission_receipts" ADD CONSTRAINT "submission_receipts_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- every answer kept so far, in its place (from 0), before the array it was kept in goes
INSERT INTO "submission_receipts" ("submission_id", "seq", "at", "kind", "alias", "objects", "success", "submission", "errors", "infos", "deposition", "xml")
SELECT s."id", (r.i - 1)::integer, coalesce((r.e ->> 'at')::timestamptz, s."updated_at"), coalesce(r.e ->> 'kind', 'unknown'),
  r.e ->> 'alias', r.e ->> 'objects', coalesce((r.e ->> 'success')::boolean, false), r.e ->> 'submission',
  r.e -> 'errors', r.e -> 'infos', r.e ->> 'deposition', r.e ->> 'xml'
FROM "submissions" s, jsonb_array_elements(s."receipts") WITH ORDINALITY AS r(e, i);--> statement-breakpoint
ALTER TABLE "submissions" DROP COLUMN "receipts";