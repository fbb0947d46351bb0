import { ByteChunks, type WrittenPart } from './byte-chunks';
import type { Page } from './params';

/**
 * A query result that is read as it is sent: the count and the CSV columns are known up front (the JSON wrapper
 * starts with `number_found`, the CSV with its header), the rows arrive in batches so memory stays flat however many
 * match (docs/architecture.md, Decision 8).
 */
export interface RowStream<T> {
  /** every match, whatever limit and offset say */
  total: number;
  /** CSV header; for a list of plain strings, its one column's name */
  columns: readonly string[];
  rows: AsyncIterable<T>;
  /**
   * The same rows already written, for a producer that can write them straight from what it read (the sample
   * exports) instead of building each record first: the parts, in order, are the rows as JSON values joined by
   * commas, or as CSV lines. Only one of rows, json and csv is read.
   */
  written?: { json: AsyncIterable<WrittenPart>; csv: AsyncIterable<WrittenPart> };
  /**
   * Every row is in memory already (a result of one batch, read whole): the same parts as `written`, made at once, so
   * that the answer is built without iterating anything asynchronously (lib/api/formats.ts, sendRows).
   */
  whole?: { json: () => WrittenPart[]; csv: () => WrittenPart[] };
}

/**
 * A batch of rows, with the same rows already written (JSON values joined by commas, or CSV lines) when its producer
 * wrote each as it arrived (lib/query/sample-batches.ts, sampleBatchFetcher). A batch written so is read for its length
 * and its last row (keysetBatches) and for what its producer says it keeps of the others; its rows are not rendered
 * again (unwrittenRows).
 */
export type Batch<R> = R[] & { written?: WrittenPart[] };

/** What goes between two written rows: a comma between JSON values, nothing between CSV lines (each ends its line). */
export const JSON_SEPARATOR = ',';
export const CSV_SEPARATOR = '';

/** How rows are written: each row's text, and what goes between two rows (JSON_SEPARATOR or CSV_SEPARATOR). */
export interface RowWriter<R> {
  write: (row: R) => string;
  separator: string;
  /** the same row written into chunks being filled, where that is cheaper than its text (a list's batch as it arrives) */
  writeInto?: (row: R, chunks: ByteChunks) => void;
}

/** Rows per database round trip: large enough to amortise the round trip, small enough to keep memory flat. */
export const BATCH_SIZE = 1000;

export const rowStream = <T>(total: number, columns: readonly string[], rows: AsyncIterable<T>): RowStream<T> => ({ total, columns, rows });

export const fromArray = <T>(rows: T[], columns: readonly string[], total = rows.length): RowStream<T> => ({
  total,
  columns,
  rows: (async function* () {
    yield* rows;
  })(),
});

export interface PageRequest<K> {
  /** the key of the last row of the previous batch; null for the first */
  after: K | null;
  limit: number;
  /** only on the first batch */
  offset: number;
}

/**
 * Keyset pagination: each batch continues after the last key seen, so every batch is an index range scan (no
 * OFFSET that rereads what was sent, no cursor that pins a connection or a transaction for the whole response).
 * Yields the batches themselves (never an empty one), for a producer that writes a batch at a time.
 */
export async function* keysetBatches<R, K>(
  fetchBatch: (req: PageRequest<K>) => Promise<Batch<R>>,
  keyOf: (row: R) => K,
  page: Page,
  batchSize = BATCH_SIZE,
): AsyncGenerator<Batch<R>> {
  let remaining = page.limit ?? Number.POSITIVE_INFINITY;
  if (remaining <= 0) return;
  const request = (after: K | null, offset: number) => {
    const limit = Math.min(batchSize, remaining);
    const rows = fetchBatch({ after, limit, offset });
    // a client that goes away mid-stream leaves this batch unread: its failure is nobody's concern then
    rows.catch(() => {});
    return { rows, limit };
  };
  let next: { rows: Promise<Batch<R>>; limit: number } | null = request(null, page.offset);
  while (next) {
    const rows: Batch<R> = await next.rows;
    const last = rows[rows.length - 1];
    remaining -= rows.length;
    // ask for the following batch before handing these out, so the database works while they are serialised
    next = rows.length === next.limit && last !== undefined && remaining > 0 ? request(keyOf(last), 0) : null;
    if (rows.length) yield rows;
  }
}

/** The rows of batches, one at a time. */
export async function* flatRows<R>(batches: AsyncIterable<R[]>): AsyncGenerator<R> {
  for await (const rows of batches) yield* rows;
}

/** The rows of batches not written as they arrived, one at a time: a written batch keeps only its answer. */
export async function* unwrittenRows<R>(batches: AsyncIterable<Batch<R>>): AsyncGenerator<R> {
  for await (const rows of batches) {
    if (rows.written) throw new Error('a batch written as it arrived was read for its rows');
    yield* rows;
  }
}

/** Keyset pagination (keysetBatches), a row at a time. */
export const keysetRows = <R, K>(
  fetchBatch: (req: PageRequest<K>) => Promise<R[]>,
  keyOf: (row: R) => K,
  page: Page,
  batchSize = BATCH_SIZE,
): AsyncGenerator<R> => flatRows(keysetBatches(fetchBatch, keyOf, page, batchSize));

