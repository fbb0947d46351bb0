import ExcelJS from 'exceljs';
import { ManifestParseError } from '../errors';
import { cellText } from './cells';

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

async function loadWorkbook(buffer: Uint8Array): Promise<ExcelJS.Workbook> {
  if (!isZip(buffer)) throw notAWorkbook();
  const workbook = new ExcelJS.Workbook();
  try {
    // exceljs's typings ask for its own Buffer type; a Node Buffer view over the same bytes is what it reads
    await workbook.xlsx.load(Buffer.from(buffer.buffer, buffer.byteOffset, buffer.byteLength) as unknown as ExcelJS.Buffer);
  } catch (err) {
    throw notAWorkbook(err);
  }
  return workbook;
}

export const sheetKey = (name: string): string => name.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * The `Metadata Entry` sheet (name compared ignoring case and spacing) as text cells. `isNumericHeader` names the
 * columns whose date-formatted cells are read as the numbers they hold.
 */
export async function readXlsxGrid(
  buffer: Uint8Array,
  isNumericHeader: (header: string) => boolean = () => false,
): Promise<SheetGrid> {
  const workbook = await loadWorkbook(buffer);
  const sheet = workbook.worksheets.find((ws) => sheetKey(ws.name) === sheetKey(METADATA_SHEET));
  if (!sheet) throw noMetadataSheet(workbook.worksheets.map((ws) => ws.name));
  const date1904 = workbook.properties.date1904 ?? false;
  const header: string[] = [];
  sheet.getRow(1).eachCell({ includeEmpty: false }, (cell, col) => {
    header[col - 1] = cellText(cell.value, cell.numFmt, date1904);
  });
  const grid: SheetGrid = { header: Array.from(header, (h) => h ?? ''), rows: [] };
  const numeric = grid.header.map((h) => isNumericHeader(h.trim()));
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    if (rowNumber === 1) return;
    const cells: string[] = [];
    row.eachCell({ includeEmpty: false }, (cell, col) => {
      cells[col - 1] = cellText(cell.value, cell.numFmt, date1904, numeric[col - 1] ?? false);
    });
    grid.rows.push({ rowNumber, cells });
  });
  return grid;
}
