import { getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';

/**
 * An upsert's update of the columns `keys` to what the insert brought: `set` gives each its new value
 * (`excluded.<column>`), and `changed` holds when any of them differs, for a `setWhere` that leaves an unchanged row
 * unwritten.
 */
export function fromExcluded<T extends PgTable, K extends keyof T['_']['columns'] & string>(table: T, keys: readonly K[]) {
  const columns = getTableColumns(table);
  // K names the table's own columns
  const current = keys.map((k) => columns[k] as PgColumn);
  const brought = current.map((c) => sql`excluded.${sql.identifier(c.name)}`);
  return {
    set: Object.fromEntries(keys.map((k, i) => [k, brought[i]])) as Record<K, SQL>,
    changed: sql`(${sql.join(current, sql`, `)}) is distinct from (${sql.join(brought, sql`, `)})`,
  };
}
