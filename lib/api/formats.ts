import { stringify } from 'csv-stringify/sync';
import type { Context } from 'hono';
import type { z } from 'zod';
import { bodyOf, type WrittenPart, wholeBody } from '@/lib/query/byte-chunks';
import { arrayWrapped, type DateQuery, type OutputQuery, type RoCrate, wrapped } from '@/lib/query/contract';
import { jsonParts, jsonWhole } from '@/lib/query/json-answer';
import { type Page, parsePage, parseReturnType, parseStandard, type ReturnType, type Standard } from '@/lib/query/params';
import { BATCH_SIZE, type RowStream } from '@/lib/query/stream';
import { CSV_STRINGIFY_OPTIONS } from '@/lib/values/csv';
import type { AppEnv } from './context';
import { CSV_CONTENT } from './schemas';

/**
 * Responses of the query endpoints: the reference's JSON wrapper (`{"status":"OK","number_found":N,"data":[…]}`),
 * its one-element-array form, CSV with a header row, bare counts and RO-Crate. A list longer than a batch is
 * streamed: rows are serialised batch by batch as the client reads, never collected; a list of a batch at most is
 * written whole and sent with its length (see sendRows).
 */

type Row = Record<string, unknown> | string;

export interface OutputOptions {
  returnType: ReturnType;
  standard: Standard;
  page: Page;
}

/** return_type first, then standard, as the reference checks them (docs/api-behaviour.md §1.4); then paging. */
export function outputOptions(q: OutputQuery, allowed: readonly ReturnType[] = ['json', 'csv']): OutputOptions {
  const returnType = parseReturnType(q.return_type, allowed);
  const standard = parseStandard(q.standard);
  return { returnType, standard, page: parsePage(q.limit, q.offset) };
}

const encoder = new TextEncoder();
// Enqueue roughly this much text at a time: fewer, larger chunks are cheaper than one per row.
const CHUNK_CHARS = 64 * 1024;

/**
 * A byte stream pulled from an async sequence of parts (text, or bytes already encoded), with backpressure and
 * cleanup when the client leaves.
 */
function textStream(parts: AsyncIterable<WrittenPart>, onError: (err: unknown) => void): ReadableStream<Uint8Array> {
  const it = parts[Symbol.asyncIterator]();
  // the client left while a batch was being read: what was read has nowhere to go, and that is no error
  let cancelled = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let text = '';
      try {
        for (;;) {
          const next = await it.next();
          if (cancelled) return;
          if (next.done) {
            if (text) controller.enqueue(encoder.encode(text));
            controller.close();
            return;
          }
          const part = next.value;
          if (typeof part !== 'string') {
            if (text) controller.enqueue(encoder.encode(text));
            controller.enqueue(part);
            return;
          }
          text += part;
          if (text.length >= CHUNK_CHARS) {
            controller.enqueue(encoder.encode(text));
            return;
          }
        }
      } catch (err) {
        if (cancelled) return;
        // the status line is already sent: all that can be done is to cut the body short and log why
        onError(err);
        controller.error(err);
      }
    },
    async cancel() {
      cancelled = true;
      await it.return?.();
    },
  });
}

// the header row a CSV answer starts with, even when it has no rows
const csvHeader = (result: RowStream<Row>) => stringify([result.columns], CSV_STRINGIFY_OPTIONS);

const cell = (v: unknown): string => (v === null || v === undefined ? '' : Array.isArray(v) ? v.join(' ') : String(v));

async function* csvParts(result: RowStream<Row>): AsyncGenerator<WrittenPart> {
  const columns = result.columns;
  yield csvHeader(result);
  if (result.written) {
    yield* result.written.csv;
    return;
  }
  let batch: string[][] = [];
  for await (const row of result.rows) {
    batch.push(typeof row === 'string' ? [row] : columns.map((c) => cell(row[c])));
    if (batch.length >= 500) {
      yield stringify(batch, CSV_STRINGIFY_OPTIONS);
      batch = [];
    }
  }
  if (batch.length) yield stringify(batch, CSV_STRINGIFY_OPTIONS);
}

const logError = (c: Context<AppEnv>) => (err: unknown) =>
  c.get('deps').logger.error({ err, request_id: c.get('requestId') }, 'response stream failed');

