import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { forEachValueRow } from '@/db/rows';
import { samples } from '@/db/schema';
import type { SampleRecordWriter, SampleRecordWriters } from '@/lib/standards/record-writer';
import { renderSample, type SampleRecord, type SampleRow } from '@/lib/standards/render';
import { jsonRecordWriter, type RecordShape, recordColumns, sampleWriters } from '@/lib/standards/writers';
import type { Page, ReturnType, Standard } from './params';
import { ProfileTitles, sampleBatchFetcher, shapeKey, titledBatch } from './sample-batches';
import { type BatchRow, toBatchRow } from './sample-select';
import {
  LOOKUP_MAX,
  type Lookup,
  lookupBatchQuery,
  lookupCondition,
  lookupOneQuery,
  type SampleKey,
  type SampleOrder,
  sampleBatchQuery,
} from './sample-statements';
import {
  BATCH_SIZE,
  type Batch,
  CSV_SEPARATOR,
  JSON_SEPARATOR,
  keysetBatches,
  keysetRows,
  mapRows,
  type PageRequest,
  type RowStream,
  type RowWriter,
  summarisedRows,
  unwrittenRows,
  whenRead,
  writtenBatches,
} from './stream';

/**
 * The sample queries' results: rows matching a condition or named by a look-up, counted, and streamed as records in a
 * standard or written straight to JSON or CSV. The statements are lib/query/sample-statements.ts's, the batches
 * lib/query/sample-batches.ts's.
 */

// what the benchmark and the plan tests run, as the API runs it
export { sampleRowColumns } from './sample-select';
export { type Lookup, lookupBatchQuery, lookupCondition, lookupOneQuery, type SampleKey, type SampleOrder, sampleBatchQuery };

type Key = SampleKey;

/** The time a batch of newest rows is ordered on, as a row holds it (the position the next batch starts after). */
const TIME_OF: Record<Exclude<SampleOrder, 'id'>, (r: SampleRow) => string | null> = {
  newest: (r) => r.timeCreated,
  newestImage: (r) => r.lastBioimageSubmitted,
};

/**
 * Where a stream's rows come from: a condition in an order, or a look-up (by svc_id; lookupBatchQuery when it names
 * a few samples, its condition otherwise).
 */
type RowSource = { where: SQL | undefined; order: SampleOrder } | { lookup: Lookup };

const orderOf = (source: RowSource): SampleOrder => ('lookup' in source ? 'id' : source.order);
const conditionOf = (source: RowSource): SQL | undefined => ('lookup' in source ? lookupCondition(source.lookup) : source.where);

const fetchBatch = (db: Db, source: RowSource, prerender?: () => RowWriter<SampleRow> | undefined) => {
  if ('lookup' in source && source.lookup.values.length === 1) {
    const { lookup } = source;
    const query = (req: PageRequest<Key>) => lookupOneQuery(lookup, req) ?? sampleBatchQuery(lookupCondition(lookup), 'id', req);
    return sampleBatchFetcher(db, query, prerender);
  }
  if ('lookup' in source && source.lookup.values.length <= LOOKUP_MAX) {
    const { lookup } = source;
    return sampleBatchFetcher(db, (req: PageRequest<Key>) => lookupBatchQuery(lookup, req), prerender, 'in-query');
  }
  const where = conditionOf(source);
  const order = orderOf(source);
  return sampleBatchFetcher(db, (req: PageRequest<Key>) => sampleBatchQuery(where, order, req), prerender);
};

const keyOf =
  (order: SampleOrder) =>
  (r: SampleRow): Key => ({ id: r.id, t: order === 'id' ? null : TIME_OF[order](r) });

/** How many samples match, and which (project, version) pairs they have: one grouped count. */
export const shapeQuery = (db: Db, where: SQL | undefined) =>
  db
    .select({ project: samples.project, version: samples.manifestVersion, n: sql<number>`count(*)::int` })
    .from(samples)
    .where(where)
    .groupBy(samples.project, samples.manifestVersion)
    .orderBy(samples.project, samples.manifestVersion);

export async function countShapes(db: Db, where: SQL | undefined): Promise<{ total: number; shapes: RecordShape[] }> {
  const groups = await shapeQuery(db, where);
  return {
    total: groups.reduce((sum, g) => sum + Number(g.n), 0),
    shapes: groups.map((g) => ({ project: g.project, version: g.version })),
  };
}

/** Stored rows matching `where`, in batches (no rendering). */
export function sampleRows(db: Db, where: SQL | undefined, order: SampleOrder, page: Page): AsyncGenerator<SampleRow> {
  return keysetRows(fetchBatch(db, { where, order }), keyOf(order), page);
}

/** The rows a look-up names, by svc_id, in batches (for a few samples one statement: lookupBatchQuery). */
export function lookupBatches(db: Db, lookup: Lookup, page: Page): AsyncGenerator<Batch<SampleRow>> {
  return keysetBatches(fetchBatch(db, { lookup }), keyOf('id'), page);
}

/**
 * Every sample a look-up of up to LOOKUP_MAX values names, in svc_id order, with its profile's title, read in one
 * statement (lookupOneQuery, lookupBatchQuery); null when more may match than a batch holds (a longer list of values,
 * or a batch's worth of samples sharing an accession, whose batch the stream then reads again), for the caller to
 * stream them (lookupBatches, lookupStream).
 *
 * Why: nearly every look-up names a sample or a few, and its answer is made once all its rows are in; the stream's
 * batches (a keyset generator, a fetcher that writes rows while the rest arrive and waits on titles being read) are
 * for lists. With this, the answer made at once (RowStream.whole) and the stream's objects built in one shape
 * (sampleRowStream), a one-sample look-up spends markedly less time above the floor (see docs/benchmarks.md).
 */