/**
 * A list's rows with what must be known before the first row is sent (its count, its CSV columns), in one query for
 * most answers: the first batch is read first, and when it holds every match (fewer rows than asked for, from the
 * start) the summary is taken from it; only a longer list pays for the separate count. The batch is not read twice:
 * the stream starts with it.
 */
export async function summarisedRows<R, K, S>(
  fetchBatch: (req: PageRequest<K>) => Promise<Batch<R>>,
  keyOf: (row: R) => K,
  page: Page,
  summary: { of: (all: R[]) => S; query: () => Promise<S> },
): Promise<{ summary: S; batches: AsyncGenerator<Batch<R>>; whole: Batch<R> | null }> {
  const limit = Math.min(BATCH_SIZE, page.limit ?? Number.POSITIVE_INFINITY);
  if (limit <= 0) return { summary: await summary.query(), batches: keysetBatches(fetchBatch, keyOf, page), whole: null };
  const first = await fetchBatch({ after: null, limit, offset: page.offset });
  const whole = page.offset === 0 && first.length < limit;
  let unread: Batch<R> | null = first;
  const batches = keysetBatches(
    (req: PageRequest<K>) => {
      if (unread && req.after === null) {
        const batch = unread;
        unread = null;
        return Promise.resolve(batch);
      }
      return fetchBatch(req);
    },
    keyOf,
    page,
  );
  return { summary: whole ? summary.of(first) : await summary.query(), batches, whole: whole ? first : null };
}

/**
 * An async iterable whose iterator is made when it is first asked for: a stream offers its rows several ways (records,
 * JSON, CSV) and only one is read. A class, so that each is an object of one shape (an object literal with a computed
 * key is built by V8's runtime, a slow path on every answer).
 */
class WhenRead<T> implements AsyncIterable<T> {
  constructor(private readonly make: () => AsyncIterable<T>) {}

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return this.make()[Symbol.asyncIterator]();
  }
}

export const whenRead = <T>(make: () => AsyncIterable<T>): AsyncIterable<T> => new WhenRead(make);

export async function* mapRows<A, B>(rows: AsyncIterable<A>, fn: (a: A) => B): AsyncGenerator<B> {
  for await (const r of rows) yield fn(r);
}

/**
 * Rows written in order, joined by the writer's separator: a batch its producer already wrote is passed on as it is,
 * any other is written here, a row at a time into chunks of bytes (ByteChunks), so that no row's text outlives its
 * encoding and no batch is one string (a thousand JSON records are megabytes, which V8 would put in its
 * large-object space, freed only by a full collection).
 */
export async function* writeBatches<R>(batches: AsyncIterable<Batch<R>>, writer: RowWriter<R>): AsyncGenerator<WrittenPart> {
  let first = true;
  for await (const rows of batches) {
    if (!first && writer.separator) yield writer.separator;
    first = false;
    yield* writeBatch(rows, writer);
  }
}

/** One batch's rows written: as its producer wrote them when they arrived, or each now (writeBatches). */
function writeBatch<R>(rows: Batch<R>, writer: RowWriter<R>): WrittenPart[] {
  if (rows.written) return rows.written;
  const chunks = new ByteChunks(writer.separator);
  const { writeInto } = writer;
  if (writeInto) for (const row of rows) writeInto(row, chunks);
  else for (const row of rows) chunks.write(writer.write(row));
  return chunks.parts();
}

/**
 * A result's rows written as JSON and as CSV (RowStream.written) from its batches, and at once (RowStream.whole) when
 * `whole` holds every row of the result (summarisedRows, or rows read before the answer is made).
 */
export function writtenBatches<R>(
  batches: AsyncIterable<Batch<R>>,
  whole: Batch<R> | null,
  writers: { json: RowWriter<R>; csv: RowWriter<R> },
): Required<Pick<RowStream<unknown>, 'written'>> & Pick<RowStream<unknown>, 'whole'> {
  return {
    written: { json: whenRead(() => writeBatches(batches, writers.json)), csv: whenRead(() => writeBatches(batches, writers.csv)) },
    whole: whole ? { json: () => writeBatch(whole, writers.json), csv: () => writeBatch(whole, writers.csv) } : undefined,
  };
}

/**
 * A result of rows read as arrays and written straight to JSON or CSV by `write` (sample_status, the audit): its
 * records made by `record` only when they are read as records. One object of one shape, not others spread into it
 * (lib/query/sample-rows.ts, sampleRowStream).
 */
export function writtenRowStream<R, T>(
  total: number,
  columns: readonly string[],
  read: { batches: AsyncGenerator<Batch<R>>; whole: Batch<R> | null },
  write: { json: (row: R) => string; csv: (row: R) => string },
  record: (row: R) => T,
): RowStream<T> {
  const { written, whole } = writtenBatches(read.batches, read.whole, {
    json: { write: write.json, separator: JSON_SEPARATOR },
    csv: { write: write.csv, separator: CSV_SEPARATOR },
  });
  return { total, columns, rows: whenRead(() => mapRows(flatRows(read.batches), record)), written, whole };
}
