import ExcelJS from 'exceljs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { currentDefinition, MANIFEST_PROJECTS, parseManifest, validateManifest } from '@/lib/manifests';
import {
  checkCoordinate,
  cleanCell,
  earliestDay,
  isValidUrl,
  latestDay,
  parseDecimal,
  parseEnaDate,
  parseIsoDate,
  vocabularyKey,
} from '@/lib/manifests/values';
import { dateText, numberText, serialOfDate } from '@/lib/spreadsheets/cells';
import { testContext } from './fixtures/manifests/context';
import { manifestOf } from './fixtures/manifests/manifest';
import { toCsv, toXlsx } from './fixtures/manifests/workbook';

/** Cell text a submitter could type: printable, no surrounding blanks (the parser trims), not empty. */
const cellString = fc
  .string({ unit: 'grapheme', minLength: 1, maxLength: 30 })
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a submitter cannot type control characters into a cell
  .map((s) => s.replace(/[\u0000-\u001f\u007f-\u009f\ufffe\uffff]/g, '').trim())
  .filter((s) => s.length > 0);

/** 1–6 distinct header names and up to 6 rows of optional cells. */
const sheet = fc.uniqueArray(fc.stringMatching(/^[A-Z][A-Z0-9_]{0,15}$/), { minLength: 1, maxLength: 6 }).chain((headers) =>
  fc.record({
    headers: fc.constant(headers),
    rows: fc.array(fc.dictionary(fc.constantFrom(...headers), cellString), { maxLength: 6 }),
  }),
);

const nonEmpty = (rows: Record<string, string>[]) =>
  rows.map((values, i) => ({ rowNumber: i + 2, values })).filter((r) => Object.keys(r.values).length > 0);

describe('parsing round-trips', () => {
  it('xlsx: any text written to the sheet is read back, at its row', async () => {
    await fc.assert(
      fc.asyncProperty(sheet, async ({ headers, rows }) => {
        const parsed = await parseManifest(await toXlsx(headers, rows), 'p.xlsx');
        expect(parsed.headers).toEqual(headers);
        expect(parsed.rows).toEqual(nonEmpty(rows));
      }),
      { numRuns: 60 },
    );
  });

  it('CSV: any text written is read back, at its row', async () => {
    await fc.assert(
      fc.asyncProperty(sheet, async ({ headers, rows }) => {
        const parsed = await parseManifest(toCsv(headers, rows), 'p.csv');
        expect(parsed.headers).toEqual(headers);
        expect(parsed.rows).toEqual(nonEmpty(rows));
      }),
      { numRuns: 100 },
    );
  });

  it('xlsx: numbers come back as their shortest text, without float noise', async () => {
    const numbers = fc.array(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e15, max: 1e15 }), { minLength: 1, maxLength: 20 });
    await fc.assert(
      fc.asyncProperty(numbers, async (values) => {
        const wb = new ExcelJS.Workbook();
        const ws = wb.addWorksheet('Metadata Entry');
        ws.getCell('A1').value = 'N';
        for (const [i, v] of values.entries()) ws.getCell(`A${i + 2}`).value = v;
        const parsed = await parseManifest(Buffer.from(await wb.xlsx.writeBuffer()), 'n.xlsx');
        const texts = parsed.rows.map((r) => r.values.N);
        expect(texts).toEqual(values.map((v) => numberText(v)));
        for (const [i, t] of texts.entries()) expect(Number(t)).toBe(Number((values[i] ?? 0).toPrecision(15)) || 0);
      }),
      { numRuns: 40 },
    );
  });

  it('xlsx: date cells come back as the ISO day, and time-of-day cells as HH:MM', async () => {
    const days = fc.array(fc.date({ min: new Date('1901-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }), {
      minLength: 1,
      maxLength: 10,
    });
    const minutes = fc.integer({ min: 0, max: 24 * 60 - 1 });
    await fc.assert(
      fc.asyncProperty(days, minutes, async (dates, minute) => {
        const wb = new ExcelJS.Workbook();
        const ws = wb.addWorksheet('Metadata Entry');
        ws.getRow(1).values = ['D', 'T'];
        const midnight = dates.map((d) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate())));
        midnight.forEach((d, i) => {
          ws.getCell(`A${i + 2}`).value = d;
          ws.getCell(`A${i + 2}`).numFmt = 'd-mmm-yy';
        });
        ws.getCell('B2').value = new Date(Date.UTC(1899, 11, 30, Math.floor(minute / 60), minute % 60));
        ws.getCell('B2').numFmt = 'h:mm';
        const parsed = await parseManifest(Buffer.from(await wb.xlsx.writeBuffer()), 'd.xlsx');
        expect(parsed.rows.map((r) => r.values.D)).toEqual(midnight.map((d) => d.toISOString().slice(0, 10)));
        expect(parsed.rows[0]?.values.T).toBe(
          `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`,
        );
      }),
      { numRuns: 40 },
    );
  });

  it('a number under a date format is recovered exactly from exceljs’s millisecond Date', () => {
    fc.assert(
      // up to 7 decimals: exceljs keeps the Date to the millisecond, 1.16e-8 of a day
      fc.property(fc.integer({ min: -90_000_000, max: 90_000_000 }), fc.integer({ min: 0, max: 7 }), (n, decimals) => {
        const value = n / 10 ** decimals;
        const date = new Date(Math.round((value - 25569) * 86_400_000));
        expect(serialOfDate(date)).toBe(value);
      }),
      { numRuns: 2000 },
    );
    expect(dateText(new Date(Number.NaN))).toBe('');
  });
});