export async function lookupRows(db: Db, lookup: Lookup): Promise<SampleRow[] | null> {
  if (!lookup.values.length || lookup.values.length > LOOKUP_MAX) return null;
  const first: PageRequest<Key> = { after: null, limit: BATCH_SIZE, offset: 0 };
  const one = lookupOneQuery(lookup, first);
  let rows: BatchRow[];
  if (one) {
    rows = [];
    await forEachValueRow(db, one, (values) => {
      rows.push(toBatchRow(values));
    });
    // the titles this process knows, and the others read together
    const titles = new ProfileTitles(db);
    await titles.read(rows.map((row) => row.profileId));
    for (const row of rows) row.profileTitle = titles.get(row.profileId) ?? null;
  } else {
    rows = await titledBatch(db, lookupBatchQuery(lookup, first), undefined);
  }
  return rows.length < BATCH_SIZE ? rows : null;
}

/** The (project, version) pairs of rows read, in the order the count query gives them. */
export function shapesOf(rows: readonly SampleRow[]): RecordShape[] {
  const seen = new Map<string, RecordShape>();
  for (const r of rows) seen.set(shapeKey(r), { project: r.project, version: r.manifestVersion });
  return [...seen.values()].sort((a, b) =>
    a.project === b.project ? (a.version < b.version ? -1 : a.version > b.version ? 1 : 0) : a.project < b.project ? -1 : 1,
  );
}

type StreamOptions = { standard: Standard; page: Page; order?: SampleOrder; returnType?: ReturnType };

/**
 * The samples matching `where`, rendered in `standard`, streamed. A look-up of one sample, or of a list shorter than
 * a batch, is one query: its count and CSV columns come from the rows themselves.
 */
export function sampleStream(db: Db, where: SQL | undefined, opts: StreamOptions): Promise<RowStream<SampleRecord>> {
  return streamOf(db, { where, order: opts.order ?? 'id' }, opts);
}

/** The samples a look-up names, as sampleStream, in svc_id order (for a few samples one statement: lookupBatchQuery). */
export function lookupStream(db: Db, lookup: Lookup, opts: Omit<StreamOptions, 'order'>): Promise<RowStream<SampleRecord>> {
  return streamOf(db, { lookup }, opts);
}

async function streamOf(db: Db, source: RowSource, opts: StreamOptions): Promise<RowStream<SampleRecord>> {
  // a JSON answer's rows are written as they arrive; CSV lines need the result's columns first
  let prerender: RowWriter<SampleRow> | undefined = opts.returnType === 'json' ? jsonRows(jsonRecordWriter(opts.standard)) : undefined;
  const { summary, batches, whole } = await summarisedRows(
    fetchBatch(db, source, () => prerender),
    keyOf(orderOf(source)),
    opts.page,
    {
      of: (all) => ({ total: all.length, shapes: shapesOf(all) }),
      // only for a result longer than its first batch: a look-up's condition is not built otherwise
      query: () => countShapes(db, conditionOf(source)),
    },
  );
  const columns = recordColumns(summary.shapes, opts.standard);
  const write = sampleWriters(columns, opts.standard);
  // the columns are known now: the batches still to come are written as they arrive, in CSV too
  if (opts.returnType === 'csv') prerender = csvRows(write.csv);
  return sampleRowStream(batches, summary.total, columns, opts.standard, write, whole);
}

/** A JSON writer as a stream writes rows: JSON values joined by commas, written into the answer's chunks. */
const jsonRows = (writer: SampleRecordWriter): RowWriter<SampleRow> => ({
  write: (r) => writer.text(r),
  separator: JSON_SEPARATOR,
  writeInto: (r, chunks) => writer.write(r, chunks),
});

/** A CSV writer as a stream writes rows: lines, each ending its own. */
export const csvRows = (writer: SampleRecordWriter): RowWriter<SampleRow> => ({ write: (r) => writer.text(r), separator: CSV_SEPARATOR });

/**
 * A result's batches as a RowStream: its records in `standard`, or the same rows written as JSON objects or CSV lines
 * in `columns` by `write` (a batch already written as it arrived is sent as it is), and written at once when `whole`
 * holds every row of the result. Only one of them is read.
 */
export function sampleRowStream(
  batches: AsyncGenerator<Batch<SampleRow>>,
  total: number,
  columns: readonly string[],
  standard: Standard,
  write: SampleRecordWriters = sampleWriters(columns, standard),
  whole: Batch<SampleRow> | null = null,
): RowStream<SampleRecord> {
  // one object of one shape, built without spreading others into it: V8 builds a spread, a computed key or a getter in
  // an object literal on a slow path, and a one-sample look-up made several of them per answer
  const { written, whole: allWritten } = writtenBatches(batches, whole, {
    json: jsonRows(write.json),
    // the CSV writer is asked for only when a CSV line is written
    csv: { write: (r) => write.csv.text(r), separator: CSV_SEPARATOR },
  });
  return {
    total,
    columns,
    rows: whenRead(() => mapRows(unwrittenRows(batches), (r) => renderSample(r, standard))),
    written,
    whole: allWritten,
  };
}
