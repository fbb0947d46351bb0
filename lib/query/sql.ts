import { type SQL, sql } from 'drizzle-orm';
import { type AnyPgColumn, PgDialect } from 'drizzle-orm/pg-core';

const dialect = new PgDialect();

/** A statement as the driver is sent it (db/rows.ts, forEachValueRow): its text and its parameters. */
export type BatchQuery = { toSQL(): { sql: string; params: unknown[] } };

/** `q` as SQL text and its parameters, as Drizzle would send it. */
export const queryOf = (q: SQL): { sql: string; params: unknown[] } => dialect.sqlToQuery(q);

/**
 * `q` as SQL text, for a constant part of a statement rendered once (no Drizzle per request): the whole text, or a
 * head and tail around hand-numbered `$n` placeholders. A part with parameters is refused, as its values would be lost.
 */
export const textOf = (q: SQL): string => {
  const { sql: text, params } = dialect.sqlToQuery(q);
  if (params.length) throw new Error('a constant part of a query has parameters');
  return text;
};

/**
 * A timestamp as UTC text with microseconds. Queries select timestamps this way so that keyset positions and printed
 * values keep PostgreSQL's precision (a JavaScript Date would cut it to milliseconds and skip or repeat rows).
 */
export const utcText = (col: AnyPgColumn | SQL | SQL.Aliased) =>
  sql<string>`to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US')`;

/**
 * A timestamp as PostgreSQL prints it in UTC: `YYYY-MM-DD HH:MI:SS`, then a `.` and up to six digits when the second
 * is not whole (ISO DateStyle: PGlite's, and what db/client.ts asks a PostgreSQL server for). For the database it is
 * cheaper than utcText's to_char, which was a tenth of a 500-sample list's statement (bench/http.ts): the rows of
 * lists, look-ups and exports select their times so, and utcOfPrinted makes utcText's form of them as they are read.
 */
export const printedUtc = (col: AnyPgColumn | SQL) => sql<string>`(${col} at time zone 'UTC')::text`;

const PRINTED = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d{1,6})?$/;
// `YYYY-MM-DD HH:MI:SS`
const WHOLE_SECOND_CHARS = 19;

/**
 * Refuses a time not printed as printedUtc prints it: one in another DateStyle would be misread, not merely printed
 * otherwise, and a server error is better than a wrong date.
 */
function checkPrinted(text: string): void {
  if (!PRINTED.test(text)) throw new Error(`a timestamp printed as "${text}", not in ISO DateStyle`);
}

/** utcText's `YYYY-MM-DDTHH:MI:SS.US` of a time as printedUtc selects it. */
export function utcOfPrinted(text: string): string {
  checkPrinted(text);
  if (text.length === WHOLE_SECOND_CHARS) return `${text.slice(0, 10)}T${text.slice(11)}.000000`;
  return `${text.slice(0, 10)}T${text.slice(11, WHOLE_SECOND_CHARS + 1)}${text.slice(WHOLE_SECOND_CHARS + 1).padEnd(6, '0')}`;
}

/**
 * The reference's form of a time as printedUtc selects it (formatUtc of utcOfPrinted): `YYYY-MM-DDTHH:MI:SS+00:00`,
 * the microseconds before the offset when there are any. Made in one step for answers that print times and keep no
 * key (sample_status): two of each row's five values, whose two steps made a fifth of what writing it allocated.
 */
export function formatPrinted(text: string): string {
  checkPrinted(text);
  const second = `${text.slice(0, 10)}T${text.slice(11, WHOLE_SECOND_CHARS)}`;
  const fraction = text.length === WHOLE_SECOND_CHARS ? '' : text.slice(WHOLE_SECOND_CHARS + 1).padEnd(6, '0');
  return fraction === '' || fraction === '000000' ? `${second}+00:00` : `${second}.${fraction}+00:00`;
}

/** The inverse of utcText, for keyset comparisons. */
export const fromUtcText = (text: string) => sql`(${text}::timestamp at time zone 'UTC')`;

/** A LIKE pattern matching `value` anywhere, with the user's `%`, `_` and `\` taken literally. */
export const containsPattern = (value: string) => `%${value.replace(/[\\%_]/g, '\\$&')}%`;
