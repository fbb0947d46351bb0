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

/** The ids of `rows`, for an `inArray` of the same rows in another statement. */
export const idsOf = <T>(rows: readonly { id: T }[]): T[] => rows.map((r) => r.id);

/** Rows written in one statement: a thousand keep each statement far below its limit on parameters. */
const ROWS_PER_STATEMENT = 1_000;

/** `rows` in lots small enough for one statement each, in their order. */
export function* lotsOf<T>(rows: readonly T[]): Generator<T[]> {
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) yield rows.slice(i, i + ROWS_PER_STATEMENT);
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
  /** postgres.js: `.values().forEach(fn)` hands each row over as it arrives */
  unsafe?: (
    query: string,
    params: unknown[],
    options: { prepare: boolean },
  ) => { values(): { forEach(fn: (row: unknown[]) => void): Promise<unknown> } };
  /** PGlite */
  query?: (query: string, params: unknown[], options: { rowMode: 'array' }) => Promise<{ rows: unknown[][] }>;
}

/**
 * Each row of a built query, as an array of the driver's values in the order the query selects them, handed to
 * `onRow` as it arrives (on PostgreSQL, while the database is still sending the rest; PGlite answers at once).
 * Why: Drizzle maps every value of every row through its column's decoder after checking what kind of column it is,
 * and hands rows over only once all have arrived; a 500-row sample list spent more CPU in that than in reading the
 * rows, and could not start writing them until the database had finished (bench/http.ts). Only for statements
 * outside a transaction, on the handle's own client. An error thrown by `onRow` ends the query's reading of rows and
 * rejects the promise.
 */
export async function forEachValueRow(
  db: Db,
  query: { toSQL(): { sql: string; params: unknown[] } },
  onRow: (values: unknown[]) => void,
): Promise<void> {
  const { sql, params } = query.toSQL();
  const client = (db as unknown as { $client: ArrayModeClient }).$client;
  // thrown inside the driver's socket handler it would break the connection: kept, and thrown once the query is done
  let failure: { err: unknown } | null = null;
  // the row callback is let go once the statement is done or a row has failed it (the rows after are not taken).
  // Kept, a finished statement's rows stayed reachable through it (the driver's query object holds it) until a full
  // collection: in a loop of statements every row since the last scavenge survived it and was copied to the old
  // generation, which then needed full collections far more often, and lists cost more CPU (docs/benchmarks.md)
  let take: ((values: unknown[]) => void) | null = onRow;
  const guarded = (values: unknown[]) => {
    if (!take) return;
    try {
      take(values);
    } catch (err) {
      failure = { err };
      take = null;
    }
  };
  try {
    if (client.unsafe) await client.unsafe(sql, params, { prepare: true }).values().forEach(guarded);
    else if (client.query) for (const values of (await client.query(sql, params, { rowMode: 'array' })).rows) guarded(values);
    else throw new Error('forEachValueRow: the database handle has no client of a known kind');
  } finally {
    take = null;
  }
  if (failure) throw (failure as { err: unknown }).err;
}
