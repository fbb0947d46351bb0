import { AppError, Invalid } from '@/lib/errors';
import { cellText, PANDAS_NA_VALUES } from '@/lib/spreadsheets/cells';
import { columnLetter } from '@/lib/spreadsheets/columns';
import { streamSheets, WorkbookUnreadable } from '@/lib/spreadsheets/stream-sheets';

/**
 * The ToL barcoding sheet (db/seed/data/tol/BARCODING_MANIFEST_TOL_TEMPLATE.xlsx): the first visible sheet of the
 * workbook, headers in row 1, a barcode per row below. The template's own columns are SPECIMEN_ID and BOLD_ID; the
 * checklist's fields (ENTRYNUMBER, ORGANISM_NAME, …, SEQUENCE) follow as columns headed by their ENA names. Read as a
 * stream after its zip is checked (lib/spreadsheets), as every upload is.
 */

export interface SheetCell {
  header: string;
  letter: string;
  value: string;
}

export interface BarcodeSheet {
  name: string;
  /** the headed columns, left to right */
  columns: { header: string; letter: string }[];
  /** rows holding at least one value, by Excel row number; cells by header (upper-cased) */
  rows: { rowNumber: number; cells: Map<string, SheetCell> }[];
}

/** The same bound as a manifest's: beyond it a sheet is split, and one more row says there were too many. */
export const BARCODE_MAX_ROWS = 10_000;

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

const unreadable = (reason: string) => Invalid(`The barcoding sheet could not be read: ${reason}`, [{ path: 'file', message: reason }]);

/** Reads the workbook's first visible sheet; 400 for a file that is no workbook, 422 for one with too many rows. */
export async function readBarcodeSheet(bytes: Uint8Array, fileName: string): Promise<BarcodeSheet> {
  if (!/\.xlsx$/i.test(fileName.trim())) {
    throw new AppError('unsupported_media_type', 'Upload the barcoding sheet as an Excel workbook (.xlsx).', [
      { path: 'file', message: 'An .xlsx workbook is expected' },
    ]);
  }
  if (!ZIP_MAGIC.every((b, i) => bytes[i] === b)) throw unreadable('the file is not an Excel workbook (.xlsx).');
  try {
    for await (const sheet of streamSheets(bytes, { skipEmptyRows: true })) {
      if (sheet.state !== 'visible') {
        for await (const _ of sheet.rows) void _;
        continue;
      }
      const columns: BarcodeSheet['columns'] = [];
      const headerOf = new Map<number, string>();
      const rows: BarcodeSheet['rows'] = [];
      for await (const row of sheet.rows) {
        if (row.rowNumber === 1) {
          for (const c of row.cells) {
            const header = cellText(c.value, c.numFmt).trim();
            if (!header) continue;
            headerOf.set(c.col, header.toUpperCase());
            columns.push({ header, letter: columnLetter(c.col) });
          }
          continue;
        }
        const cells = new Map<string, SheetCell>();
        for (const c of row.cells) {
          const header = headerOf.get(c.col);
          if (!header) continue;
          const text = cellText(c.value, c.numFmt, { date1904: sheet.date1904, errors: 'text' }).trim();
          if (text && !PANDAS_NA_VALUES.has(text)) cells.set(header, { header, letter: columnLetter(c.col), value: text });
        }
        if (!cells.size) continue;
        rows.push({ rowNumber: row.rowNumber, cells });
        if (rows.length > BARCODE_MAX_ROWS) break;
      }
      // the reader yields the next sheet only once this one is read through; the rest are not needed
      return { name: sheet.name, columns, rows };
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (err instanceof WorkbookUnreadable) {
      if (err.tooLarge) throw new AppError('unprocessable', `The barcoding sheet is too large to read: ${err.message}`);
      throw unreadable(err.message);
    }
    throw unreadable(err instanceof Error ? err.message : String(err));
  }
  throw unreadable('the workbook has no visible sheet.');
}
