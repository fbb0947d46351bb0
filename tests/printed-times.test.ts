import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '@/db/client';
import { rowsOf } from '@/db/rows';
import { formatPrinted, utcOfPrinted } from '@/lib/query/sql';
import { formatUtc } from '@/lib/values/dates';
import { createHarness, type Harness } from './support/harness';

/**
 * Lists, look-ups and exports select their times as the database prints them (printedUtc, cheaper than to_char) and
 * make utcText's form of them in the service (utcOfPrinted), or the reference's (formatPrinted). Both are checked
 * here against to_char on the database itself, and on PostgreSQL the form is checked to hold on a database whose own
 * DateStyle prints otherwise.
 */

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

type Printed = { to_char: string; printed: string };
const printedOf = (micros: number[]) => sql`
  select to_char(t at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') as to_char, (t at time zone 'UTC')::text as printed
  from unnest(${`{${micros.map((m) => `"${microsText(m)}"`).join(',')}}`}::timestamptz[]) as t`;

// microseconds since 1970 as an ISO text with its full fraction: the driver's Date would cut it to milliseconds
const microsText = (micros: number) => {
  const ms = Math.floor(micros / 1000);
  return `${new Date(ms).toISOString().slice(0, 19)}.${String(micros - Math.floor(micros / 1_000_000) * 1_000_000).padStart(6, '0')}+00:00`;
};

// from 1970 to 2100, any microsecond; whole seconds and whole milliseconds, which print shorter, often
const instant = fc.oneof(
  fc.integer({ min: 0, max: 4_102_444_800_000_000 }),
  fc.integer({ min: 0, max: 4_102_444_800 }).map((s) => s * 1_000_000),
  fc.integer({ min: 0, max: 4_102_444_800_000 }).map((ms) => ms * 1000),
);

describe('times as the database prints them', () => {
  it('are made exactly what to_char makes of them', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(instant, { minLength: 1, maxLength: 50 }), async (micros) => {
        const rows = rowsOf<Printed>(await h.database.db.execute(printedOf(micros)));
        expect(rows).toHaveLength(micros.length);
        for (const r of rows) {
          expect(utcOfPrinted(r.printed)).toBe(r.to_char);
          // the reference's form in one step (sample_status) is the two steps' (the records')
          expect(formatPrinted(r.printed)).toBe(formatUtc(r.to_char));
        }
      }),
      { numRuns: 40 },
    );
  });

  it('refuses a text in another DateStyle rather than misread it', () => {
    expect(() => utcOfPrinted('01/02/2020 10:11:12.5 UTC')).toThrow(/DateStyle/);
    expect(() => utcOfPrinted('2020-01-02')).toThrow(/DateStyle/);
    expect(() => formatPrinted('2020-01-02 10:11:12+00')).toThrow(/DateStyle/);
  });

  // only on PostgreSQL (TEST_DATABASE_URL, as the harness): a server's DateStyle is its own to set, PGlite's is ISO
  it.runIf(process.env.TEST_DATABASE_URL)('keep the ISO form on a PostgreSQL database whose own DateStyle is another', async () => {
    const url = h.database.url as string;
    const name = new URL(url).pathname.slice(1);
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    await admin.unsafe(`alter database ${name} set datestyle = 'SQL, DMY'`);
    try {
      // a plain connection to it prints the other form; the service's asks for ISO
      const other = postgres(url, { max: 1, onnotice: () => {} });
      const [fresh] = await other.unsafe<{ t: string }[]>(`select now()::timestamp::text as t`);
      await other.end();
      expect(fresh?.t).toMatch(/^\d\d\/\d\d\/\d{4} /);
      const database = await openDatabase({ url, max: 1 });
      try {
        const rows = rowsOf<Printed>(await database.db.execute(printedOf([1_600_000_000_123_456, 1_600_000_000_000_000])));
        expect(rows.map((r) => utcOfPrinted(r.printed))).toEqual(rows.map((r) => r.to_char));
      } finally {
        await database.close();
      }
    } finally {
      await admin.unsafe(`alter database ${name} reset datestyle`);
      await admin.end();
    }
  });
});
