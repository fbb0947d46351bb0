import { EventLoopTurns } from '@/lib/concurrency';
import { cellText } from '@/lib/spreadsheets/cells';
import { streamSheets, WorkbookUnreadable } from '@/lib/spreadsheets/stream-sheets';
import { ManifestParseError } from '../errors';

export const METADATA_SHEET = 'Metadata Entry';

/** Raw grid of the data sheet: one string array per non-empty row, with its Excel row number. */
export interface SheetGrid {
  header: string[];
  rows: { rowNumber: number; cells: string[] }[];
}

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
export const isZip = (buf: Uint8Array): boolean => ZIP_MAGIC.every((b, i) => buf[i] === b);

export const notAWorkbook = (err?: unknown) =>
  new ManifestParseError(
    'not_a_spreadsheet',
    err === undefined
      ? 'The file is not an Excel workbook (.xlsx); it could not be opened.'
      : `The file is not a readable Excel workbook (.xlsx): ${err instanceof Error ? err.message : String(err)}`,
  );

export const noMetadataSheet = (sheetNames: string[]) =>
  new ManifestParseError(
    'no_metadata_sheet',
    `The workbook has no '${METADATA_SHEET}' sheet (sheets found: ${sheetNames.map((n) => `'${n}'`).join(', ') || 'none'}). Enter the samples in the '${METADATA_SHEET}' sheet of the template.`,
  );

export const sheetKey = (name: string): string => name.trim().replace(/\s+/g, ' ').toLowerCase();

// a sheet scanned this far holds nothing more anyone typed: Excel itself stops at 1,048,576 rows
const MAX_SCANNED_ROWS = 1_048_576;

/**
 * The `Metadata Entry` sheet (name compared ignoring case and spacing) as text cells, read as a stream after the
 * zip's sizes are checked (lib/spreadsheets). `isNumericHeader` names the columns whose date-formatted cells are read
 * as the numbers they hold. At most `maxRows` rows with values are kept: one more tells the caller there were too
 * many, without reading a million more into memory.
 */
export async function readXlsxGrid(
  buffer: Uint8Array,
  isNumericHeader: (header: string) => boolean = () => false,
  opts: { maxRows?: number } = {},
): Promise<SheetGrid> {
  if (!isZip(buffer)) throw notAWorkbook();
  const maxRows = opts.maxRows ?? Number.POSITIVE_INFINITY;
  const seen: string[] = [];
  const turns = new EventLoopTurns();
  try {
    const wanted = (name: string) => {
      seen.push(name);
      return sheetKey(name) === sheetKey(METADATA_SHEET);
    };
    // rows holding nothing (a million formatted ones below the data) are not even built
    for await (const sheet of streamSheets(buffer, { wanted, skipEmptyRows: true })) {
      const grid: SheetGrid = { header: [], rows: [] };
      let numeric: boolean[] = [];
      for await (const row of sheet.rows) {
        await turns.maybeGive();
        if (row.rowNumber > MAX_SCANNED_ROWS) break;
        if (row.rowNumber === 1) {
          const header: string[] = [];
          for (const c of row.cells) header[c.col - 1] = cellText(c.value, c.numFmt, { date1904: sheet.date1904 });
          grid.header = Array.from(header, (h) => h ?? '');
          numeric = grid.header.map((h) => isNumericHeader(h.trim()));
          continue;
        }
        if (!row.cells.length) continue;
        const cells: string[] = [];
        for (const c of row.cells)
          cells[c.col - 1] = cellText(c.value, c.numFmt, { date1904: sheet.date1904, numeric: numeric[c.col - 1] ?? false });
        grid.rows.push({ rowNumber: row.rowNumber, cells });
        if (grid.rows.length > maxRows) break;
      }
      return grid;
    }
  } catch (err) {
    if (err instanceof WorkbookUnreadable) {
      throw err.tooLarge ? new ManifestParseError('too_large', err.message) : notAWorkbook(err);
    }
    throw err;
  }
  throw noMetadataSheet(seen);
}
