import { z } from '@hono/zod-openapi';
import { stringify } from 'csv-stringify/sync';
import type { Context } from 'hono';
import { parsePage, parseReturnType, parseStandard, type Page, type Raw, type ReturnType, type Standard } from '@/lib/query/params';
import type { RowStream } from '@/lib/query/stream';
import type { AppEnv } from './context';

/**
 * Responses of the query endpoints: the reference's JSON wrapper (`{"status":"OK","number_found":N,"data":[…]}`),
 * its one-element-array form, CSV with a header row, bare counts and RO-Crate. Lists are streamed: rows are
 * serialised batch by batch as the client reads, never collected.
 */

type Row = Record<string, unknown> | string;

const listParam = z
  .union([z.string(), z.array(z.string())])
  .optional();

/** Query parameters every list endpoint takes. */
export const outputQuery = {
  return_type: listParam.openapi({ description: 'json (default) or csv', example: 'json' }),
  standard: listParam.openapi({ description: 'tol (default), dwc, ena or mixs', example: 'tol' }),
  limit: listParam.openapi({ description: 'at most this many rows (extension; default all). number_found is always the total' }),
  offset: listParam.openapi({ description: 'skip this many rows first (extension; default 0)' }),
};
export const pagingQuery = { return_type: outputQuery.return_type, limit: outputQuery.limit, offset: outputQuery.offset };

export interface OutputOptions {
  returnType: ReturnType;
  standard: Standard;
  page: Page;
}

/** return_type first, then standard, as the reference checks them (api-behaviour.md §1.4); then paging. */
export function outputOptions(
  q: { return_type?: Raw; standard?: Raw; limit?: Raw; offset?: Raw },
  allowed: readonly ReturnType[] = ['json', 'csv'],
): OutputOptions {
  const returnType = parseReturnType(q.return_type, allowed);
  const standard = parseStandard(q.standard);
  return { returnType, standard, page: parsePage(q.limit, q.offset) };
}

const encoder = new TextEncoder();
// Enqueue roughly this much at a time: fewer, larger chunks are cheaper than one per row.
const CHUNK_BYTES = 64 * 1024;

/** A byte stream pulled from an async sequence of strings, with backpressure and cleanup when the client leaves. */
function textStream(parts: AsyncIterable<string>, onError: (err: unknown) => void): ReadableStream<Uint8Array> {
  const it = parts[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let buffer = '';
      try {
        while (buffer.length < CHUNK_BYTES) {
          const next = await it.next();
          if (next.done) {
            if (buffer) controller.enqueue(encoder.encode(buffer));
            controller.close();
            return;
          }
          buffer += next.value;
        }
        controller.enqueue(encoder.encode(buffer));
      } catch (err) {
        // the status line is already sent: all that can be done is to cut the body short and log why
        onError(err);
        controller.error(err);
      }
    },
    async cancel() {
      await it.return?.();
    },
  });
}

async function* jsonParts(result: RowStream<Row>, arrayWrapped: boolean): AsyncGenerator<string> {
  yield `${arrayWrapped ? '[' : ''}{"status":"OK","number_found":${result.total},"data":[`;
  let first = true;
  for await (const row of result.rows) {
    yield (first ? '' : ',') + JSON.stringify(row);
    first = false;
  }
  yield arrayWrapped ? ']}]' : ']}';
}

const cell = (v: unknown): string => (v === null || v === undefined ? '' : Array.isArray(v) ? v.join(' ') : String(v));

async function* csvParts(result: RowStream<Row>): AsyncGenerator<string> {
  const columns = result.columns;
  yield stringify([columns]);
  let batch: string[][] = [];
  for await (const row of result.rows) {
    batch.push(typeof row === 'string' ? [row] : columns.map((c) => cell(row[c])));
    if (batch.length >= 500) {
      yield stringify(batch);
      batch = [];
    }
  }
  if (batch.length) yield stringify(batch);
}

const logError = (c: Context<AppEnv>) => (err: unknown) =>
  c.get('deps').logger.error({ err, request_id: c.get('requestId') }, 'response stream failed');

/**
 * A list result as JSON (the W wrapper, or AW with `arrayWrapped`) or CSV. The CSV is the data only, with a header
 * row even when empty, named `<standard>_export.csv` as the reference names it (api-behaviour.md §1.5).
 */
export function sendRows(
  c: Context<AppEnv>,
  result: RowStream<Row>,
  opts: { returnType: ReturnType; standard?: Standard; arrayWrapped?: boolean },
): Response {
  if (opts.returnType === 'csv') {
    return c.body(textStream(csvParts(result), logError(c)), 200, {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename=${(opts.standard ?? 'tol').replace(/\s/g, '_').replace(/\//g, '-')}_export.csv`,
    });
  }
  return c.body(textStream(jsonParts(result, opts.arrayWrapped ?? false), logError(c)), 200, {
    'content-type': 'application/json; charset=utf-8',
  });
}

/** RO-Crate metadata of a detached crate, saved by a browser as `<name>-ro-crate-metadata.json` (anchors.md §B.7). */
export const sendRoCrate = (c: Context<AppEnv>, crate: unknown, name: string): Response =>
  c.body(JSON.stringify(crate), 200, {
    'content-type': 'application/ld+json; charset=utf-8',
    'content-disposition': `attachment; filename=${name}-ro-crate-metadata.json`,
  });

/** OpenAPI description of a list response (JSON wrapper or CSV). */
export const listResponse = (description: string, item: z.ZodType = z.record(z.string(), z.string())) => ({
  description,
  content: {
    'application/json': {
      schema: z.object({ status: z.literal('OK'), number_found: z.number().int(), data: z.array(item) }),
    },
    'text/csv': { schema: z.string() },
  },
});

/** The reference's one-element array around the wrapper. */
export const arrayWrappedResponse = (description: string, item: z.ZodType = z.string()) => ({
  description,
  content: {
    'application/json': {
      schema: z.array(z.object({ status: z.literal('OK'), number_found: z.number().int(), data: z.array(item) })),
    },
    'text/csv': { schema: z.string() },
  },
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

export const pathParam = (name: string, example: string) => z.string().openapi({ param: { name, in: 'path' }, example });

/** The date parameters of the reference (`d_from`/`d_to`) and of the spec (`from`/`to`); the first given wins. */
export const dateQuery = {
  d_from: z.string().optional().openapi({ description: 'inclusive; ISO 8601, e.g. 2024-01-01T00:00:00%2B00:00' }),
  d_to: z.string().optional().openapi({ description: 'exclusive' }),
  from: z.string().optional().openapi({ description: 'alias of d_from' }),
  to: z.string().optional().openapi({ description: 'alias of d_to' }),
};
export const datesOf = (q: { d_from?: string; d_to?: string; from?: string; to?: string }) => ({
  from: q.d_from ?? q.from,
  to: q.d_to ?? q.to,
});
