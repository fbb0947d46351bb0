import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER, openDatabase } from '@/db/client';

/**
 * The patched postgres.js: one describe per patch file of patches/ (postgres+3.4.9+NNN+<name>.patch, applied in order
 * by patch-package; docs/benchmarks.md, "The postgres.js patches"), each showing its change through the driver's
 * public API. They need real PostgreSQL through postgres.js (PGlite has no socket): TEST_DATABASE_URL, else the local
 * server that every machine of the project has. A driver upgrade that carries a change upstream keeps its test.
 */
const DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const pools: postgres.Sql[] = [];
/** A pool of its own for one test, ended after the file (at once: one test leaves a connection stuck on purpose). */
function pool(options: postgres.Options<Record<string, postgres.PostgresType>> = {}): postgres.Sql {
  const sql = postgres(DATABASE_URL, { onnotice: () => {}, ...options });
  pools.push(sql);
  return sql;
}
afterAll(async () => {
  await Promise.all(pools.map((sql) => sql.end({ timeout: 0 })));
});

/** The patch files, in the order patch-package applies them; each has a describe below. */
const PATCHES = ['001+closed-socket-write', '003+statement-signature-cache', '005+pool-lifo', '007+raw-column-parser'] as const;
const patch = (name: (typeof PATCHES)[number]) => `postgres+3.4.9+${name}.patch`;

it('the postgres.js patches are the ones tested here', () => {
  const files = readdirSync(path.join(process.cwd(), 'patches')).filter((f) => f.startsWith('postgres+'));
  expect(files.sort()).toEqual(PATCHES.map(patch));
});

const pidOf = async (sql: postgres.Sql): Promise<number> => ((await sql`select pg_backend_pid() as pid`)[0] as { pid: number }).pid;
const settled = <T>(p: Promise<T>, ms: number): Promise<T | 'pending' | Error> =>
  Promise.race([p.catch((e: Error) => e), new Promise<'pending'>((r) => setTimeout(r, ms, 'pending'))]);

describe(`${patch('001+closed-socket-write')}: a connection whose socket closed writes nothing more`, () => {
  it('a transaction whose database process is terminated rejects, and nothing throws from a timer afterwards', async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (e: unknown) => uncaught.push(e);
    process.on('uncaughtException', onUncaught);
    try {
      const sql = pool({ max: 1 });
      await expect(sql.begin((tx) => tx`select pg_terminate_backend(pg_backend_pid())`)).rejects.toMatchObject({
        code: 'CONNECTION_CLOSED',
      });
      // begin() sends its ROLLBACK on the connection that has closed; unpatched, the write it scheduled threw
      // "Cannot read properties of null (reading 'write')" from setImmediate, which ends a process (vitest too
      // reports it as an error)
      await new Promise((r) => setTimeout(r, 100));
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
  });

  it('the pool answers the next query on a new connection after the server closed an idle one', async () => {
    const sql = pool({ max: 1 });
    const admin = pool({ max: 1 });
    const before = await pidOf(sql);
    await admin`select pg_terminate_backend(${before})`;
    await new Promise((r) => setTimeout(r, 100));
    const [row] = await sql`select pg_backend_pid() as pid, ${'after'}::text as v`;
    expect(row?.v).toBe('after');
    expect(row?.pid).not.toBe(before);
  });

  // A known defect the patch leaves (docs/benchmarks.md): the ROLLBACK above is executed on the closed connection,
  // its bytes are dropped, and it stays that connection's current query, so the connection's next query is handed
  // the answer meant for another (here the terminated query's error), and the one after waits for ever. Marked
  // `fails`: when a fix or an upgrade makes it pass, vitest says so and the mark goes.
  it.fails('after such a transaction, the connection answers its next queries with their own answers', async () => {
    const sql = pool({ max: 1 });
    await sql.begin((tx) => tx`select pg_terminate_backend(pg_backend_pid())`).catch(() => {});
    for (const v of [1, 2]) {
      const rows = await settled(sql`select ${v}::int as v`, 2_000);
      expect(rows).toEqual([{ v }]);
    }
  });
});

