import { columnLetter, fieldForHeader } from './columns';
import { ManifestParseError } from './errors';
import { readCsvGrid } from './parse/csv';
import { METADATA_SHEET, readXlsxGrid, type SheetGrid } from './parse/xlsx';
import type { FieldKind, ManifestDefinition, ParsedManifest, ParsedRow } from './types';

export { METADATA_SHEET };

export type ManifestFormat = 'xlsx' | 'csv';

/** The format a file name announces; `.xls` (the binary Excel 97 format) cannot be read and is refused here. */
export function manifestFormat(fileName: string): ManifestFormat {
  const ext = /\.([a-z0-9]+)$/i.exec(fileName.trim())?.[1]?.toLowerCase();
  if (ext === 'xlsx') return 'xlsx';
  if (ext === 'csv') return 'csv';
  if (ext === 'xls') {
    throw new ManifestParseError(
      'unsupported_format',
      'Excel 97-2003 workbooks (.xls) are not supported. Save the manifest as an Excel workbook (.xlsx) or as CSV and upload it again.',
    );
  }
  throw new ManifestParseError(
    'unsupported_format',
    'Unrecognised file format for spreadsheet. File format should be either .xlsx or .csv.',
  );
}

/**
 * The header row and data rows of a manifest. Headers are trimmed; columns without a header are dropped; rows with
 * no text in any headed column are skipped but the others keep the row number the user sees (header = row 1).
 * Cell text is trimmed; nothing else is interpreted here (that is the validator's job).
 */
export async function parseManifest(buffer: Uint8Array, fileName: string, options: ParseOptions = {}): Promise<ParsedManifest> {
  const format = manifestFormat(fileName);
  if (buffer.byteLength === 0) throw new ManifestParseError('empty', 'Manifest uploaded is empty');
  const { definition } = options;
  const isNumeric = definition ? (header: string) => NUMERIC_KINDS.has(fieldForHeader(definition, header)?.kind ?? 'text') : undefined;
  const grid = format === 'xlsx' ? await readXlsxGrid(buffer, isNumeric, { maxRows: options.maxRows }) : await readCsvGrid(buffer);
  return toManifest(grid, format);
}

export interface ParseOptions {
  /**
   * The definition the manifest will be validated against. With it, date-formatted cells in numeric fields
   * (ELEVATION, coordinates, …) are read as their numbers; without it every cell is read as displayed.
   */
  definition?: ManifestDefinition;
  /** rows with values beyond this many are not read (one more is kept, so the validator can say there are too many) */
  maxRows?: number;
}

const NUMERIC_KINDS: ReadonlySet<FieldKind> = new Set(['integer', 'number', 'latitude', 'longitude']);

function toManifest(grid: SheetGrid, format: ManifestFormat): ParsedManifest {
  const columns: { index: number; header: string }[] = [];
  for (let i = 0; i < grid.header.length; i++) {
    const header = (grid.header[i] ?? '').trim();
    if (header) columns.push({ index: i, header });
  }
  const where = format === 'xlsx' ? `the '${METADATA_SHEET}' sheet` : 'the file';
  if (!columns.length) {
    throw new ManifestParseError('empty', `Manifest uploaded is empty: ${where} has no header row (row 1 is empty).`);
  }
  const seen = new Map<string, number>();
  const duplicates: string[] = [];
  for (const c of columns) {
    const first = seen.get(c.header);
    if (first === undefined) seen.set(c.header, c.index);
    else duplicates.push(`'${c.header}' (columns ${columnLetter(first + 1)} and ${columnLetter(c.index + 1)})`);
  }
  if (duplicates.length) {
    throw new ManifestParseError(
      'duplicate_headers',
      `Duplicate column headers in ${where}: ${duplicates.join(', ')}. Each field may appear only once.`,
    );
  }

  const rows: ParsedRow[] = [];
  for (const { rowNumber, cells } of grid.rows) {
    const values: Record<string, string> = {};
    let filled = false;
    for (const c of columns) {
      const text = (cells[c.index] ?? '').trim();
      if (text) {
        values[c.header] = text;
        filled = true;
      }
    }
    if (filled) rows.push({ rowNumber, values });
  }
  return { headers: columns.map((c) => c.header), columns: columns.map((c) => columnLetter(c.index + 1)), rows };
}
