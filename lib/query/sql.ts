import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

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
