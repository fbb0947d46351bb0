import { randomBytes } from 'node:crypto';
import postgres from 'postgres';

/** The URL of the database `name` on the PostgreSQL server at `server`. */
export const withDatabase = (server: string, name: string) => {
  const u = new URL(server);
  u.pathname = `/${name}`;
  return u.toString();
};

async function onServer(serverUrl: string, statement: string): Promise<void> {
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(statement);
  } finally {
    await admin.end();
  }
}

/**
 * A database of its own for one run of a benchmark, created on the PostgreSQL server at `serverUrl` under a random
 * name starting with `prefix`: its URL, and its drop for when the run ends.
 */
export async function scratchDatabase(serverUrl: string, prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}${randomBytes(4).toString('hex')}`;
  await onServer(serverUrl, `create database ${name}`);
  return { url: withDatabase(serverUrl, name), drop: () => onServer(serverUrl, `drop database if exists ${name} with (force)`) };
}

/**
 * The database `name` on the server at `serverUrl`, kept from an earlier run when `reuse` (given a client of it) finds
 * it seeded as this run needs and answers what to report; else dropped and created empty, and null: the caller seeds
 * it. `connect` opens a client as the benchmark opens its own.
 */
export async function reuseOrRecreate<T>(
  serverUrl: string,
  name: string,
  connect: (url: string) => postgres.Sql,
  reuse: (sql: postgres.Sql) => Promise<T | null>,
): Promise<T | null> {
  const admin = connect(serverUrl);
  try {
    const [exists] = await admin`select 1 as one from pg_database where datname = ${name}`;
    if (exists) {
      const sql = connect(withDatabase(serverUrl, name));
      try {
        const kept = await reuse(sql);
        if (kept) return kept;
      } finally {
        await sql.end();
      }
    }
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.unsafe(`create database ${name}`);
    return null;
  } finally {
    await admin.end();
  }
}
