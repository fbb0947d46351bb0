import { and, asc, desc, gt, inArray, type SQL, sql } from 'drizzle-orm';
import { type AnyPgColumn, alias } from 'drizzle-orm/pg-core';
import type { Db } from '@/db/client';
import { forEachValueRow } from '@/db/rows';
import { profiles, samples } from '@/db/schema';
import { renderSample, type SampleRecord, type SampleRow } from '@/lib/standards/render';
import { StoredFields } from '@/lib/standards/stored-fields';
import {
  type RecordShape,
  recordColumns,
  type SampleWriters,
  sampleJsonInto,
  sampleJsonWriter,
  sampleWriters,
} from '@/lib/standards/writers';
import { ByteChunks } from './byte-chunks';
import type { Page, ReturnType, Standard } from './params';
import { profileTitleCache } from './profile-titles';
import { type BatchQuery, fromUtcText, printedUtc, queryOf, textOf, utcOfPrinted } from './sql';
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

/** The accession and relation columns, under the names the API's records and field search give them. */
export const accessionColumns = {
  biosampleAccession: samples.biosampleAccession,
  sraAccession: samples.sraAccession,
  submissionAccession: samples.submissionAccession,
  sampleDerivedFrom: samples.sampleDerivedFrom,
  sampleSameAs: samples.sampleSameAs,
  sampleSymbiontOf: samples.sampleSymbiontOf,
};

/**
 * The stored columns rendering reads, unconverted, and the sample's profile: its title is read as a stream meets the
 * profile (ProfileTitles, sampleBatchFetcher), not joined, so that a batch is a walk of one index in its order (a join
 * with profiles made PostgreSQL hash the batch's rows and sort them again: the day list).
 */
const storedColumns = {
  id: samples.id,
  manifestId: samples.manifestId,
  project: samples.project,
  manifestVersion: samples.manifestVersion,
  status: samples.status,
  fields: samples.fields,
  publicName: samples.publicName,
  ...accessionColumns,
  associatedTolProjects: samples.associatedTolProjects,
  lastBioimageSubmitted: samples.lastBioimageSubmitted,
  timeCreated: samples.timeCreated,
  timeUpdated: samples.timeUpdated,
  rightsClearedAt: samples.rightsClearedAt,
  profileId: samples.profileId,
};

/** The stored columns of `s` (the tables, or a subquery selecting storedColumns) as rendering reads them. */
const rowColumnsOf = (s: { [K in keyof typeof storedColumns]: AnyPgColumn }) => ({
  id: s.id,
  manifestId: s.manifestId,
  project: s.project,
  manifestVersion: s.manifestVersion,
  status: s.status,
  // as text, undecoded on PostgreSQL (db/client.ts, RAW_TEXT_OID): the writers copy each value out of it
  // (lib/standards/stored-fields.ts, lib/standards/field-copier.ts)
  fields: sql<string | Uint8Array>`${s.fields}::text::varchar`.mapWith((text: string | Uint8Array) => new StoredFields(text)),
  publicName: s.publicName,
  biosampleAccession: s.biosampleAccession,
  sraAccession: s.sraAccession,
  submissionAccession: s.submissionAccession,
  sampleDerivedFrom: s.sampleDerivedFrom,
  sampleSameAs: s.sampleSameAs,
  sampleSymbiontOf: s.sampleSymbiontOf,
  associatedTolProjects: s.associatedTolProjects,
  // printed by the database, made utcText's form as they are read (toBatchRow)
  lastBioimageSubmitted: sql<string | null>`${printedUtc(s.lastBioimageSubmitted)}`,
  timeCreated: printedUtc(s.timeCreated),
  timeUpdated: printedUtc(s.timeUpdated),
  // one boolean, not the time: all an embargo needs to know (lib/standards/render.ts)
  rightsCleared: sql<boolean>`${s.rightsClearedAt} is not null`,
  profileId: s.profileId,
});

/**
 * The columns every sample query selects: what rendering needs but the profile's title, and nothing that must not
 * leave the service.
 */
export const sampleRowColumns = rowColumnsOf(storedColumns);