// What the service relies on of the driver itself, patched or not: answers in order through its queues, and rows
// whole across socket reads. Patches for their speed were measured one by one (bench/measures.ts) and removed; these
// stay, since a driver upgrade must keep them.
describe('the driver’s queues: thousands of queries behind one connection', () => {
  it('thousands of queries queued behind one connection, some cancelled while waiting, each get their own answer in order', async () => {
    const sql = pool({ max: 1 });
    await sql`select 1`; // the connection open: a query is sent or queued at once
    const n = 5_000;
    const cancelled = (i: number) => i >= n / 2 && i % 7 === 3;
    const order: number[] = [];
    const queries = Array.from({ length: n }, (_, i) => sql`select ${i}::int as v`);
    const answers = queries.map((query, i) =>
      query.then(
        ([row]) => {
          order.push(i);
          return row?.v;
        },
        (e: postgres.PostgresError) => e.code,
      ),
    );
    // a query of the second half is still waiting in the pool's queue after one turn of the event loop (each answer
    // is a round trip, a hundred are sent at a time); cancelling it takes it out of the queue (Queue.remove)
    await new Promise((r) => setImmediate(r));
    for (const [i, query] of queries.entries()) if (cancelled(i)) void query.cancel();
    expect(await Promise.all(answers)).toEqual(Array.from({ length: n }, (_, i) => (cancelled(i) ? '57014' : i)));
    expect(order).toEqual(Array.from({ length: n }, (_, i) => i).filter((i) => !cancelled(i)));
  });
});

describe(`${patch('003+statement-signature-cache')}: one prepared statement per text and parameter types`, () => {
  const text = "select $1 as v, 'signature-cache test' as tag";
  const prepared = (sql: postgres.Sql) =>
    sql<{ types: string }[]>`select parameter_types::text as types from pg_prepared_statements where statement = ${text} order by 1`;

  it('the same text reused gives the right answers and is prepared once per parameter types', async () => {
    const sql = pool({ max: 1 });
    const query = (v: unknown) => sql`select ${v as string} as v, 'signature-cache test' as tag`;
    for (let round = 0; round < 3; round++) {
      expect(await query(round)).toEqual([{ v: String(round), tag: 'signature-cache test' }]);
      expect(await query(`s${round}`)).toEqual([{ v: `s${round}`, tag: 'signature-cache test' }]);
      expect(await query(round % 2 === 0)).toEqual([{ v: round % 2 === 0, tag: 'signature-cache test' }]);
    }
    expect((await prepared(sql)).map((r) => r.types)).toEqual(['{boolean}', '{text}']);

    // more texts than the cache keeps (1,000) clear it; the text is still found prepared, not prepared again
    for (let i = 0; i < 1_100; i++) {
      const strings = Object.assign([`select ${i} + `, '::int as v'], { raw: [`select ${i} + `, '::int as v'] });
      expect(await sql(strings, i)).toEqual([{ v: 2 * i }]);
    }
    expect(await query('again')).toEqual([{ v: 'again', tag: 'signature-cache test' }]);
    expect((await prepared(sql)).map((r) => r.types)).toEqual(['{boolean}', '{text}']);
  });
});

const CHARS = ['a', 'é', '漢', '🦋'] as const;

