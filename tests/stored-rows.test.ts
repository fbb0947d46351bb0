import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rowsOfStored, storedRows } from '@/lib/manifests/stored-rows';

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
});
