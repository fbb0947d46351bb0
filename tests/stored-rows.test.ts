import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rowsOfStored, storedRows, storedRowValues } from '@/lib/manifests/stored-rows';

/** lib/manifests/stored-rows.ts: a report's rows kept with their field names once read back as validation made them. */

const rows = fc.record({
  normalised: fc.array(
    fc.record({
      rowNumber: fc.integer({ min: 2, max: 1_048_576 }),
      values: fc.dictionary(
        fc.constantFrom('SPECIMEN_ID', 'TAXON_ID', 'SEX', 'rowNumber', '__proto__', 'values'),
        fc.string({ maxLength: 6 }),
      ),
    }),
    { maxLength: 6 },
  ),
  matches: fc.array(fc.record({ row: fc.integer({ min: 2, max: 99 }), sampleId: fc.string({ maxLength: 8 }) }), { maxLength: 3 }),
});

describe('stored report rows', () => {
  it('read back as they were, empty values and rows without some fields included', () => {
    fc.assert(
      fc.property(rows, (r) => {
        const plain = JSON.parse(JSON.stringify(r));
        const stored = JSON.parse(JSON.stringify(storedRows(plain)));
        expect(rowsOfStored(stored)).toEqual(plain);
        // each name once
        expect(new Set(stored.fields).size).toBe(stored.fields.length);
      }),
      { numRuns: 300 },
    );
  });

  it('give the fields asked for of each row, in order, as the whole rows read back have them', () => {
    const names = fc.uniqueArray(fc.constantFrom('SPECIMEN_ID', 'TAXON_ID', 'SEX', 'ORGANISM_PART', '__proto__'), { maxLength: 5 });
    fc.assert(
      fc.property(rows, names, (r, asked) => {
        const stored = JSON.parse(JSON.stringify(storedRows(JSON.parse(JSON.stringify(r)))));
        const whole = rowsOfStored(stored).normalised;
        const { fieldCount, rows: some } = storedRowValues(stored, asked);
        expect(fieldCount).toBe(stored.fields.length);
        expect(some).toEqual(
          whole.map((row, i) => ({
            n: i + 1,
            values: Object.fromEntries(asked.filter((name) => Object.hasOwn(row.values, name)).map((name) => [name, row.values[name]])),
          })),
        );
      }),
      { numRuns: 300 },
    );
  });
});
