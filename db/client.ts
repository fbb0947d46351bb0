import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite, types } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import * as schema from './schema';

export type Schema = typeof schema;
/** The one database handle every domain function takes, whichever engine is behind it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** PGlite instance, for the job queue adapter and tests */
  pglite?: PGlite;
  /** postgres-js client and its connection string, when on PostgreSQL */
  sql?: postgres.Sql;
  url?: string;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** PostgreSQL connection string; when absent PGlite is used */
  url?: string;
  /** directory for PGlite's files; absent means in memory */
  pgliteDir?: string;
  /** pool size for PostgreSQL */
  max?: number;
  /**
   * A PGlite dump (`PGlite.dumpDataDir`) to start the in-memory database from instead of an empty one: a copy of a
   * database already made skips PGlite's initdb, seconds of work per database (the test suite opens one per file).
   */
  pgliteFrom?: Blob;
}

export const MIGRATIONS_FOLDER = path.join(process.cwd(), 'db', 'migrations');
// a local or LAN database connects in milliseconds; one that takes seconds is restarting, and the request says so
export const CONNECT_TIMEOUT_SECONDS = 3;
// arbitrary constant: serialises migrations of several instances starting together
const MIGRATION_LOCK_ID = 727_001;

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.url) {
    await migrateWithLock(opts.url);
    // a database that does not accept a connection within seconds (restarting) fails the request fast, as a 503
    // times printed in ISO form whatever the server's own DateStyle (lib/query/sql.ts, printedUtc)
    const sql = postgres(opts.url, {
      max: opts.max ?? 10,
      onnotice: () => {},
      connect_timeout: CONNECT_TIMEOUT_SECONDS,
      connection: { DateStyle: 'ISO, MDY' },
      types: { rawText: RAW_TEXT },
    });
    return {
      db: drizzlePostgres(namedStatements(sql), { schema }) as unknown as Db,
      kind: 'postgres',
      sql,
      url: opts.url,
      close: () => sql.end(),
    };
  }
  if (opts.pgliteDir) mkdirSync(opts.pgliteDir, { recursive: true });
  const pglite = await PGlite.create({
    dataDir: opts.pgliteDir,
    loadDataDir: opts.pgliteFrom,
    extensions: { pg_trgm },
    // PGlite runs without fsync (its default -F), so filling each new WAL segment with zeros before use buys nothing:
    // a big confirm wrote each new segment twice (docs/benchmarks.md, "Big sheets")
    startParams: [...PGlite.defaultStartParams, '-c', 'wal_init_zero=off'],
    ...byteaCodec,
  });
  const db = drizzlePglite(pglite, { schema });
  await migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER });
  return { db: db as unknown as Db, kind: 'pglite', pglite, close: () => pglite.close() };
}

/**
 * Values of PostgreSQL's `varchar` come from postgres.js as the bytes that arrived, undecoded (a parser marked raw:
 * patches/postgres+3.4.9+007+raw-column-parser.patch). No column is a varchar (tests/postgres-driver.test.ts holds
 * the migrations to that): a statement casts text to it (`::varchar`, no work for PostgreSQL) to take a value as
 * bytes, as the sample queries take a sample's stored fields, which the service copies into its records without
 * decoding them (lib/standards/field-copier.ts). PGlite gives the text as it does any other.
 */
export const RAW_TEXT_OID = 1043;
const rawText = Object.assign((bytes: Uint8Array) => bytes, { raw: true });
const RAW_TEXT = { to: RAW_TEXT_OID, from: [RAW_TEXT_OID], serialize: (x: unknown) => String(x), parse: rawText };

/**
 * bytea to and from PGlite without its built-in codec, which goes through a JS array of one number and one string per
 * byte: an uploaded workbook took many times its size in heap, and seconds (docs/benchmarks.md). A parameter is handed
 * over as the bytes themselves, which PGlite's protocol writer sends as a binary parameter (its serializers are typed
 * as returning text, hence the cast); results come as hex text, decoded by Buffer.
 */
const byteaCodec = {
  serializers: { [types.BYTEA]: (x: Uint8Array) => x as unknown as string },
  parsers: { [types.BYTEA]: (x: string) => Buffer.from(x.slice(2), 'hex') },
};

/**
 * Drizzle sends its queries as unnamed statements, which PostgreSQL parses and plans anew on every call: for a
 * one-row look-up that is most of the database's work. Through this client they are named statements, which
 * postgres.js prepares once per connection and query text (connections are recycled within the hour, which bounds
 * the cache) and PostgreSQL plans once. Queries inside transactions go through the transaction's own client.
 */
function namedStatements(sql: postgres.Sql): postgres.Sql {
  return new Proxy(sql, {
    get(target, prop, receiver) {
      if (prop !== 'unsafe') return Reflect.get(target, prop, receiver);
      return (query: string, args?: postgres.ParameterOrJSON<never>[], options?: postgres.UnsafeQueryOptions) =>
        target.unsafe(query, args, { ...options, prepare: true });
    },
  });
}

async function migrateWithLock(url: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK_ID})`;
    await migratePostgres(drizzlePostgres(sql), { migrationsFolder: MIGRATIONS_FOLDER });
    await sql`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`;
  } finally {
    await sql.end();
  }
}
