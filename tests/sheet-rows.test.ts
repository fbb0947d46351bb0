import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanRow } from '@/lib/spreadsheets/row-xml';
import { parsedRow, sheetRows } from '@/lib/spreadsheets/sheet-rows';
import { type StreamedRow, streamSheets } from '@/lib/spreadsheets/stream-sheets';

/**
 * lib/spreadsheets/sheet-rows.ts reads a sheet's cells as exceljs's own streaming reader does: held to it, cell for
 * cell, on random workbooks, the reference being exceljs's WorkbookReader with its row and cell objects.
 */

const formats = ['General', '0.00', 'yyyy-mm-dd', 'dd/mm/yyyy hh:mm', '[h]:mm', '"d"0', '@', '0%'];

const cellValue = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('a & b', '<x>', '"q"', "it's", '&lt;', 'é ü 名'),
  fc.integer({ min: -1e6, max: 1e6 }),
  fc.double({ min: -1e9, max: 1e9, noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.date({ min: new Date('1901-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }),
  fc.record({ formula: fc.constantFrom('1+1', 'A1&"x"', 'SUM(A1:A2)'), result: fc.oneof(fc.integer(), fc.string({ maxLength: 5 })) }),
  fc.record({ error: fc.constantFrom('#N/A', '#REF!', '#DIV/0!') }),
  fc.record({ richText: fc.array(fc.record({ text: fc.string({ minLength: 1, maxLength: 6 }) }), { minLength: 1, maxLength: 3 }) }),
);

/** fast-check's records have no prototype, which exceljs's writer needs */
const plain = (v: unknown): unknown => (v && typeof v === 'object' && !(v instanceof Date) ? JSON.parse(JSON.stringify(v)) : v);

const workbook = fc.record({
  date1904: fc.boolean(),
  rows: fc.array(
    fc.array(
      fc.option(fc.record({ value: cellValue, numFmt: fc.option(fc.constantFrom(...formats), { nil: undefined }) }), { nil: undefined }),
      {
        maxLength: 6,
      },
    ),
    { maxLength: 8 },
  ),
});

type Written = typeof workbook extends fc.Arbitrary<infer T> ? T : never;

async function written(w: Written): Promise<Uint8Array> {
  const book = new ExcelJS.Workbook();
  book.properties.date1904 = w.date1904;
  const sheet = book.addWorksheet('Sheet 1');
  w.rows.forEach((cells, r) => {
    cells.forEach((cell, c) => {
      if (!cell) return;
      const target = sheet.getCell(r + 1, c + 1);
      target.value = plain(cell.value) as ExcelJS.CellValue;
      if (cell.numFmt) target.numFmt = cell.numFmt;
    });
  });
  return new Uint8Array(await book.xlsx.writeBuffer());
}

interface ReferenceRow {
  number: number;
  eachCell(opts: { includeEmpty: boolean }, fn: (cell: ExcelJS.Cell, col: number) => void): void;
}

/** The rows as exceljs's streaming reader gives them. */
async function byExcelJS(bytes: Uint8Array): Promise<StreamedRow[]> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([Buffer.from(bytes)]), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  const rows: StreamedRow[] = [];
  for await (const sheet of reader) {
    for await (const row of sheet as AsyncIterable<unknown>) {
      const r = row as ReferenceRow;
      const cells: StreamedRow['cells'] = [];
      r.eachCell({ includeEmpty: false }, (cell, col) => cells.push({ col, value: cell.value, numFmt: cell.numFmt }));
      rows.push({ rowNumber: r.number, cells });
    }
  }
  return rows;
}

async function byService(bytes: Uint8Array): Promise<StreamedRow[]> {
  const rows: StreamedRow[] = [];
  for await (const sheet of streamSheets(bytes)) for await (const row of sheet.rows) rows.push(row);
  return rows;
}

async function* once(xml: string) {
  yield Buffer.from(xml);
}

const noStyles = { sharedStrings: [], style: () => null, date1904: false };

/** Text as a writer may escape it: entities, character references, both quotes. */
const xmlText = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        'a',
        'Z',
        ' ',
        '9',
        'é',
        '名',
        '&amp;',
        '&lt;',
        '&gt;',
        '&quot;',
        '&apos;',
        '&#233;',
        '&#x1F98B;',
        '>',
        '"',
        "'",
        '\n',
      ),
    ),
    {
      maxLength: 8,
    },
  )
  .map((parts) => parts.join(''));
const space = fc.constantFrom('', ' ', '\n  ');
const attr = (name: string, value: fc.Arbitrary<string>) =>
  fc.option(
    fc
      .tuple(fc.constantFrom('"', "'"), value, space)
      .map(([q, v, sp]) => ` ${name}=${q}${v.replaceAll(q, q === '"' ? '&quot;' : '&apos;')}${q}${sp}`),
    { nil: '' },
  );
