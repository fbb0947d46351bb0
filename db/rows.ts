import { count, type SQL, type Subquery } from 'drizzle-orm';
import type { PgColumn, PgSelect } from 'drizzle-orm/pg-core';
import type { Db } from './client';

/**
 * The rows of `db.execute(sql…)`: postgres-js answers an array of rows, PGlite an object with `rows`.
 * The caller names the row shape its SQL selects.
 */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: unknown[] } | null)?.rows ?? []) as T[];
}

/**
 * The one row an `INSERT … RETURNING` or a select by primary key gives back. Its absence breaks an invariant of ours,
 * not a request, so it throws a plain Error (a 500).
 */
export function one<T>(rows: readonly T[], what: string): T {
  const row = rows[0];
  if (row === undefined) throw new Error(`expected ${what}`);
  return row;
}

/**
 * A page of a list with the true total under the same filter, the two statements run together. `list` is the
 * filtered select in Drizzle's dynamic mode, not yet ordered: the total counts it as a subquery (PostgreSQL drops
 * the columns the count does not read), and only the page is sorted.
 */
export async function pageWithTotal<Q extends PgSelect>(
  db: Db,
  list: Q,
  orderBy: (PgColumn | SQL)[],
  page: { limit: number; offset: number },
): Promise<{ rows: Awaited<Q>; total: number }> {
  // the count is built before the page: Drizzle's dynamic builder changes `list` in place
  const counted = db.select({ n: count() }).from(list.as('listed') as Subquery);
  const [rows, [total]] = await Promise.all([
    list
      .orderBy(...orderBy)
      .limit(page.limit)
      .offset(page.offset),
    counted,
  ]);
  return { rows: rows as Awaited<Q>, total: total?.n ?? 0 };
}

/** What the two engines' clients offer for running a statement with its rows as arrays. */
interface ArrayModeClient {
  /** postgres.js */
  unsafe?: (query: string, params: unknown[], options: { prepare: boolean }) => { values(): Promise<unknown[][]> };
  /** PGlite */
  query?: (query: string, params: unknown[], options: { rowMode: 'array' }) => Promise<{ rows: unknown[][] }>;
}

/**
 * A built query's rows as arrays of the driver's values, in the order the query selects them, for a reader that
 * maps them itself. Why: Drizzle maps every value of every row through its column's decoder after checking what
 * kind of column it is, which cost a 500-row sample list or a million-row export more CPU than the driver's own
 * reading of the rows (bench/http.ts). Only for statements outside a transaction, on the handle's own client.
 */
export async function valueRows(db: Db, query: { toSQL(): { sql: string; params: unknown[] } }): Promise<unknown[][]> {
  const { sql, params } = query.toSQL();
  const client = (db as unknown as { $client: ArrayModeClient }).$client;
  if (client.unsafe) return client.unsafe(sql, params, { prepare: true }).values();
  if (client.query) return (await client.query(sql, params, { rowMode: 'array' })).rows;
  throw new Error('valueRows: the database handle has no client of a known kind');
}
