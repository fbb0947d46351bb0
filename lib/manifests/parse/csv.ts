import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { EventLoopTurns } from '@/lib/concurrency';
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

/** A field the parser will hold: far beyond the bound on a cell, which the validator reports on the cell itself. */
const FIELD_MAX_CHARS = 1024 * 1024;
// the text is parsed a slice at a time, the event loop given a turn between slices
const SLICE_CHARS = 256 * 1024;

/** Rows of a CSV file; record N (1-based) is reported as row N, as a spreadsheet program shows it. */
export async function readCsvGrid(buffer: Uint8Array): Promise<SheetGrid> {
  const text = decode(buffer);
  const turns = new EventLoopTurns();
  const parser = parse({
    bom: true,
    delimiter: detectDelimiter(text),
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: false,
    max_record_size: FIELD_MAX_CHARS,
  });
  const slices = async function* () {
    for (let at = 0; at < text.length; at += SLICE_CHARS) {
      await turns.maybeGive();
      yield text.slice(at, at + SLICE_CHARS);
    }
  };
  const records: string[][] = [];
  try {
    const reading = Readable.from(slices()).pipe(parser);
    for await (const record of reading) records.push(record as string[]);
  } catch (err) {
    const tooLong = (err as { code?: string }).code === 'CSV_MAX_RECORD_SIZE';
    throw new ManifestParseError(
      'not_a_spreadsheet',
      tooLong
        ? `The file is not a readable CSV file: a cell is over ${FIELD_MAX_CHARS.toLocaleString('en')} characters (a quote left open makes the rest of the file one cell).`
        : `The file is not a readable CSV file: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const [header = [], ...rest] = records;
  return { header, rows: rest.map((cells, i) => ({ rowNumber: i + 2, cells })) };
}