/** A batch's row: a SampleRow with its profile, and the browser's sort key when the query selects one. */
export type BatchRow = SampleRow & { profileId: string; sortKey?: string | null };

/**
 * Batch order. `id`: by svc_id, the primary key. `newest`/`newestImage`: newest first on time_created or
 * last_bioimage_submitted, svc_id breaking ties; each served by an index on (time, id).
 */
export type SampleOrder = 'id' | 'newest' | 'newestImage';

export type SampleKey = { id: string; t: string | null };
type Key = SampleKey;

/** The time a batch of newest rows is ordered on, as a row holds it (the position the next batch starts after). */
const TIME_OF: Record<Exclude<SampleOrder, 'id'>, (r: SampleRow) => string | null> = {
  newest: (r) => r.timeCreated,
  newestImage: (r) => r.lastBioimageSubmitted,
};

// the batch's chosen rows, as the outer query names them: a subquery "chosen" selecting storedColumns
const chosenSample = alias(samples, 'chosen');
const chosenColumns: { [K in keyof typeof storedColumns]: AnyPgColumn } = {
  id: chosenSample.id,
  manifestId: chosenSample.manifestId,
  project: chosenSample.project,
  manifestVersion: chosenSample.manifestVersion,
  status: chosenSample.status,
  fields: chosenSample.fields,
  publicName: chosenSample.publicName,
  biosampleAccession: chosenSample.biosampleAccession,
  sraAccession: chosenSample.sraAccession,
  submissionAccession: chosenSample.submissionAccession,
  sampleDerivedFrom: chosenSample.sampleDerivedFrom,
  sampleSameAs: chosenSample.sampleSameAs,
  sampleSymbiontOf: chosenSample.sampleSymbiontOf,
  associatedTolProjects: chosenSample.associatedTolProjects,
  lastBioimageSubmitted: chosenSample.lastBioimageSubmitted,
  timeCreated: chosenSample.timeCreated,
  timeUpdated: chosenSample.timeUpdated,
  rightsClearedAt: chosenSample.rightsClearedAt,
  profileId: chosenSample.profileId,
};

/** The chosen rows' svc_id, and the sort value a batch text's `key` selects, for the outer query's order. */
export const CHOSEN_ID: SQL = sql`${chosenSample.id}`;
export const CHOSEN_SORT_VALUE: SQL = sql.raw('"chosen"."sort_value"');

/**
 * What a batch query says whatever it asks for, rendered once per order: Drizzle took longer to build the whole
 * statement on every call (~0.3 ms) than PostgreSQL took to answer a one-sample look-up. `order.inner` sorts the
 * samples table, `order.outer` the same order on the chosen rows; `key` is an extra sort column, selected from the
 * samples table as "sort_value" and, as `key.outer` makes of CHOSEN_SORT_VALUE, after the row's columns.
 */
export interface BatchText {
  head: string;
  inner: string;
  outer: string;
}

export function sampleBatchText(order: { inner: SQL; outer: SQL }, key?: { inner: SQL | AnyPgColumn; outer: SQL }): BatchText {
  return batchText(order, key ? [key.outer] : [], key);
}

// a look-up's profile title, read per row in the statement itself: for a few rows, cheaper than a second round trip
const TITLE_OF_CHOSEN = sql`(select ${profiles.title} from ${profiles} where ${profiles.id} = ${chosenSample.profileId})`;

function batchText(order: { inner: SQL; outer: SQL }, extra: SQL[], key?: { inner: SQL | AnyPgColumn }): BatchText {
  const outerColumns: (SQL | AnyPgColumn)[] = [...Object.values(rowColumnsOf(chosenColumns)), ...extra];
  const innerColumns: (SQL | AnyPgColumn)[] = [...Object.values(storedColumns), ...(key ? [sql`${key.inner} as "sort_value"`] : [])];
  return {
    head: textOf(sql`select ${sql.join(outerColumns, sql`, `)} from (select ${sql.join(innerColumns, sql`, `)} from ${samples} where `),
    inner: textOf(order.inner),
    outer: textOf(order.outer),
  };
}

