import { WorkbookUnreadable } from './unreadable';

/**
 * A worksheet's XML cut into its `<row>` elements as it streams in. The rows are found by searching forward, each
 * character read once: a pattern with a lazy body was retried from every `<row` of a sheet whose rows do not end.
 */

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
 * Each row element of a worksheet's XML, whole, in order; with `skipEmpty`, without the rows that hold nothing (no
 * cell with a value, an inline string or a formula). Excel writes every row that was ever formatted, each styled cell
 * included: for a million formatted rows below the data, reading them would be seconds and a few hundred MB of garbage
 * for nothing. The rows kept keep their numbers (their `r` attribute). Only the text of an unfinished row is held.
 */
export async function* rowElements(chunks: AsyncIterable<Uint8Array | string>, opts: { skipEmpty?: boolean } = {}): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let held = '';
  // how far into `held` the unfinished row at its start was searched for its end
  let searched = 0;
  /** The rows that end in `held`, and `held` cut to what comes after them. */
  function* complete(): Generator<string> {
    let from = 0;
    let keepFrom = -1;
    for (let start = rowStart(held, from); start >= 0; start = rowStart(held, from)) {
      const end = rowEnd(held, start, start === 0 ? searched : start);
      // an unfinished row waits for the next chunk
      if (end < 0 || Number.isNaN(held.charCodeAt(start + 4))) {
        keepFrom = start;
        break;
      }
      const row = held.slice(start, end);
      if (!opts.skipEmpty || HOLDS_SOMETHING.test(row)) yield row;
      from = end;
    }
    // a tag cut by the chunk's end waits too
    if (keepFrom < 0) keepFrom = Math.max(from, held.lastIndexOf('<'));
    held = held.slice(keepFrom);
    searched = held.length;
  }
  for await (const chunk of chunks) {
    held += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    yield* complete();
    if (held.length > ROW_XML_MAX_CHARS) {
      throw new WorkbookUnreadable(
        `A row of the sheet is over ${ROW_XML_MAX_CHARS / 2 ** 20} MB of XML: no sheet this service reads has such rows.`,
        true,
      );
    }
  }
  held += decoder.decode();
  yield* complete();
  // a row cut off at the end of the sheet is given as it is, to be refused as XML that is not well formed
  const start = rowStart(held, 0);
  if (start >= 0) yield held.slice(start);
}
