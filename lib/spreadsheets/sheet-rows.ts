import type ExcelJS from 'exceljs';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { excelSerialToDate } from './cells';
import { columnNumber } from './columns';
import { rowElements } from './row-elements';
import { type RawCell, type RawRow, scanRow } from './row-xml';

/**
 * A worksheet's XML read into rows of the cells that hold something, with the values exceljs's streaming reader gives
 * them (a shared string, a number, a date, a boolean, an error, a formula with its cached result), without building
 * its row and cell objects and its events for every tag: on a big sheet those were most of the reading's time and
 * garbage (docs/benchmarks.md, "Big sheets"). Each row is read by searching its text (row-xml.ts), or, when it has
 * anything that reading does not know, by saxes, the XML parser exceljs itself uses.
 */

export interface StreamedRow {
  rowNumber: number;
  /** 1-based column → the cell, for cells that hold something */
  cells: { col: number; value: ExcelJS.CellValue; numFmt: string | undefined }[];
}

export interface SheetContext {
  /** the workbook's shared strings: text, or rich text as exceljs reads them */
  sharedStrings: readonly unknown[];
  /** the number format of a cell style (the `s` of a cell or row), or null when the workbook has no such style */
  style(id: number): { numFmt?: string } | null;
  date1904: boolean;
}

/** exceljs's own test of a date format (its utils.isDateFmt), so a cell reads as it did through exceljs. */
function isDateFmt(fmt: string | undefined): boolean {
  if (!fmt) return false;
  // a bracket's text ends at the next bracket, either way, so the pattern is linear (exceljs's runs to the next `]`)
  const stripped = fmt.replace(/\[[^\][]*]/g, '').replace(/"[^"]*"/g, '');
  return /[ymdhMsb]/.test(stripped);
}

/** The value of a cell as exceljs gives it; undefined for a cell that holds nothing. */
function cellValue(c: RawCell, numFmt: string | undefined, ctx: SheetContext): ExcelJS.CellValue | undefined {
  const { formula, text, type } = c;
  if (formula !== undefined) {
    // exceljs keeps a formula's text and cached result only when truthy: a result of 0 or "" reads as none, and the
    // cells a shared formula was filled down to (their formula text is empty) as their result alone
    const result = text === undefined ? undefined : type === 'str' ? text : Number.parseFloat(text);
    return { ...(formula && { formula }), ...(result && { result }) } as ExcelJS.CellFormulaValue;
  }
  if (text === undefined) return undefined;
  switch (type) {
    case 's':
      return ctx.sharedStrings[Number.parseInt(text, 10)] as ExcelJS.CellValue | undefined;
    case 'inlineStr':
    case 'str':
      return text;
    case 'e':
      return { error: text } as ExcelJS.CellErrorValue;
    case 'b':
      return Number.parseInt(text, 10) !== 0;
    default: {
      const n = Number.parseFloat(text);
      return isDateFmt(numFmt) ? excelSerialToDate(n, ctx.date1904) : n;
    }
  }
}

/**
 * The row element `xml` read by saxes, for what scanRow leaves: the same cells, or the parser's error for XML that is
 * not well formed.
 */
export function parsedRow(xml: string): RawRow {
  const parser = new SaxesParser<{ xmlns: false; position: false }>({ xmlns: false, position: false });
  let error: Error | undefined;
  let row: RawRow | null = null;
  let cell: RawCell | null = null;
  // where text goes: the cell's formula, or its value (`v`, or the `t` runs of an inline string)
  let into: 'formula' | 'text' | null = null;
  let phonetic = false;
  parser.on('error', (err) => {
    error ??= err;
  });
  parser.on('opentag', (node: SaxesTagPlain) => {
    const a = node.attributes;
    switch (node.name) {
      case 'row':
        row ??= { r: a.r, style: a.s, cells: [] };
        break;
      case 'c':
        if (!row) break;
        cell = { ref: a.r, style: a.s, type: a.t, formula: undefined, text: undefined };
        row.cells.push(cell);
        break;
      case 'f':
        if (cell) {
          cell.formula = '';
          into = 'formula';
        }
        break;
      case 'v':
        if (cell) {
          cell.text = '';
          into = 'text';
        }
        break;
      case 'is':
        if (cell) cell.text = '';
        break;
      case 'rPh':
        phonetic = true;
        break;
      case 't':
        if (cell && !phonetic) {
          cell.text ??= '';
          into = 'text';
        }
        break;
      default:
        break;
    }
  });
  parser.on('text', (text: string) => {
    if (!cell || into === null) return;
    if (into === 'formula') cell.formula += text;
    else cell.text += text;
  });
  parser.on('closetag', (node: SaxesTagPlain) => {
    if (node.name === 'f' || node.name === 'v' || node.name === 't') into = null;
    else if (node.name === 'rPh') phonetic = false;
    else if (node.name === 'c') {
      cell = null;
      into = null;
    }
  });
  parser.write(xml);
  parser.close();
  if (error) throw error;
  if (!row) throw new Error('a row of the sheet could not be read');
  return row;
}

/**
 * The rows of one worksheet's XML, as it streams in; `skipEmpty` leaves out the rows that hold nothing
 * (rowElements). Rows and cells without a reference are numbered after the one before, as Excel reads them.
 */
export async function* sheetRows(
  xml: AsyncIterable<Uint8Array | string>,
  ctx: SheetContext,
  opts: { skipEmpty?: boolean } = {},
): AsyncGenerator<StreamedRow> {
  /** the number format of each style read so far: undefined for a style without one, null for no such style */
  const numFmts = new Map<number, string | undefined | null>();
  const numFmtOf = (id: number): string | undefined | null => {
    if (!numFmts.has(id)) {
      const style = ctx.style(id);
      numFmts.set(id, style ? style.numFmt : null);
    }
    return numFmts.get(id);
  };
  let lastRow = 0;
  for await (const element of rowElements(xml, opts)) {
    const raw = scanRow(element) ?? parsedRow(element);
    const r = Number.parseInt(raw.r ?? '', 10);
    lastRow = Number.isNaN(r) ? lastRow + 1 : r;
    const rowStyle = Number.parseInt(raw.style ?? '', 10);
    // a cell without a style of its own takes its row's number format, as in exceljs
    const rowNumFmt = rowStyle ? (numFmtOf(rowStyle) ?? undefined) : undefined;
    const cells: StreamedRow['cells'] = [];
    let lastCol = 0;
    for (const c of raw.cells) {
      const col = c.ref ? columnNumber(c.ref) : 0;
      lastCol = col > 0 ? col : lastCol + 1;
      const style = Number.parseInt(c.style ?? '', 10);
      const own = style ? numFmtOf(style) : null;
      const numFmt = own === null ? rowNumFmt : own;
      const value = cellValue(c, numFmt, ctx);
      if (value !== undefined && value !== null) cells.push({ col: lastCol, value, numFmt });
    }
    yield { rowNumber: lastRow, cells };
  }
}
