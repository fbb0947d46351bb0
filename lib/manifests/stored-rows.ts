import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { ParsedRow, ReportRows, StoredReportRows } from './contract';

/**
 * How a report keeps its rows for its confirmation (validation_reports.rows), and how SQL reads them: the field names
 * once, then each row as its number followed by its values in the names' order (null where the row has none). Each
 * row repeating its field names, most of a big sheet's stored JSON was names, which PostgreSQL parsed again for each
 * row (docs/benchmarks.md, "Big sheets").
 */

/** The rows a report keeps, for the table. */
export function storedRows(rows: ReportRows): StoredReportRows {
  const fields: string[] = [];
  const seen = new Set<string>();
  for (const row of rows.normalised) {
    for (const name in row.values) {
      if (!seen.has(name)) {
        seen.add(name);
        fields.push(name);
      }
    }
  }
  return {
    fields,
    normalised: rows.normalised.map((row) => [row.rowNumber, ...fields.map((name) => row.values[name] ?? null)]),
    matches: rows.matches,
  };
}

/**
 * The rows a report keeps, as the value its `rows` column is set to: their JSON sent as UTF-8 bytes, which both drivers
 * hand over as they are, and made jsonb by the database. As text, PGlite's protocol writer measured the parameter's
 * UTF-8 length in a loop over its characters, a measurable part of a big sheet's validation (docs/benchmarks.md, "Big
 * sheets").
 */
export const storedRowsValue = (rows: ReportRows): SQL =>
  sql`convert_from(${Buffer.from(JSON.stringify(storedRows(rows)))}::bytea, 'UTF8')::jsonb`;

/** The rows a report kept, as validation made them. */
export function rowsOfStored(stored: StoredReportRows): ReportRows {
  const normalised = stored.normalised.map(([rowNumber, ...values]): ParsedRow => {
    const entries: [string, string][] = [];
    stored.fields.forEach((name, i) => {
      const value = values[i];
      if (typeof value === 'string') entries.push([name, value]);
    });
    // fromEntries makes each name its own property, `__proto__` included
    return { rowNumber: Number(rowNumber), values: Object.fromEntries(entries) };
  });
  return { normalised, matches: stored.matches };
}

/** What storedRowValues takes of a report's rows: how many field names they have, and each row's values asked for. */
export interface StoredRowValues {
  fieldCount: number;
  rows: { n: number; values: Record<string, string> }[];
}

/**
 * Of each stored row, in order: its place among them (from 1) and its values of the fields `names` alone (those it
 * has), without making each whole row an object as rowsOfStored does.
 */
export function storedRowValues(stored: StoredReportRows, names: readonly string[]): StoredRowValues {
  // each field's place in a stored row, whose first value is its row number
  const places = names.map((name) => [name, stored.fields.indexOf(name) + 1] as const).filter(([, at]) => at > 0);
  const rows = stored.normalised.map((row, i) => {
    const entries: [string, string][] = [];
    for (const [name, at] of places) {
      const value = row[at];
      if (typeof value === 'string') entries.push([name, value]);
    }
    // as in rowsOfStored: each name its own property, `__proto__` included
    return { n: i + 1, values: Object.fromEntries(entries) };
  });
  return { fieldCount: stored.fields.length, rows };
}

/**
 * The `from` clause's part that reads the stored rows of the report `report` (a validation_reports row of the query):
 * each row as `r(value, n)`, in their order, beside the report's field names (`k.names`).
 */
export const storedRowsOf = (report: SQLWrapper): SQL =>
  // `offset 0` keeps the names a subquery read once per report: pulled up, they were read again for every row
  sql`cross join lateral (select array(select jsonb_array_elements_text(${report} -> 'fields')) as names offset 0) k
    cross join lateral jsonb_array_elements(${report} -> 'normalised') with ordinality as r(value, n)`;

/** A stored row's value of the field `name` as text, null where it has none. */
export const storedValue = (name: string): SQL => sql`(r.value ->> array_position(k.names, ${name}::text))`;

/** A stored row's number in the sheet. */
export const storedRowNumber: SQL = sql`(r.value ->> 0)::int`;

/**
 * A stored row's fields as one JSON object, the sample's `fields` (the names it has a value for), for a report of
 * `count` field names. Each value is taken at its place: the same values as text from a set-returning function over the
 * row were slower, in the larger part of confirming a big manifest (docs/benchmarks.md, "Big sheets").
 */
export const storedFieldsOf = (count: number): SQL =>
  sql`jsonb_strip_nulls(jsonb_object(k.names, array[${sql.raw(Array.from({ length: count }, (_, i) => `r.value ->> ${i + 1}`).join(', '))}]::text[]))`;