/** A batch: the rows of `where`, in the text's order, `limit` of them after the first `offset`. */
export function batchQuery(text: BatchText, where: SQL | undefined, limit: number, offset: number): BatchQuery {
  const query = sql`${sql.raw(text.head)}${where ?? sql`true`} order by ${sql.raw(text.inner)} limit ${limit} offset ${offset}) "chosen" order by ${sql.raw(text.outer)}`;
  return { toSQL: () => queryOf(query) };
}

const BY_ID = { inner: asc(samples.id), outer: asc(chosenSample.id) };

const ORDERS: Record<SampleOrder, { time: AnyPgColumn | null; text: BatchText }> = {
  id: { time: null, text: sampleBatchText(BY_ID) },
  newest: {
    time: samples.timeCreated,
    text: sampleBatchText({
      inner: sql`${desc(samples.timeCreated)}, ${desc(samples.id)}`,
      outer: sql`${desc(chosenSample.timeCreated)}, ${desc(chosenSample.id)}`,
    }),
  },
  newestImage: {
    time: samples.lastBioimageSubmitted,
    text: sampleBatchText({
      inner: sql`${desc(samples.lastBioimageSubmitted)}, ${desc(samples.id)}`,
      outer: sql`${desc(chosenSample.lastBioimageSubmitted)}, ${desc(chosenSample.id)}`,
    }),
  },
};

/**
 * One batch of rows: exported so that tests and the benchmark can EXPLAIN exactly what the API runs. The batch is
 * chosen, sorted and limited on the stored columns first, and only then are the fields printed as text and the times
 * formatted, row by row as they are sent: PostgreSQL computes a select list before sorting, so a batch sorted on
 * anything but the index it was found by (a manifest's or a taxon's samples by svc_id) would otherwise print every
 * row before sending the first, and the service could not write rows while the rest arrive. The outer query asks
 * for the order the chosen rows already have, so PostgreSQL sorts nothing twice.
 */
export function sampleBatchQuery(where: SQL | undefined, order: SampleOrder, { after, limit, offset }: PageRequest<Key>): BatchQuery {
  const { time, text } = ORDERS[order];
  const position = !after
    ? undefined
    : time === null
      ? gt(samples.id, after.id)
      : after.t
        ? sql`(${time}, ${samples.id}) < (${fromUtcText(after.t)}, ${after.id})`
        : undefined;
  return batchQuery(text, and(where, position), limit, offset);
}

/**
 * A look-up's statement: the samples it names, by svc_id, each with its profile's title as the row's last value. For the
 * few samples a look-up of several values names this is one round trip where reading titles apart is two; for a long
 * list or an export the titles are read per batch (ProfileTitles), as a subquery per row would cost more than the rows.
 */
const LOOKUP_TEXT = batchText(BY_ID, [TITLE_OF_CHOSEN]);

/**
 * A look-up of at most this many svc_ids or accessions reads the profiles' titles in its statement (lookupBatchQuery),
 * one round trip; a longer list is read like any other list, its titles per batch.
 */
const LOOKUP_MAX = 100;

/** What a look-up names: svc_ids or BioSamples accessions. */
export interface Lookup {
  column: 'id' | 'biosampleAccession';
  values: string[];
}

// the statement of each kind of look-up, whole, so that Drizzle builds nothing per request (building the condition
// took longer than PostgreSQL's answer). Several values are one array parameter, so one text serves any number of
// them. PostgreSQL plans a prepared statement anew on every run while it judges the plan made without the parameters'
// values ("generic") dearer than one made with them, and with an array of unknown length it may (on one connection it
// did for 50 runs of 50); planning the look-up took twice as long as running it (78 µs against 40), on the database's
// CPU.
const lookupTexts = (column: Lookup['column']) => {
  const name = textOf(sql`${samples[column]}`);
  const id = textOf(sql`${samples.id}`);
  const tail = (n: number) => ` order by ${LOOKUP_TEXT.inner} limit $${n} offset $${n + 1}) "chosen" order by ${LOOKUP_TEXT.outer}`;
  const match = `${name} = any($1::text[])`;
  return {
    first: `${LOOKUP_TEXT.head}${match}${tail(2)}`,
    next: `${LOOKUP_TEXT.head}${match} and ${id} > $2${tail(3)}`,
  };
};
const LOOKUP_TEXTS = { id: lookupTexts('id'), biosampleAccession: lookupTexts('biosampleAccession') };

