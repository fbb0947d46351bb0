import { Readable } from 'node:stream';
import { loadExcelJS } from './exceljs';
import { decodeText } from './row-xml';
import { type SheetContext, type StreamedRow, sheetRows } from './sheet-rows';
import { WorkbookUnreadable } from './unreadable';
import { guardZip, UnsafeZipError, WORKBOOK_LIMITS, type ZipLimits } from './zip-guard';

export type { StreamedRow };
export { WorkbookUnreadable };

/**
 * The sheets of an uploaded workbook, read as streams: exceljs's streaming reader walks the zip and reads the
 * workbook's shared strings and styles, and each sheet's rows are read by sheetRows (sheet-rows.ts) as they arrive and
 * are not kept, so memory follows what the caller keeps, not the size of the sheet. The zip is checked first
 * (zip-guard.ts). Sheets whose rows are not wanted are skipped without building their rows.
 */

export interface StreamedSheet {
  name: string;
  /** visible, hidden or veryHidden */
  state: string;
  /** the workbook counts dates from 1904 */
  date1904: boolean;
  rows: AsyncIterable<StreamedRow>;
}

/** What exceljs's streaming reader keeps to itself, which the reading below needs. */
interface ReaderInternals {
  model?: { sheets?: unknown[] };
  sharedStrings?: unknown[];
  workbookRels?: unknown[];
  styles: { getStyleModel(id: number): { numFmt?: string } | null };
  _parseRels(entry: Readable): Promise<void>;
  _parseWorkbook(entry: Readable): Promise<void>;
  _parseStyles(entry: Readable): Promise<void>;
  _parseSharedStrings(entry: Readable): AsyncGenerator<unknown>;
  _parseWorksheet(iterator: AsyncIterable<Uint8Array>, sheetNo: string): Iterable<{ eventType: string; value: ReadSheet }>;
}

/** A sheet as the reader yields it: the number of its file, and its rows as they stream in. */
interface ReadSheet {
  fileNumber: number;
  rows: AsyncIterable<StreamedRow>;
  /** reads the sheet's XML through without reading its rows */
  skip(): Promise<void>;
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

const attr = (tag: string, name: string) => {
  const m = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  const value = m?.[1];
  return value === undefined ? undefined : (decodeText(value) ?? value);
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
  const context: SheetContext = {
    sharedStrings: internals.sharedStrings ?? [],
    style: (id) => internals.styles.getStyleModel(id),
    date1904: names.date1904,
  };
  internals._parseWorksheet = function* (iterator, sheetNo) {
    const skip = async () => {
      for await (const _ of iterator) void _;
    };
    yield {
      eventType: 'worksheet',
      value: { fileNumber: Number(sheetNo), rows: sheetRows(iterator, context, { skipEmpty: opts.skipEmptyRows }), skip },
    };
  };
  try {
    for await (const sheet of reader as unknown as AsyncIterable<ReadSheet>) {
      const entry = names.sheets.get(sheet.fileNumber);
      const name = entry?.name ?? '';
      if (!entry || (opts.wanted && !opts.wanted(name))) {
        // the sheet's stream is read through all the same, or the next one never arrives
        await sheet.skip();
        continue;
      }
      yield { name, state: entry.state, date1904: names.date1904, rows: sheet.rows };
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
