import { AppError, Invalid } from '@/lib/errors';
import { cellText, isFormula, PANDAS_NA_VALUES } from '@/lib/spreadsheets/cells';
import { streamSheets, WorkbookUnreadable } from '@/lib/spreadsheets/stream-sheets';
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

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
// what one study workbook may hold: the largest checklists run to a few dozen columns, so 10,000 file rows of 40
// columns fit, and parsed they stay well inside the memory a hostile workbook may take (docs/benchmarks.md)
export const STUDY_MAX_CELLS = 500_000;

/** An unreadable upload: 400 with the reference's sentence and the reason. */
export const unreadable = (reason: string) =>
  Invalid(`Spreadsheet is not valid, please check the errors in the manifest. ${reason}`, [{ path: 'file', message: reason }]);

const tooLarge = (reason: string) =>
  new AppError('unprocessable', `The spreadsheet is too large to read: ${reason}`, [{ path: 'file', message: reason }]);

/**
 * Reads every sheet but the hidden drop-down sheet (docs/studies-and-checklists.md §9, parsing): row 1 is the header;
 * the description, example and separator rows are skipped — up to the separator row when the sheet has one (so a
 * sheet whose descriptive rows were deleted keeps its data), else rows 2–4 by position. Cells are trimmed text,
 * NA tokens and formula placeholders (a 0 computed in the first two columns) are empty, columns without a header
 * and rows without a value are dropped. The workbook is read as a stream after its zip is checked
 * (lib/spreadsheets), and at most STUDY_MAX_CELLS cells with values are kept.
 */
export async function readStudyWorkbook(bytes: Uint8Array): Promise<ParsedWorkbook> {
  if (!ZIP_MAGIC.every((b, i) => bytes[i] === b)) throw unreadable('The file is not an Excel workbook (.xlsx).');
  const sheets: ParsedSheet[] = [];
  let cellsKept = 0;
  try {
    for await (const sheet of streamSheets(bytes, { wanted: (name) => name.trim() !== DATA_VALUES_SHEET })) {
      const grid: { rowNumber: number; cells: Map<number, string> }[] = [];
      for await (const row of sheet.rows) {
        const cells = new Map<number, string>();
        for (const c of row.cells) {
          let text = cellText(c.value, c.numFmt, { errors: 'empty' }).trim();
          if (PANDAS_NA_VALUES.has(text)) text = '';
          if (c.col <= 2 && text === '0' && isFormula(c.value)) text = '';
          if (text) cells.set(c.col, text);
        }
        if (!cells.size) continue;
        cellsKept += cells.size;
        if (cellsKept > STUDY_MAX_CELLS) throw tooLarge(`it holds more than ${STUDY_MAX_CELLS} filled cells.`);
        grid.push({ rowNumber: row.rowNumber, cells });
      }
      sheets.push(sheetOf(grid, sheet.name.trim()));
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (err instanceof WorkbookUnreadable) throw err.tooLarge ? tooLarge(err.message) : unreadable(err.message);
    throw unreadable(`The workbook could not be read: ${err instanceof Error ? err.message : String(err)}`);
  }
  return { sheets };
}

function sheetOf(grid: { rowNumber: number; cells: Map<number, string> }[], name: string): ParsedSheet {
  const header = grid.find((r) => r.rowNumber === 1)?.cells ?? new Map<number, string>();
  const columns = [...header.entries()].sort((a, b) => a[0] - b[0]).map(([col, h]) => ({ col, header: h }));
  const separator = grid.find((r) => r.rowNumber > 1 && r.rowNumber < FIRST_DATA_ROW + 3 && isSeparator(r.cells.get(1)))?.rowNumber;
  const firstData = separator !== undefined ? separator + 1 : FIRST_DATA_ROW;
  const keep = new Set(columns.map((c) => c.col));
  const rows = grid
    .filter((r) => r.rowNumber >= firstData)
    .map((r) => ({ rowNumber: r.rowNumber, cells: new Map([...r.cells].filter(([col]) => keep.has(col))) }))
    .filter((r) => r.cells.size > 0);
  return { name, columns, rows };
}

const isSeparator = (text: string | undefined) => text?.toUpperCase().startsWith(SEPARATOR_TEXT.toUpperCase());