export const lookupBatchQuery = ({ column, values }: Lookup, { after, limit, offset }: PageRequest<Key>): BatchQuery => {
  const texts = LOOKUP_TEXTS[column];
  const query = after
    ? { sql: texts.next, params: [values, after.id, limit, offset] }
    : { sql: texts.first, params: [values, limit, offset] };
  return { toSQL: () => query };
};

// The commonest look-up, of one value, as plain as the statement a person would write: the sample's row and nothing
// else. Its profile's title comes from those this process has read lately (ProfileTitles): read in the statement, it
// cost PostgreSQL a second relation for one short string, a tenth of the look-up. No LIMIT or OFFSET as parameters:
// with them PostgreSQL judged its generic plan dearer and planned every run anew (a look-up's time half as long again,
// tests/query-explain.test.ts); a batch's worth is the most it reads. A look-up read whole slices its page from every
// match (lookupRows); in a stream the page's limit is taken as rows arrive (sampleBatchFetcher), and a page that starts
// further on (an offset, a next batch) reads as a list does.
const lookupOneText = (column: Lookup['column']) =>
  textOf(sql`select ${sql.join(Object.values(sampleRowColumns), sql`, `)} from ${samples} where ${samples[column]} = `) +
  `$1 order by ${LOOKUP_TEXT.inner} limit ${BATCH_SIZE}`;
const LOOKUP_ONE_TEXTS = { id: lookupOneText('id'), biosampleAccession: lookupOneText('biosampleAccession') };

/** A one-value look-up's first page from its start: the statement above; null for any other page. */
export const lookupOneQuery = ({ column, values }: Lookup, { after, offset }: PageRequest<Key>): BatchQuery | null => {
  if (values.length !== 1 || after || offset) return null;
  const query = { sql: LOOKUP_ONE_TEXTS[column], params: [values[0]] };
  return { toSQL: () => query };
};

/** The condition a look-up stands for: a long list's statements, and the count of a long result. */
export const lookupCondition = ({ column, values }: Lookup): SQL => inArray(samples[column], values);

const SAMPLE_ROW_KEYS = Object.keys(sampleRowColumns) as (keyof typeof sampleRowColumns)[];
const FIELDS_AT = SAMPLE_ROW_KEYS.indexOf('fields');
const SORT_KEY_AT = SAMPLE_ROW_KEYS.length;
const LAST_BIOIMAGE_AT = SAMPLE_ROW_KEYS.indexOf('lastBioimageSubmitted');
const TIME_CREATED_AT = SAMPLE_ROW_KEYS.indexOf('timeCreated');
const TIME_UPDATED_AT = SAMPLE_ROW_KEYS.indexOf('timeUpdated');

/**
 * A batch row as the driver gave it (forEachValueRow), in sampleRowColumns' order then the sort key if selected, as
 * the BatchRow it stands for; its profile's title is filled in once known.
 */
function toBatchRow(values: unknown[]): BatchRow {
  const row: Record<string, unknown> = {};
  for (let i = 0; i < SAMPLE_ROW_KEYS.length; i++) row[SAMPLE_ROW_KEYS[i] as string] = values[i];
  row.fields = new StoredFields(values[FIELDS_AT] as string | Uint8Array);
  const lastBioimage = values[LAST_BIOIMAGE_AT] as string | null;
  row.lastBioimageSubmitted = lastBioimage === null ? null : utcOfPrinted(lastBioimage);
  row.timeCreated = utcOfPrinted(values[TIME_CREATED_AT] as string);
  row.timeUpdated = utcOfPrinted(values[TIME_UPDATED_AT] as string);
  row.profileTitle = null;
  if (values.length > SORT_KEY_AT) row.sortKey = values[SORT_KEY_AT];
  return row as unknown as BatchRow;
}

/** What a row written as it arrived keeps of its stored fields: nothing. */
const NO_FIELDS: Readonly<Record<string, string>> = Object.freeze({});

