import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentDefinition } from '@/lib/manifests';
import { ByteChunks } from '@/lib/query/byte-chunks';
import { copyPlan, fieldCopier } from '@/lib/standards/field-copier';
import { FIELD_COPIER_WASM } from '@/lib/standards/field-copier.wasm';
import type { FieldSource } from '@/lib/standards/render';
import { renderSample } from '@/lib/standards/render';
import { StoredFields } from '@/lib/standards/stored-fields';
import { jsonRecordWriter } from '@/lib/standards/writers';
import { compileFieldCopier, fieldCopierSource } from '../scripts/build-wasm.mjs';
import { type JsonbText, jsonbText, storable } from './support/jsonb-text';
import { sampleRow } from './support/sample-row';
import { bytesOfParts } from './support/written-parts';

/**
 * The field copier (lib/standards/field-copier.wat) writes a record's fields from the bytes the database printed: for
 * any values, exactly the JSON the JavaScript path writes; for text of any other key sequence or form, nothing.
 */

let db: JsonbText;
beforeAll(async () => {
  db = await jsonbText();
});
afterAll(() => db.close());

const value = fc
  .oneof(
    fc.string(),
    fc.string({ unit: 'binary' }),
    fc.constantFrom('', '"', '\\', '\\"', 'a\\', 'x'.repeat(40), 'Ærø — ñ 🦋', 'two\nlines', '\u0001\u001f', '}', ', "K": "'),
  )
  .filter(storable);
const KEYS = ['A', 'B', 'SPECIMEN_ID', 'say "hi"', 'ÆRØ', 'a\\b', 'LONG_KEY_NAME_OF_MORE_THAN_SIXTEEN'] as const;

/** What the JavaScript path writes for `record`'s fields in `order`, each absent one as its fallback. */
const expected = (record: Record<string, string>, order: readonly string[], fallbacks: readonly string[]) =>
  order.map((key, i) => `${i ? ',' : '{'}${JSON.stringify(key)}:${key in record ? JSON.stringify(record[key]) : fallbacks[i]}`).join('');