describe('value parsers are total', () => {
  const anyText = fc.oneof(
    fc.string(),
    fc.string({ unit: 'binary' }),
    fc.constantFrom('', ' ', '1/2/3', '2023-00-10', '-', '+', '.', 'NaN', '1e400'),
  );

  it('never throw, whatever the text', () => {
    fc.assert(
      fc.property(anyText, (s) => {
        parseEnaDate(s);
        parseIsoDate(s);
        parseDecimal(s);
        checkCoordinate(s, -90, 90, 8);
        isValidUrl(s);
        cleanCell(s);
        vocabularyKey(s);
      }),
      { numRuns: 2000 },
    );
  });

  it('coordinates: every decimal text in range is accepted, and every accepted text is in range', () => {
    fc.assert(
      fc.property(fc.double({ min: -90, max: 90, noNaN: true }), fc.integer({ min: 0, max: 8 }), (v, d) => {
        const text = v.toFixed(d);
        const r = checkCoordinate(text, -90, 90, 8);
        expect(r.ok).toBe(true);
        if (r.ok) expect(Math.abs(r.value - Number(text))).toBe(0);
      }),
    );
    fc.assert(
      fc.property(fc.string(), (s) => {
        const r = checkCoordinate(s, -180, 180, null);
        if (r.ok) expect(r.value >= -180 && r.value <= 180).toBe(true);
      }),
    );
  });

  it('dates: every real calendar day parses, with a range that contains it', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('1000-01-01T00:00:00Z'), max: new Date('2999-12-31T00:00:00Z'), noInvalidDate: true }), (d) => {
        const iso = d.toISOString().slice(0, 10);
        expect(parseIsoDate(iso)).not.toBeNull();
        const range = parseEnaDate(`${iso.slice(0, 7)}/${iso}`);
        expect(range).not.toBeNull();
        if (range) expect(earliestDay(range.start) <= iso && iso <= latestDay(range.start)).toBe(true);
      }),
    );
  });
});

describe('validation is total', () => {
  it('any cell values give a report, never an exception, with rows numbered as given', async () => {
    const cells = fc.oneof(
      cellString,
      fc.constantFrom('NA', 'NOT_COLLECTED', 'TARGET', 'SYMBIONT', '171585', 'Aglais io', '51.5', '2023-06-15', 'Y', 'N'),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...MANIFEST_PROJECTS),
        fc.array(fc.array(cells, { minLength: 3, maxLength: 90 }), { maxLength: 5 }),
        async (project, grid) => {
          const definition = currentDefinition(project);
          const names = definition.fields.map((f) => f.name);
          const rows = grid.map((cellsOfRow) => Object.fromEntries(cellsOfRow.map((v, i) => [names[i % names.length] ?? 'X', v])));
          const result = await validateManifest(manifestOf(definition, rows), definition, testContext());
          const rowNumbers = new Set(rows.map((_, i) => i + 2));
          for (const issue of [...result.errors, ...result.warnings]) {
            expect(issue.row === null || rowNumbers.has(issue.row)).toBe(true);
            expect(issue.message).not.toBe('');
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
