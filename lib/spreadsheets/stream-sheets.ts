import { Readable } from 'node:stream';
import type ExcelJS from 'exceljs';
import { loadExcelJS } from './exceljs';
import { guardZip, UnsafeZipError, WORKBOOK_LIMITS, type ZipLimits } from './zip-guard';

/**
 * The sheets of an uploaded workbook, read as streams (exceljs's streaming reader): rows arrive one at a time and
 * are not kept by the reader, so memory follows what the caller keeps, not the size of the sheet. The zip is checked
 * first (zip-guard.ts). Sheets whose rows are not wanted are skipped without building their rows.
 */

export interface StreamedRow {
  rowNumber: number;
  /** 1-based column → the cell, for cells that hold something */
  cells: { col: number; value: ExcelJS.CellValue; numFmt: string | undefined }[];
}

export interface StreamedSheet {
  name: string;
  /** visible, hidden or veryHidden */
  state: string;
  /** the workbook counts dates from 1904 */
  date1904: boolean;
  rows: AsyncIterable<StreamedRow>;
}

/** Why a workbook cannot be read, in words for the uploader. */
export class WorkbookUnreadable extends Error {
  constructor(
    message: string,
    /** too large (a zip bomb, too many rows) rather than broken */
    readonly tooLarge = false,
  ) {
    super(message);
    this.name = 'WorkbookUnreadable';
  }
}

interface ReaderRow {
  number: number;
  eachCell(opts: { includeEmpty: boolean }, fn: (cell: ExcelJS.Cell, col: number) => void): void;
}

/** What exceljs's streaming reader keeps to itself, which the reading below needs. */
interface ReaderInternals {
  model?: { sheets?: unknown[] };
  sharedStrings?: unknown[];
  workbookRels?: unknown[];
  _parseRels(entry: Readable): Promise<void>;
  _parseWorkbook(entry: Readable): Promise<void>;
  _parseStyles(entry: Readable): Promise<void>;
  _parseSharedStrings(entry: Readable): AsyncGenerator<unknown>;
  _parseWorksheet(iterator: unknown, sheetNo: string): Iterable<{ eventType: string; value: { fileNumber?: number } }>;
}

const WORKBOOK_XML = 'xl/workbook.xml';
const WORKBOOK_RELS = 'xl/_rels/workbook.xml.rels';
const SHARED_STRINGS = 'xl/sharedStrings.xml';
const STYLES = 'xl/styles.xml';
// the parts read before the sheets, held in memory: a manifest's strings are a few MB
const PRELOADED = new Set([WORKBOOK_XML, WORKBOOK_RELS, SHARED_STRINGS, STYLES]);
const PRELOADED_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Reads the workbook's relationships, sheet list, styles and shared strings into the reader before it streams the
 * zip, then makes it skip them there. exceljs's streaming reader otherwise parks every sheet that comes before
 * sharedStrings.xml (as Excel writes them) in a temporary file, and a sheet copied there can lose its first bytes.
 */
async function preload(internals: ReaderInternals, kept: Map<string, Buffer>): Promise<void> {
  const part = (name: string) => {
    const bytes = kept.get(name);
    if (!bytes) throw new Error(`the workbook has no ${name}`);
    return Readable.from([bytes]);
  };
  if (kept.has(WORKBOOK_RELS)) await internals._parseRels(part(WORKBOOK_RELS));
  internals.workbookRels ??= [];
  await internals._parseWorkbook(part(WORKBOOK_XML));
  if (kept.has(STYLES)) await internals._parseStyles(part(STYLES));
  if (kept.has(SHARED_STRINGS)) for await (const _ of internals._parseSharedStrings(part(SHARED_STRINGS))) void _;
  internals.sharedStrings ??= [];
  internals._parseRels = async () => {};
  internals._parseWorkbook = async () => {};
  internals._parseStyles = async () => {};
  internals._parseSharedStrings = async function* () {};
}

const entities: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&apos;': "'" };
const unescapeXml = (s: string) => s.replace(/&(amp|lt|gt|quot|apos);/g, (m) => entities[m] ?? m);
const attr = (tag: string, name: string) => {
  const m = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  const value = m?.[1];
  return value === undefined ? undefined : unescapeXml(value);
};

interface SheetEntry {
  name: string;
  state: string;
}

/**
 * The workbook's sheets by the number of their file (xl/worksheets/sheetN.xml), from workbook.xml and its
 * relationships. exceljs's streaming reader learns names only when workbook.xml precedes the sheets in the zip,
 * which not every writer does, so the names are read here, from the entries the zip guard kept.
 */
