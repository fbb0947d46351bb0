import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER, openDatabase } from '@/db/client';

/**
 * The patched postgres.js (patches/postgres+3.4.9.patch) hands a query the connection that went idle last, and joins a message that spans several socket reads on its own
 * and reads the rest of the last read where it lies. Rows of every length, in any order, must come back whole
 * whatever read boundary they cross: the read sizes are the kernel's, so the lengths are random and many, from a few
 * bytes to several reads (64 kB each), with characters of one to four UTF-8 bytes. PostgreSQL only: PGlite has no
 * socket.
 */
const url = process.env.TEST_DATABASE_URL;
const sql = url ? postgres(url, { max: 1, onnotice: () => {} }) : null;
afterAll(() => sql?.end());

const CHARS = ['a', 'é', '漢', '🦋'] as const;

describe.skipIf(!sql)('postgres.js reading rows across socket reads', () => {
  it('gives back each row whole, whatever its length and wherever a read ends', async () => {
    const db = sql as postgres.Sql;
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
          const got = await db.unsafe<{ i: number; v: string }[]>(
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

describe.skipIf(!url)('postgres.js pool', () => {
  it('gives one query after another the connection that was idle last, not each open connection in turn', async () => {
    const pool = postgres(url as string, { max: 4, onnotice: () => {} });
    try {
      // four at once open every connection
      const opened = await Promise.all([0, 1, 2, 3].map(() => pool`select pg_backend_pid() as pid, pg_sleep(0.05)`));
      expect(new Set(opened.map(([r]) => r?.pid)).size).toBe(4);
      const pids = new Set<number>();
      for (let i = 0; i < 12; i++) pids.add(((await pool`select pg_backend_pid() as pid`)[0] as { pid: number }).pid);
      expect(pids.size).toBe(1);
    } finally {
      await pool.end();
    }
  });
});

describe('values taken as bytes (db/client.ts, RAW_TEXT_OID)', () => {
  it('no column of the schema is a varchar, the type the service reserves for them', () => {
    const migrations = readdirSync(MIGRATIONS_FOLDER).filter((f) => f.endsWith('.sql'));
    expect(migrations.length).toBeGreaterThan(0);
    for (const file of migrations)
      expect(readFileSync(path.join(MIGRATIONS_FOLDER, file), 'utf8')).not.toMatch(/varchar|character varying/i);
  });

  // PostgreSQL only: PGlite gives a varchar as text, like any other value (db/client.ts)
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
