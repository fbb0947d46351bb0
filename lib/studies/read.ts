import ExcelJS from 'exceljs';
import { AppError, Invalid } from '@/lib/errors';
import { cellText, isFormula } from './cells';
import { DATA_VALUES_SHEET, FIRST_DATA_ROW, SEPARATOR_TEXT } from './layout';

/** One sheet of an uploaded study workbook, reduced to text. */
export interface ParsedSheet {
  name: string;
  /** row 1: non-empty headers with their 1-based column numbers, left to right */
  columns: { col: number; header: string }[];
  /** data rows that hold at least one value; cells indexed by column number */
  rows: { rowNumber: number; cells: Map<number, string> }[];
}

export interface ParsedWorkbook {
  sheets: ParsedSheet[];
}

/** Texts that mean "no value" (the reference reads sheets with pandas' default NA tokens). */
const EMPTY_TOKENS = new Set([
  '#N/A', '#N/A N/A', '#NA', '-1.#IND', '-1.#QNAN', '-NaN', '-nan', '1.#IND', '1.#QNAN', '<NA>', 'N/A', 'NULL', 'NaN',
  'n/a', 'nan', 'NaT', 'null', 'NIL', 'nil', 'NA', 'na', 'NAN', 'Nan',
]);

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

/** An unreadable upload: 400 with the reference's sentence and the reason. */
export const unreadable = (reason: string) =>
  Invalid(`Spreadsheet is not valid, please check the errors in the manifest. ${reason}`, [{ path: 'file', message: reason }]);

export async function loadWorkbook(bytes: Uint8Array): Promise<ExcelJS.Workbook> {
  if (!ZIP_MAGIC.every((b, i) => bytes[i] === b)) throw unreadable('The file is not an Excel workbook (.xlsx).');
  const workbook = new ExcelJS.Workbook();
  try {
    // exceljs's typings want its own Buffer type; a Node Buffer over the same bytes is what it reads
    await workbook.xlsx.load(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) as unknown as ExcelJS.Buffer);
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw unreadable(`The workbook could not be read: ${err instanceof Error ? err.message : String(err)}`);
  }
  return workbook;
}

/**
 * Reads every sheet but the hidden drop-down sheet (studies-and-checklists.md §9, parsing): row 1 is the header;
 * the description, example and separator rows are skipped — up to the separator row when the sheet has one (so a
 * sheet whose descriptive rows were deleted keeps its data), else rows 2–4 by position. Cells are trimmed text,
 * NA tokens and formula placeholders (a 0 computed in the first two columns) are empty, columns without a header
 * and rows without a value are dropped.
 */
export async function readStudyWorkbook(bytes: Uint8Array): Promise<ParsedWorkbook> {
  const workbook = await loadWorkbook(bytes);
  const sheets: ParsedSheet[] = [];
  for (const ws of workbook.worksheets) {
    const name = ws.name.trim();
    if (name === DATA_VALUES_SHEET) continue;
    sheets.push(readSheet(ws, name));
  }
  return { sheets };
}

function readSheet(ws: ExcelJS.Worksheet, name: string): ParsedSheet {
  const grid: { rowNumber: number; cells: Map<number, string> }[] = [];
  ws.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    const cells = new Map<number, string>();
    row.eachCell({ includeEmpty: false }, (cell, col) => {
      let text = cellText(cell.value, cell.numFmt).trim();
      if (EMPTY_TOKENS.has(text)) text = '';
      if (col <= 2 && text === '0' && isFormula(cell.value)) text = '';
      if (text) cells.set(col, text);
    });
    grid.push({ rowNumber, cells });
  });
  const header = grid.find((r) => r.rowNumber === 1)?.cells ?? new Map<number, string>();
  const columns = [...header.entries()].sort((a, b) => a[0] - b[0]).map(([col, h]) => ({ col, header: h }));
  const separator = grid.find(
    (r) => r.rowNumber > 1 && r.rowNumber < FIRST_DATA_ROW + 3 && isSeparator(r.cells.get(1)),
  )?.rowNumber;
  const firstData = separator !== undefined ? separator + 1 : FIRST_DATA_ROW;
  const keep = new Set(columns.map((c) => c.col));
  const rows = grid
    .filter((r) => r.rowNumber >= firstData)
    .map((r) => ({ rowNumber: r.rowNumber, cells: new Map([...r.cells].filter(([col]) => keep.has(col))) }))
    .filter((r) => r.cells.size > 0);
  return { name, columns, rows };
}

const isSeparator = (text: string | undefined) =>
  text !== undefined && text.toUpperCase().startsWith(SEPARATOR_TEXT.toUpperCase());