function sheetsByFile(workbookXml: string, relsXml: string): { sheets: Map<number, SheetEntry>; order: string[]; date1904: boolean } {
  const targets = new Map<string, number>();
  for (const m of relsXml.matchAll(/<(?:\w+:)?Relationship\b[^<>]*>/g)) {
    const id = attr(m[0], 'Id');
    const file = /worksheets\/sheet(\d+)\.xml$/.exec(attr(m[0], 'Target') ?? '');
    if (id && file) targets.set(id, Number(file[1]));
  }
  const sheets = new Map<number, SheetEntry>();
  const order: string[] = [];
  for (const m of workbookXml.matchAll(/<(?:\w+:)?sheet\b[^<>]*>/g)) {
    const name = attr(m[0], 'name') ?? '';
    order.push(name);
    const rid = /\s(?:\w+:)?id="([^"]*)"/.exec(m[0])?.[1];
    const file = rid ? targets.get(rid) : undefined;
    if (file !== undefined) sheets.set(file, { name, state: attr(m[0], 'state') ?? 'visible' });
  }
  const pr = /<(?:\w+:)?workbookPr\b[^<>]*>/.exec(workbookXml)?.[0] ?? '';
  const date1904 = ['1', 'true'].includes(attr(pr, 'date1904') ?? '');
  return { sheets, order, date1904 };
}

/**
 * The largest row element held while waiting for its end: a row of every column at the bound on a cell
 * (lib/values/cell-bound.ts) is a small part of it, and a row without end would otherwise be held, and searched, to the
 * end of the sheet.
 */
const ROW_XML_MAX_CHARS = 8 * 2 ** 20;
// what a cell holds: a value, an inline string or a formula
const HOLDS_SOMETHING = /<(?:v|is|f)[\s/>]/;

/** Where the next `<row` element starts at or after `from` (`<rowBreaks>` is not one), or -1. */
function rowStart(xml: string, from: number): number {
  for (let at = xml.indexOf('<row', from); at >= 0; at = xml.indexOf('<row', at + 4)) {
    const next = xml.charCodeAt(at + 4);
    // whitespace, '/' or '>' after the name; NaN: cut by the chunk's end, decided with the next chunk
    if (Number.isNaN(next) || next === 0x3e || next === 0x2f || next === 0x20 || next === 0x09 || next === 0x0a || next === 0x0d) return at;
  }
  return -1;
}

/**
 * The index just past the row element starting at `start`, or -1 when it does not end in `xml`. `searched`: how far
 * an earlier call looked for this row's end, so a row spanning many chunks is not searched again from its start.
 */
function rowEnd(xml: string, start: number, searched = start): number {
  const tagEnd = xml.indexOf('>', start);
  if (tagEnd < 0) return -1;
  if (xml.charCodeAt(tagEnd - 1) === 0x2f) return tagEnd + 1;
  const close = xml.indexOf('</row>', Math.max(tagEnd, searched - '</row>'.length));
  return close < 0 ? -1 : close + '</row>'.length;
}

/**
 * A worksheet's XML without the rows that hold nothing: no cell with a value, an inline string or a formula. Excel
 * writes every row that was ever formatted, each styled cell included, and exceljs builds a row and its cells for each:
 * for a million formatted rows below the data, seconds and a few hundred MB of garbage for nothing. The rows kept keep
 * their numbers (their `r` attribute, which exceljs's reader needs anyway). Only the text between rows is held. The
 * rows are found by searching forward, each character read once: a pattern with a lazy body was retried from every
 * `<row` of a sheet whose rows do not end.
 */
