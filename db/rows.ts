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
