import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';

/**
 * `expression = any($1::text[])`: one parameter however many values, where `in ($1, …, $n)` takes one each and a
 * statement takes at most 65,535 (a submission's samples, a page of whole manifests).
 */
export const isAnyOf = (expression: SQLWrapper, values: readonly string[]): SQL =>
  sql`${expression} = any(${sql.param([...values])}::text[])`;