const run = fc.oneof(
  xmlText.map((t) => `<t>${t}</t>`),
  xmlText.map((t) => `<t xml:space="preserve">${t}</t>`),
  xmlText.map((t) => `<r><rPr><b/><sz val="11"/><rFont val="Calibri"/></rPr><t>${t}</t></r>`),
  xmlText.map((t) => `<rPh sb="0" eb="1"><t>${t}</t></rPh>`),
  fc.constant('<t/>'),
);
const content = fc.oneof(
  fc.constant(''),
  xmlText.map((t) => `<v>${t}</v>`),
  fc.constant('<v/>'),
  fc.tuple(xmlText, xmlText).map(([f, v]) => `<f>${f}</f><v>${v}</v>`),
  fc.constant('<f t="shared" si="0"/><v>3</v>'),
  fc.array(run, { maxLength: 3 }).map((runs) => `<is>${runs.join('')}</is>`),
);
const cellXml = fc
  .tuple(
    attr('r', fc.constantFrom('A1', 'B7', 'AB12', 'xfd3')),
    attr('s', fc.constantFrom('0', '3')),
    attr('t', fc.constantFrom('s', 'str', 'inlineStr', 'b', 'e', 'n')),
    content,
    space,
  )
  .map(([r, st, t, c, sp]) => (c ? `<c${r}${st}${t}>${sp}${c}${sp}</c>` : `<c${r}${st}${t}/>`));
const rowXml = fc
  .tuple(
    attr('r', fc.constantFrom('1', '42')),
    attr('spans', fc.constant('1:3')),
    fc.array(fc.tuple(space, cellXml), { maxLength: 4 }),
    space,
  )
  .map(([r, spans, cells, sp]) => `<row${r}${spans}>${cells.map(([a, c]) => a + c).join('')}${sp}</row>`);
/** a row with one of XML's significant characters put somewhere */
const mutated = fc
  .tuple(
    rowXml,
    fc.nat(),
    fc.constantFrom('<', '>', '&', '"', "'", '/', '=', ' ', ';', '<!-- x -->', '<![CDATA[x]]>', '</t>', '<t>', '</r>', '\u0001'),
  )
  .map(([xml, at, insert]) => {
    const i = at % (xml.length + 1);
    return xml.slice(0, i) + insert + xml.slice(i);
  });
const byParser = (xml: string) => {
  try {
    return parsedRow(xml);
  } catch {
    return 'refused';
  }
};

describe('sheetRows', () => {
  it('reads every cell as exceljs reads it: value, date, number format, formula, error, rich text', async () => {
    await fc.assert(
      fc.asyncProperty(workbook, async (w) => {
        const bytes = await written(w);
        // exceljs's streaming reader fails on a zip whose sheet comes after the shared strings and before
        // workbook.xml, an order its own writer sometimes gives; the service reads those parts first (stream-sheets.ts)
        const expected = await byExcelJS(bytes).catch(() => null);
        fc.pre(expected !== null);
        expect(await byService(bytes)).toEqual(expected);
      }),
      { numRuns: 120 },
    );
  });

  it('reads a row by searching its text as the parser reads it, for every shape writers use', () => {
    fc.assert(
      fc.property(rowXml, (xml) => {
        const scanned = scanRow(xml);
        expect(scanned).not.toBeNull();
        expect(scanned).toEqual(byParser(xml));
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves to the parser any row it cannot read exactly, well formed or not', () => {
    fc.assert(
      fc.property(mutated, (xml) => {
        const scanned = scanRow(xml);
        if (scanned !== null) expect(scanned).toEqual(byParser(xml));
      }),
      { numRuns: 5000 },
    );
  });

  it('joins an inline string’s runs, leaves out its phonetic runs and decodes entities once', async () => {
    const xml =
      '<worksheet><sheetData><row r="2">' +
      '<c r="B2" t="inlineStr"><is><r><t>Bom</t></r><r><t xml:space="preserve">bus </t></r><rPh><t>x</t></rPh></is></c>' +
      '<c r="C2" t="inlineStr"><is><t>&amp;lt;</t></is></c>' +
      '<c r="D2" t="str"><f>A1</f><v>a &amp; b</v></c>' +
      '</row></sheetData></worksheet>';
    const rows = [];
    for await (const row of sheetRows(once(xml), noStyles)) rows.push(row);
    expect(rows).toEqual([
      {
        rowNumber: 2,
        cells: [
          { col: 2, value: 'Bombus ', numFmt: undefined },
          { col: 3, value: '&lt;', numFmt: undefined },
          { col: 4, value: { formula: 'A1', result: 'a & b' }, numFmt: undefined },
        ],
      },
    ]);
  });

  it('numbers rows and cells that have no reference after the one before', async () => {
    const xml =
      '<worksheet><sheetData><row><c><v>1</v></c><c><v>2</v></c></row><row><c r="C2"><v>3</v></c><c><v>4</v></c></row></sheetData></worksheet>';
    const rows = [];
    for await (const row of sheetRows(once(xml), noStyles)) rows.push(row);
    expect(rows.map((r) => [r.rowNumber, r.cells.map((c) => [c.col, c.value])])).toEqual([
      [
        1,
        [
          [1, 1],
          [2, 2],
        ],
      ],
      [
        2,
        [
          [3, 3],
          [4, 4],
        ],
      ],
    ]);
  });

  it('refuses XML that is not well formed', async () => {
    const read = async () => {
      for await (const _ of sheetRows(once('<worksheet><sheetData><row r="1"><c r="A1"><v>1</c></row>'), noStyles)) void _;
    };
    await expect(read()).rejects.toThrow();
  });
});
