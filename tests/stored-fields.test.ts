import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FieldReader, StoredFields } from '@/lib/standards/stored-fields';
import { type JsonbText, jsonbText, storable } from './support/jsonb-text';

/**
 * The writers copy each field's JSON text out of what the database prints for `fields::text`. That is only right if
 * the reader finds exactly what JSON.parse finds, and if the database escapes strings exactly as JSON.stringify does;
 * both are checked here on text the database itself printed.
 */

let db: JsonbText;
beforeAll(async () => {
  db = await jsonbText();
});
afterAll(() => db.close());

const tricky = fc.constantFrom(
  '',
  '"',
  '\\',
  '\\"',
  '"\\',
  'a\\\\"b',
  ' ": "',
  '", "',
  '{}',
  '\b\f\n\r\t',
  '\u0001\u001f\u007f',
  '\u2028\u2029',
  'Ærø — ñ',
  '🦋 moth',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
);
const text = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), tricky).filter(storable);
// keys that are prefixes of one another, end in backslashes and quotes, or differ only inside (same length, first and
// last character), as rows of differing keys follow each other
const key = fc.oneof(fc.constantFrom('SPECIMEN_ID', 'GAL', 'A', 'AB', 'BA', 'Z', 'AXB', 'AYB', 'A\\', 'A\\\\', 'A"', 'A\\"'), text);
const fields = fc.dictionary(key, text, { maxKeys: 12 });

describe('reading stored fields', () => {
  it(`gives exactly what JSON.parse gives, and each value's JSON as JSON.stringify writes it (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fields, { minLength: 1, maxLength: 8 }),
        fc.array(text, { maxLength: 3 }),
        fc.array(text, { minLength: 1 }),
        async (given, absent, others) => {
          // each record followed by two of the same keys with other values: the first two of a key sequence are
          // walked, the third read by the expression made of their keys, and none may be misled by values of other
          // lengths, quotes or backslashes, nor by a row of other keys tried on the expression of the one before
          const records = given.flatMap((r, i) => [
            r,
            ...[1, 2].map((n) => Object.fromEntries(Object.keys(r).map((k, j) => [k, others[(i + j + n) % others.length] as string]))),
          ]);
          const printed = await db.print(records);
          // one reader for every row, as the writers use it: rows of differing keys follow each other
          const names = [...new Set([...records.flatMap((r) => Object.keys(r)), ...absent])];
          const reader = new FieldReader(names);
          for (const [n, stored] of printed.entries()) {
            const parsed = JSON.parse(stored) as Record<string, string>;
            expect(parsed).toEqual(records[n]);
            reader.read(new StoredFields(stored));
            expect(reader.undecoded).toBe(true);
            for (const [i, name] of names.entries()) {
              const value = Object.hasOwn(parsed, name) ? parsed[name] : undefined;
              expect(reader.text(i)).toBe(value);
              expect(reader.json(i)).toBe(value === undefined ? undefined : JSON.stringify(value));
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('prints jsonb in the one form the reader takes', async () => {
    const [printed] = await db.print([{ BB: 'x', A: 'say "hi"\n', AA: '', é: '\u0001' }]);
    // keys by length in bytes, then by bytes: é is two
    expect(printed).toBe('{"A": "say \\"hi\\"\\n", "AA": "", "BB": "x", "é": "\\u0001"}');
  });

  it('decodes what is not in that form, and reads fields built in memory', () => {
    const reader = new FieldReader(['A', 'B', 'C']);
    for (const text of ['{"A": 1, "B": "x"}', '{"A":"1","B":"x"}', '{"A": "1", "B": null}', '[]']) {
      const parsed = JSON.parse(text) as Record<string, string>;
      reader.read(new StoredFields(text));
      expect(reader.undecoded).toBe(false);
      expect([0, 1, 2].map((i) => reader.text(i))).toEqual(['A', 'B', 'C'].map((k) => (parsed as Record<string, unknown>)[k]));
    }
    reader.read({ A: 'a "b"', C: '' });
    expect([0, 1, 2].map((i) => reader.json(i))).toEqual(['"a \\"b\\""', undefined, '""']);
    expect(new StoredFields('{"A": "\\u00e9"}').record()).toEqual({ A: 'é' });
  });
});

describe('a key sequence too long for one expression', () => {
  it('is walked, not made to fail: V8 refuses to compile the expression of keys many thousands of characters long', () => {
    // found by tests/record-writers.test.ts: a row with a key of twenty thousand escaped line breaks, read three times
    // running, made the reader build an expression V8 would not compile, and the answer failed
    const key = '\n'.repeat(20_000);
    const reader = new FieldReader([key, 'A']);
    const text = JSON.stringify({ [key]: 'long', A: 'a' })
      .replace(/":"/g, '": "')
      .replace(/","/g, '", "');
    for (let time = 0; time < 4; time++) {
      reader.read(new StoredFields(text));
      expect(reader.undecoded).toBe(true);
      expect([reader.text(0), reader.json(1)]).toEqual(['long', '"a"']);
    }
  });
});
