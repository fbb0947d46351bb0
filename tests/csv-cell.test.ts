import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvCell } from '@/lib/standards/writers';

// The answers written a row at a time (sample records, sample_status, the audit) quote their cells with csvCell; the
// answers written from records use csv-stringify. Both must give the same bytes for any text.
const awkward = fc.oneof(
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: fc.constantFrom('a', ' ', ',', '"', '\r', '\n', '\t', ';', '=', 'é', '🧬') }),
);

describe('csvCell', () => {
  it('quotes a cell exactly as csv-stringify does, whatever the text', () => {
    fc.assert(
      fc.property(fc.array(awkward, { minLength: 1, maxLength: 6 }), (row) => {
        expect(`${row.map(csvCell).join(',')}\n`).toBe(stringify([row]));
      }),
      { numRuns: 2000 },
    );
  });
});
