import type { Db } from './client';

/**
 * A statement built by Drizzle once per database handle and kept: `build` makes it with `sql.placeholder`s and
 * `.prepare(name)`, and every later call only binds values. A hot read otherwise pays for Drizzle assembling the same
 * SQL text on every request (PostgreSQL already plans it once per connection: db/client.ts prepares every statement).
 * Only for the handle it was built on, never inside a transaction.
 */
export function preparedOnce<T>(build: (db: Db) => T): (db: Db) => T {
  const built = new WeakMap<Db, T>();
  return (db) => {
    let statement = built.get(db);
    if (statement === undefined) {
      statement = build(db);
      built.set(db, statement);
    }
    return statement;
  };
}