export async function* withoutEmptyRows(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Buffer> {
  const decoder = new TextDecoder();
  let held = '';
  // how far into `held` the unfinished row at its start was searched for its end
  let searched = 0;
  for await (const chunk of chunks) {
    held += decoder.decode(chunk, { stream: true });
    let out = '';
    let from = 0;
    let keepFrom = -1;
    for (let start = rowStart(held, from); start >= 0; start = rowStart(held, from)) {
      const end = rowEnd(held, start, start === 0 ? searched : start);
      // an unfinished row waits for the next chunk
      if (end < 0 || Number.isNaN(held.charCodeAt(start + 4))) {
        keepFrom = start;
        break;
      }
      out += held.slice(from, start);
      const row = held.slice(start, end);
      if (HOLDS_SOMETHING.test(row)) out += row;
      from = end;
    }
    // a tag cut by the chunk's end waits too
    if (keepFrom < 0) keepFrom = Math.max(from, held.lastIndexOf('<'));
    out += held.slice(from, keepFrom);
    held = held.slice(keepFrom);
    searched = held.length;
    if (held.length > ROW_XML_MAX_CHARS) {
      throw new WorkbookUnreadable(
        `A row of the sheet is over ${ROW_XML_MAX_CHARS / 2 ** 20} MB of XML: no sheet this service reads has such rows.`,
        true,
      );
    }
    if (out) yield Buffer.from(out);
  }
  held += decoder.decode();
  if (held) yield Buffer.from(held);
}

/** Checks the zip, then yields each sheet in the order its file comes in the zip, with its rows as a stream. */
export async function* streamSheets(
  bytes: Uint8Array,
  opts: {
    limits?: ZipLimits;
    wanted?: (sheetName: string) => boolean;
    /** rows with no value at all are not read (withoutEmptyRows) */
    skipEmptyRows?: boolean;
  } = {},
): AsyncGenerator<StreamedSheet> {
  let names: ReturnType<typeof sheetsByFile>;
  let kept: Map<string, Buffer>;
  try {
    const guarded = await guardZip(bytes, opts.limits ?? WORKBOOK_LIMITS, (name) => PRELOADED.has(name), PRELOADED_MAX_BYTES);
    kept = guarded.kept;
    const workbookXml = kept.get(WORKBOOK_XML);
    if (!workbookXml) throw new WorkbookUnreadable('The file is a zip archive but not an Excel workbook: it has no xl/workbook.xml.');
    names = sheetsByFile(workbookXml.toString('utf8'), kept.get(WORKBOOK_RELS)?.toString('utf8') ?? '');
  } catch (err) {
    if (err instanceof UnsafeZipError) throw new WorkbookUnreadable(`The workbook cannot be opened: ${err.message}.`, !err.unreadable);
    throw err;
  }
  const input = Readable.from([Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)]);
  const reader = new (await loadExcelJS()).stream.xlsx.WorkbookReader(input, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  // each worksheet reader is told the number of its file
  const internals = reader as unknown as ReaderInternals;
  try {
    await preload(internals, kept);
  } catch (err) {
    throw new WorkbookUnreadable(`The workbook could not be read: ${err instanceof Error ? err.message : String(err)}`);
  }
  const parseWorksheet = internals._parseWorksheet.bind(reader);
  internals._parseWorksheet = function* (iterator, sheetNo) {
    const xml = opts.skipEmptyRows ? withoutEmptyRows(iterator as AsyncIterable<Uint8Array>) : iterator;
    for (const event of parseWorksheet(xml, sheetNo)) {
      event.value.fileNumber = Number(sheetNo);
      yield event;
    }
  };
  try {
    for await (const sheet of reader) {
      const entry = names.sheets.get((sheet as unknown as { fileNumber: number }).fileNumber);
      const name = entry?.name ?? '';
      if (!entry || (opts.wanted && !opts.wanted(name))) {
        // the sheet's stream is read through all the same, or the next one never arrives
        for await (const _ of sheet) void _;
        continue;
      }
      yield {
        name,
        state: entry.state,
        date1904: names.date1904,
        rows: (async function* () {
          for await (const row of sheet as AsyncIterable<unknown>) {
            const r = row as ReaderRow;
            const cells: StreamedRow['cells'] = [];
            r.eachCell({ includeEmpty: false }, (cell, col) => cells.push({ col, value: cell.value, numFmt: cell.numFmt }));
            yield { rowNumber: r.number, cells };
          }
        })(),
      };
    }
  } catch (err) {
    if (err instanceof WorkbookUnreadable) throw err;
    throw new WorkbookUnreadable(`The workbook could not be read: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** The sheet names in the workbook's own order, from workbook.xml, for messages about a missing sheet. */
export async function sheetNames(bytes: Uint8Array): Promise<string[]> {
  const guarded = await guardZip(bytes, WORKBOOK_LIMITS, (name) => name === WORKBOOK_XML);
  const workbookXml = guarded.kept.get(WORKBOOK_XML);
  if (!workbookXml) throw new UnsafeZipError('it is a zip archive but not an Excel workbook (no xl/workbook.xml)', true);
  return sheetsByFile(workbookXml.toString('utf8'), '').order;
}
