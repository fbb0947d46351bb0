-- A report's stored rows (validation_reports.rows) are kept with the field names once and each row as its number
-- followed by its values in the names' order (lib/manifests/stored-rows.ts); the rows kept before, each an object
-- with its own field names, are written that way.
WITH "names" AS (
  SELECT "r"."id",
    coalesce((
      SELECT jsonb_agg("f"."name" ORDER BY "f"."first", "f"."name")
      FROM (
        SELECT "k" AS "name", min("e"."n") AS "first"
        FROM jsonb_array_elements("r"."rows" -> 'normalised') WITH ORDINALITY AS "e"("value", "n"),
          jsonb_object_keys("e"."value" -> 'values') AS "k"
        GROUP BY "k"
      ) "f"
    ), '[]'::jsonb) AS "fields"
  FROM "validation_reports" "r"
  WHERE "r"."rows" IS NOT NULL AND NOT ("r"."rows" ? 'fields')
)
UPDATE "validation_reports" "v" SET "rows" = jsonb_build_object(
  'fields', "names"."fields",
  'normalised', coalesce((
    SELECT jsonb_agg(
      jsonb_build_array("e"."value" -> 'rowNumber') || coalesce((
        SELECT jsonb_agg(coalesce("e"."value" -> 'values' -> "f"."name", 'null'::jsonb) ORDER BY "f"."i")
        FROM jsonb_array_elements_text("names"."fields") WITH ORDINALITY AS "f"("name", "i")
      ), '[]'::jsonb)
      ORDER BY "e"."n")
    FROM jsonb_array_elements("v"."rows" -> 'normalised') WITH ORDINALITY AS "e"("value", "n")
  ), '[]'::jsonb),
  'matches', coalesce("v"."rows" -> 'matches', '[]'::jsonb)
)
FROM "names"
WHERE "v"."id" = "names"."id";