describe('the field copier', () => {
  it('is the module lib/standards/field-copier.wat compiles to (run scripts/build-wasm.mjs after changing it)', async () => {
    const bytes = await compileFieldCopier();
    expect(bytes.toString('base64')).toBe(FIELD_COPIER_WASM);
    expect(fieldCopierSource(bytes)).toContain(FIELD_COPIER_WASM);
  });

  it(`copies each value as JSON.stringify writes it, in the record's order, from what the database printed (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, async () => {
    const copier = fieldCopier();
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.constantFrom(...KEYS), value),
        fc.shuffledSubarray([...KEYS, 'ABSENT'], { minLength: 1 }),
        async (record, order) => {
          const [text] = (await db.print([record])) as [string];
          const read = JSON.parse(text) as Record<string, string>;
          // the key sequence as printed, and where each key stands among the names the record reads
          const keys = Object.keys(read).map((k) => JSON.stringify(k).slice(1, -1));
          const names = order;
          const positions = Object.keys(read).map((k) => names.indexOf(k));
          const fallbacks = order.map((k) => JSON.stringify(`fallback of ${k}`));
          const sources: FieldSource[] = order.map((_, i) => ({ position: i, legacy: -1, fallbackJson: fallbacks[i] as string }));
          const prefixes = order.map((k, i) => `${i ? ',' : '{'}${JSON.stringify(k)}:`);
          const plan = copyPlan({ keys, positions }, prefixes, sources, -1);
          const length = copier.fields(text, plan);
          expect(length).toBeGreaterThanOrEqual(0);
          expect(Buffer.from(copier.record(length)).toString()).toBe(expected(read, order, fallbacks));
          for (const [k, key] of Object.keys(read).entries()) expect(copier.valueOf(k)).toBe(read[key]);
          // the same from the bytes as they arrive from PostgreSQL (db/client.ts, RAW_TEXT_OID)
          expect(Buffer.from(copier.record(copier.fields(Buffer.from(text), plan))).toString()).toBe(expected(read, order, fallbacks));
          // the same plan refuses a row of other keys, or of the same keys in another form
          const other = (await db.print([{ ...record, EXTRA: 'x' }])) as [string];
          expect(copier.fields(other[0], plan)).toBe(-1);
          if (keys.length) expect(copier.fields(text.replace(/^\{"/, '{ "'), plan)).toBe(-1);
          expect(copier.fields(`${text.slice(0, -1)}, "B": 1}`, plan)).toBe(-1);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('takes a text exactly when it is that key sequence with string values as PostgreSQL prints them, and never reads past it', () => {
    const copier = fieldCopier();
    const keys = ['A', 'B'];
    const plan = copyPlan(
      { keys, positions: [0, 1] },
      ['{"A":', ',"B":'],
      [0, 1].map((position) => ({ position, legacy: -1, fallbackJson: '""' })),
      -1,
    );
    // the copier's contract, as an expression: a string is a quote, then characters of which a backslash escapes the
    // next, to a quote (the same as lib/standards/stored-fields.ts's, with a backslash escaping a line break too)
    const string = '("[^"\\\\]*(?:\\\\[\\s\\S][^"\\\\]*)*")';
    const form = new RegExp(`^\\{"A": ${string}, "B": ${string}\\}$`);
    const near = fc
      .oneof(
        fc.string(),
        fc.string({ unit: 'binary' }),
        fc.tuple(fc.string(), fc.string()).map(([a, b]) => `{"A": "${a}", "B": "${b}"}`),
        fc.tuple(value, value).map(([a, b]) => `{"A": ${JSON.stringify(a)}, "B": ${JSON.stringify(b)}}`),
        fc
          .tuple(value, value, fc.nat(40))
          .map(([a, b, cut]) => `{"A": ${JSON.stringify(a)}, "B": ${JSON.stringify(b)}}`.slice(0, -cut - 1)),
      )
      // what UTF-8 carries: a lone surrogate is not text the database prints
      .filter(storable);
    fc.assert(
      fc.property(near, (text) => {
        const length = copier.fields(text, plan);
        const match = form.exec(text);
        if (match) expect(Buffer.from(copier.record(length)).toString()).toBe(`{"A":${match[1]},"B":${match[2]}`);
        else expect(length).toBe(-1);
      }),
      { numRuns: 5000 },
    );
  });

  it('places plans again once their memory is full, and leaves a plan larger than it to the JavaScript path', () => {
    const copier = fieldCopier();
    // seven plans of 1,500 long keys each (some 190 kB): more than the plans' megabyte together
    const planOf = (n: number, keyLength: number, count: number) => {
      const keys = Array.from({ length: count }, (_, i) => `${String(n).padStart(3, '0')}${'K'.repeat(keyLength)}${i}`);
      const text = `{${keys.map((k, i) => `"${k}": "v${n}.${i}"`).join(', ')}}`;
      const order = [keys[count - 1] as string, keys[0] as string];
      const plan = copyPlan(
        { keys, positions: keys.map((k) => order.indexOf(k)) },
        order.map((k, i) => `${i ? ',' : '{'}${JSON.stringify(k)}:`),
        order.map((_, position) => ({ position, legacy: -1, fallbackJson: '""' })),
        -1,
      );
      return { text, plan, expected: `{"${order[0]}":"v${n}.${count - 1}","${order[1]}":"v${n}.0"` };
    };
    const plans = Array.from({ length: 7 }, (_, n) => planOf(n, 120, 1_500));
    for (let round = 0; round < 3; round++) {
      for (const { text, plan, expected } of plans) {
        expect(Buffer.from(copier.record(copier.fields(text, plan))).toString()).toBe(expected);
      }
    }
    const huge = planOf(9, 600, 1_999);
    expect(huge.plan.keys.length).toBeGreaterThan(1 << 20);
    expect(copier.fields(huge.text, huge.plan)).toBe(-1);
  });

  it('writes rows of a key sequence met twice running, in place of the JavaScript path, with the same bytes', async () => {
    const version = currentDefinition('dtol').version;
    const [text] = (await db.print([{ SPECIMEN_ID: 'S1', SCIENTIFIC_NAME: 'Vulpes "vulpes"', LIFESTAGE: 'ADULT' }])) as [string];
    const row = sampleRow({
      id: '0123456789abcdef01234567',
      manifestId: '0b8f6c1e-0000-4000-8000-000000000001',
      project: 'dtol',
      manifestVersion: version,
      status: 'accepted',
      fields: new StoredFields(text),
      biosampleAccession: 'SAMEA1',
      timeCreated: '2026-01-02T03:04:05.000001',
      timeUpdated: '2026-01-02T03:04:05.000002',
      profileTitle: 'Moths',
    });
    const into = jsonRecordWriter('tol');
    const chunks = new ByteChunks(',');
    // the first two rows are written as text (the key sequence is learnt), the third as bytes
    for (let time = 0; time < 3; time++) into.write(row, chunks);
    const parts = chunks.parts();
    expect(parts.some((p) => typeof p !== 'string')).toBe(true);
    expect(bytesOfParts(parts).toString()).toBe(
      Array(3)
        .fill(JSON.stringify(renderSample(row, 'tol')))
        .join(','),
    );
  });
});