// prepared once per connection (forEachValueRow prepares its statements)
const TITLES_QUERY = 'select id, title from profiles where id = any($1::text[])';

/**
 * The titles of the profiles a stream's rows belong to, by profile id: those this process has read lately
 * (lib/query/profile-titles.ts), and the others read as the stream meets each profile (a few hundred profiles at most for
 * a whole export) instead of joined to every row. A stream keeps the title it first gave a profile to its end.
 */
class ProfileTitles {
  private readonly known = new Map<string, string | null>();

  constructor(private readonly db: Db) {}

  get(profileId: string): string | null | undefined {
    let title = this.known.get(profileId);
    if (title === undefined) {
      title = profileTitleCache(this.db).get(profileId);
      if (title !== undefined) this.known.set(profileId, title);
    }
    return title;
  }

  async read(profileIds: readonly string[]): Promise<void> {
    const missing = [...new Set(profileIds)].filter((id) => this.get(id) === undefined);
    if (!missing.length) return;
    const cache = profileTitleCache(this.db);
    const mark = cache.mark();
    const found = new Map<string, string | null>();
    await forEachValueRow(this.db, { toSQL: () => ({ sql: TITLES_QUERY, params: [missing] }) }, ([id, title]) => {
      found.set(id as string, (title as string | null) ?? null);
    });
    // a profile that is gone has no title, as the left join gave none
    for (const id of missing) if (!found.has(id)) found.set(id, null);
    for (const [id, title] of found) this.known.set(id, title);
    cache.keep(mark, found);
  }
}

/** A row's (project, manifest version), as one key: what a batch keeps a stand-in for, and a result's shapes. */
const shapeKey = (row: Pick<SampleRow, 'project' | 'manifestVersion'>): string => `${row.project}\u0000${row.manifestVersion}`;

/**
 * A batch being read: its rows, and with a writer, the same rows written as they are added, in order (ByteChunks:
 * as bytes once past a short answer). A batch written so holds its answer, not its rows: in place of each row but
 * the last stands the first row of the batch with the same (project, manifest version), all that is read of it (the
 * summary's shapes, shapesOf), with the last row itself for the next batch's position. Keeping every row until the
 * batch was done made each young-generation collection of an export copy a thousand of them, and promote them (a
 * tenth of the export's CPU, bench/http.ts).
 */
class BatchOfRows {
  readonly rows: Batch<BatchRow> = [];
  private readonly chunks: ByteChunks | undefined;
  private last: BatchRow | null = null;
  /** per (project, version) met: the row that stands for the rows of that pair */
  private readonly standIns = new Map<string, BatchRow>();

  constructor(private readonly writer: RowWriter<SampleRow> | undefined) {
    this.chunks = writer && new ByteChunks(writer.separator);
  }

  /** Adds a row whose title is known, and writes it. */
  add(row: BatchRow, title: string | null): void {
    row.profileTitle = title;
    if (!this.chunks) {
      this.rows.push(row);
      return;
    }
    const writer = this.writer as RowWriter<SampleRow>;
    if (writer.writeInto) writer.writeInto(row, this.chunks);
    else this.chunks.write(writer.write(row));
    // what is written no longer needs the stored fields
    row.fields = NO_FIELDS;
    this.last = row;
    const shape = shapeKey(row);
    let standIn = this.standIns.get(shape);
    if (!standIn) {
      standIn = row;
      this.standIns.set(shape, row);
    }
    this.rows.push(standIn);
  }

  done(): Batch<BatchRow> {
    if (this.chunks) {
      this.rows.written = this.chunks.parts();
      if (this.last) this.rows[this.rows.length - 1] = this.last;
    }
    return this.rows;
  }
}

/**
 * A batch of rows, with their profiles' titles; when `prerender` gives a writer (asked as each batch starts), each
 * row is written as it arrives, while the database is still sending the rest. A row of a profile the stream has
 * not met yet waits for that profile's title, and the rows after it wait their turn: the titles of the profiles
 * first met in one delivery of rows (a network read on PostgreSQL, the whole batch on PGlite) are asked for
 * together, on another connection, once that delivery is handed over; the waiting rows are taken, in order, when
 * the titles arrive, usually before the batch ends.
 */