describe('the driver’s reads: a message longer than a socket read arrives whole', () => {
  it('rows of a megabyte, between small ones, arrive intact', async () => {
    const sql = pool({ max: 1 });
    const rows = await sql<{ i: number; v: string; md5: string }[]>`
      select i, v, md5(v) as md5
      from generate_series(1, 6) as i, lateral (select case when i % 2 = 0 then repeat('é漢🦋' || i, 100000) else 'small ' || i end as v) x
      order by i`;
    expect(rows.map((r) => r.i)).toEqual([1, 2, 3, 4, 5, 6]);
    for (const r of rows) {
      expect(r.v).toBe(r.i % 2 === 0 ? `é漢🦋${r.i}`.repeat(100_000) : `small ${r.i}`);
      expect(createHash('md5').update(r.v, 'utf8').digest('hex')).toBe(r.md5);
    }
    expect(Buffer.byteLength(rows[1]?.v ?? '', 'utf8')).toBeGreaterThanOrEqual(1_000_000);
  });

  // the read sizes are the kernel's, so the lengths are random and many, from a few bytes to several reads (64 kB
  // each), with characters of one to four UTF-8 bytes, so that many reads end inside a row (some a byte short of it)
  it('gives back each row whole, whatever its length and wherever a read ends', async () => {
    const sql = pool({ max: 1 });
    await fc.assert(
      fc.asyncProperty(
        // mostly short rows, so that many reads end inside one (and some a byte short of its end), and a few long ones
        fc.array(
          fc.record({
            n: fc.oneof({ weight: 20, arbitrary: fc.integer({ min: 0, max: 3_000 }) }, fc.integer({ min: 3_000, max: 150_000 })),
            c: fc.constantFrom(...CHARS),
          }),
          { minLength: 1, maxLength: 800, size: 'max' },
        ),
        async (rows) => {
          const got = await sql.unsafe<{ i: number; v: string }[]>(
            'select i, repeat(c, n) as v from unnest($1::int[], $2::text[]) with ordinality as t(n, c, i) order by i',
            [rows.map((r) => r.n), rows.map((r) => r.c)],
          );
          expect(got.map((r) => r.v.length)).toEqual(rows.map((r) => r.n * r.c.length));
          got.forEach((r, k) => {
            const { n, c } = rows[k] as { n: number; c: string };
            expect(r.v === c.repeat(n)).toBe(true);
          });
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe(`${patch('005+pool-lifo')}: the pool hands a query the connection that went idle last`, () => {
  it('gives one query after another the connection that was idle last, not each open connection in turn', async () => {
    const sql = pool({ max: 4 });
    // four at once open every connection
    const opened = await Promise.all([0, 1, 2, 3].map(() => sql`select pg_backend_pid() as pid, pg_sleep(0.05)`));
    expect(new Set(opened.map(([r]) => r?.pid)).size).toBe(4);
    const pids = new Set<number>();
    for (let i = 0; i < 12; i++) pids.add(await pidOf(sql));
    expect(pids.size).toBe(1);
  });
});

describe(`${patch('007+raw-column-parser')}: a parser marked raw receives the value’s bytes`, () => {
  // varchar (1043), as db/client.ts (RAW_TEXT_OID); text keeps the driver's decoding
  const raw = Object.assign((bytes: Uint8Array) => Uint8Array.from(bytes), { raw: true });

  it('gets a Buffer of the UTF-8 bytes PostgreSQL sent; a parser without the mark gets the text', async () => {
    const seen: unknown[] = [];
    const sql = pool({
      max: 1,
      types: {
        rawText: { to: 1043, from: [1043], serialize: String, parse: raw },
        plain: { to: 700, from: [700], serialize: String, parse: (x: unknown) => seen.push(x) && Number(x) },
      },
    });
    const text = 'a é 漢 🦋';
    const [row] = await sql<{ raw: Uint8Array; plain: string; float: number }[]>`
      select ${text}::text::varchar as raw, ${text}::text as plain, 1.5::real as float`;
    expect(row?.raw).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(row?.raw as Uint8Array).equals(Buffer.from(text, 'utf8'))).toBe(true);
    expect(row?.plain).toBe(text);
    expect(row?.float).toBe(1.5);
    expect(seen).toEqual(['1.5']);
  });
});

describe('values taken as bytes (db/client.ts, RAW_TEXT_OID; patch 007)', () => {
  it('no column of the schema is a varchar, the type the service reserves for them', () => {
    const migrations = readdirSync(MIGRATIONS_FOLDER).filter((f) => f.endsWith('.sql'));
    expect(migrations.length).toBeGreaterThan(0);
    for (const file of migrations)
      expect(readFileSync(path.join(MIGRATIONS_FOLDER, file), 'utf8')).not.toMatch(/varchar|character varying/i);
  });

  // PostgreSQL only: PGlite gives a varchar as text, like any other value (db/client.ts). openDatabase migrates the
  // database it is given, so this one runs only where the suite was given one
  const url = process.env.TEST_DATABASE_URL;
  it.skipIf(!url)('come from the service’s client as the UTF-8 bytes PostgreSQL sent, whatever their length', async () => {
    const database = await openDatabase({ url: url as string, max: 1 });
    try {
      const client = database.sql as postgres.Sql;
      await fc.assert(
        fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 3_000 }), async (text) => {
          const [row] = await client.unsafe<{ raw: Uint8Array; plain: string }[]>('select $1::text::varchar as raw, $1::text as plain', [
            text,
          ]);
          expect(row?.raw).toBeInstanceOf(Uint8Array);
          expect(Buffer.from(row?.raw as Uint8Array).toString('utf8')).toBe(text);
          expect(row?.plain).toBe(text);
        }),
        { numRuns: 200 },
      );
    } finally {
      await database.close();
    }
  });
});
