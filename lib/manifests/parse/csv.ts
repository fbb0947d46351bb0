import { parse } from 'csv-parse/sync';
import { ManifestParseError } from '../errors';
import type { SheetGrid } from './xlsx';

/**
 * Text of a CSV file: UTF-8 (with or without BOM), else Windows-1252, which is what Excel's "CSV (Comma
 * delimited)" writes on Windows. NUL bytes mean a binary file renamed to .csv.
 */
export function csvIsText(buffer: Uint8Array): void {
  if (buffer.includes(0)) {
    throw new ManifestParseError('not_a_spreadsheet', 'The file is not a CSV text file (it contains binary data).');
  }
}

function decode(buffer: Uint8Array): string {
  csvIsText(buffer);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(buffer);
  } catch {
    return new TextDecoder('windows-1252').decode(buffer);
  }
}

/** Excel in many European locales writes `;`-separated CSV; pick the separator the header line uses most. */
function detectDelimiter(text: string): string {
  const firstLine = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  const unquoted = firstLine.replace(/"[^"]*"/g, '');
  const counts: [string, number][] = [',', ';', '\t'].map((d) => [d, unquoted.split(d).length - 1]);
  counts.sort((a, b) => b[1] - a[1]);
  return counts[0] && counts[0][1] > 0 ? counts[0][0] : ',';
}

/** Rows of a CSV file; record N (1-based) is reported as row N, as a spreadsheet program shows it. */
export function readCsvGrid(buffer: Uint8Array): SheetGrid {
  const text = decode(buffer);
  let records: string[][];
  try {
    records = parse(text, {
      bom: true,
      delimiter: detectDelimiter(text),
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: false,
    }) as string[][];
  } catch (err) {
    throw new ManifestParseError(
      'not_a_spreadsheet',
      `The file is not a readable CSV file: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const [header = [], ...rest] = records;
  return { header, rows: rest.map((cells, i) => ({ rowNumber: i + 2, cells })) };
}