export const sampleBatchFetcher =
  <K>(
    db: Db,
    query: (req: PageRequest<K>) => BatchQuery,
    prerender: () => RowWriter<SampleRow> | undefined = () => undefined,
    titles: ProfileTitles | 'in-query' = new ProfileTitles(db),
  ) =>
  async (req: PageRequest<K>): Promise<Batch<BatchRow>> => {
    if (titles === 'in-query') return titledBatch(db, query(req), prerender());
    const batch = new BatchOfRows(prerender());
    // rows read but not taken yet, in order: from the first whose profile's title is still being read
    let waiting: BatchRow[] = [];
    const asked = new Set<string>();
    let unread: string[] = [];
    const reads: Promise<void>[] = [];
    const takeWaiting = () => {
      let taken = 0;
      for (const row of waiting) {
        const title = titles.get(row.profileId);
        if (title === undefined) break;
        batch.add(row, title);
        taken++;
      }
      waiting = taken === waiting.length ? [] : waiting.slice(taken);
    };
    const readTitles = () => {
      const ids = unread;
      unread = [];
      const read = titles.read(ids).then(takeWaiting);
      // a batch that fails, or a client that leaves, leaves this read unawaited: its failure is nobody's concern then
      read.catch(() => {});
      reads.push(read);
    };
    // a statement may give more rows than the page asks for (lookupOneQuery): the rest are not taken
    let wanted = req.limit;
    await forEachValueRow(db, query(req), (values) => {
      if (wanted-- <= 0) return;
      const row = toBatchRow(values);
      const title = titles.get(row.profileId);
      if (title !== undefined && !waiting.length) return batch.add(row, title);
      waiting.push(row);
      if (title !== undefined || asked.has(row.profileId)) return;
      asked.add(row.profileId);
      // the rows of one delivery are handed over in one go: the read starts once they all are
      if (!unread.length) queueMicrotask(readTitles);
      unread.push(row.profileId);
    });
    if (unread.length) readTitles();
    await Promise.all(reads);
    takeWaiting();
    return batch.done();
  };

/** A batch whose statement gives each row's profile title as its last value (lookupBatchQuery). */
async function titledBatch(db: Db, query: BatchQuery, writer: RowWriter<SampleRow> | undefined): Promise<Batch<BatchRow>> {
  const batch = new BatchOfRows(writer);
  await forEachValueRow(db, query, (values) => {
    const title = values.pop() as string | null;
    batch.add(toBatchRow(values), title ?? null);
  });
  return batch.done();
}

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
 * (sampleRowStream), a one-sample look-up's time above the floor fell by some 40 µs, a sixth (README, Benchmarks).
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
  let prerender: RowWriter<SampleRow> | undefined =
    opts.returnType === 'json'
      ? { write: sampleJsonWriter(opts.standard), separator: JSON_SEPARATOR, writeInto: sampleJsonInto(opts.standard) }
      : undefined;
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
  if (opts.returnType === 'csv') prerender = { write: write.csv, separator: CSV_SEPARATOR };
  return sampleRowStream(batches, summary.total, columns, opts.standard, write, whole);
}

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
  write: Pick<SampleWriters, 'json' | 'jsonInto' | 'csv'> = sampleWriters(columns, standard),
  whole: Batch<SampleRow> | null = null,
): RowStream<SampleRecord> {
  // one object of one shape, built without spreading others into it: V8 builds a spread, a computed key or a getter in
  // an object literal on a slow path, and a one-sample look-up made several of them per answer
  const { written, whole: allWritten } = writtenBatches(batches, whole, {
    json: { write: (r) => write.json(r), separator: JSON_SEPARATOR, writeInto: (r, chunks) => write.jsonInto(r, chunks) },
    csv: { write: (r) => write.csv(r), separator: CSV_SEPARATOR },
  });
  return {
    total,
    columns,
    rows: whenRead(() => mapRows(unwrittenRows(batches), (r) => renderSample(r, standard))),
    written,
    whole: allWritten,
  };
}