/**
 * A list result as JSON (the W wrapper, or AW with `arrayWrapped`) or CSV. The CSV is the data only, with a header
 * row even when empty, named `<standard>_export.csv` as the reference names it (docs/api-behaviour.md §1.5).
 *
 * A result of a batch or fewer (every look-up, most lists) is held in memory by its query anyway: it is written
 * whole and sent with a Content-Length, which spares the web stream's machinery and chunked encoding on the commonest
 * answers (a third of the time of a one-record look-up in bench:http's profile went to them), and a failure while
 * writing it is an error answer rather than a body cut short. Anything longer is streamed as it is read.
 */
export async function sendRows(
  c: Context<AppEnv>,
  result: RowStream<Row>,
  opts: { returnType: ReturnType; standard?: Standard; arrayWrapped?: boolean },
): Promise<Response> {
  const csv = opts.returnType === 'csv';
  const headers: Record<string, string> = csv
    ? {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename=${(opts.standard ?? 'tol').replace(/\s/g, '_').replace(/\//g, '-')}_export.csv`,
      }
    : { 'content-type': 'application/json; charset=utf-8' };
  const arrayWrapped = opts.arrayWrapped ?? false;
  const { whole } = result;
  if (whole) {
    // every row in memory: the answer is made at once
    const pieces = csv ? [csvHeader(result), ...whole.csv()] : jsonWhole(result, whole, arrayWrapped);
    return c.body(bodyOf(pieces), 200, headers);
  }
  const parts = csv ? csvParts(result) : jsonParts(result, arrayWrapped);
  if (result.total <= BATCH_SIZE) return c.body(await wholeBody(parts), 200, headers);
  return c.body(textStream(parts, logError(c)), 200, headers);
}

/** RO-Crate metadata of a detached crate, saved by a browser as `<name>-ro-crate-metadata.json` (docs/repositories.md §7). */
export const sendRoCrate = (c: Context<AppEnv>, crate: RoCrate, name: string): Response =>
  c.body(JSON.stringify(crate), 200, {
    'content-type': 'application/ld+json; charset=utf-8',
    'content-disposition': `attachment; filename=${name}-ro-crate-metadata.json`,
  });

/** A list answer: the W wrapper around `item`, or CSV. */
export const listResponse = <T extends z.ZodType>(description: string, item: T) => ({
  description,
  content: { 'application/json': { schema: wrapped(item) }, ...CSV_CONTENT },
});

/** A list answer in the reference's one-element array around the wrapper (AW), or CSV. */
export const arrayWrappedResponse = <T extends z.ZodType>(description: string, item: T) => ({
  description,
  content: { 'application/json': { schema: arrayWrapped(item) }, ...CSV_CONTENT },
});

// ---------------------------------------------------------------------------------------------------------------
// Path parameters of the query endpoints

/**
 * Router regexes that tell the query routes apart (`manifest/{from}/{to}` from `manifest/{manifest_id}/sample_status`,
 * `sample/{project}` from `sample/pending`). Hono matches the percent-encoded path, where a comma stays `%2C`. Within
 * the shape, values are checked by the domain so that a bad one gets the reference's sentence, not a 404.
 */
export const QUERY_PATTERNS = {
  // No literal `/` in these: app.ts splits route paths on it to tell 405 from 404, so `\x2F` stands for it.
  /** a date starts with its year */
  date: '[0-9][^\\x2F]*',
  /** the reference's class for manifest ids; literal siblings (validate, template, current_version) fall outside it */
  manifestId: '[0-9A-Za-f-]+',
  /** project names, a comma list; never the literal sample routes of other areas */
  projects: '(?!(?:pending|decision|register)\\b)(?:[A-Za-z ,]|%2[Cc])+',
  /** a comma list of anything but `/` */
  list: '[^\\x2F]+',
  /** a field name of the audit enumeration, never the literal audit routes */
  auditField: '(?!(?:manifest_id|update_type)\\b)[A-Za-z_]+',
} as const;

/** `d_from`/`d_to`, or their aliases `from`/`to`. */
export const datesOf = (q: DateQuery) => ({ from: q.d_from ?? q.from, to: q.d_to ?? q.to });
