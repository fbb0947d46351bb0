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

/** The inverse of utcText, for keyset comparisons. */
export const fromUtcText = (text: string) => sql`(${text}::timestamp at time zone 'UTC')`;

/** A LIKE pattern matching `value` anywhere, with the user's `%`, `_` and `\` taken literally. */
export const containsPattern = (value: string) => `%${value.replace(/[\\%_]/g, '\\$&')}%`;
