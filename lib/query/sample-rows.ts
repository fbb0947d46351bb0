import { and, asc, desc, eq, gt, type SQL, sql } from 'drizzle-orm';
import { type AnyPgColumn, alias, PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from '@/db/client';
import { forEachValueRow } from '@/db/rows';
import { profiles, samples } from '@/db/schema';
import { renderSample, type SampleRecord, type SampleRow } from '@/lib/standards/render';
import { StoredFields } from '@/lib/standards/stored-fields';
import { type RecordShape, recordColumns, sampleJsonWriter, sampleWriters } from '@/lib/standards/writers';
import type { Page, ReturnType, Standard } from './params';
import { fromUtcText, utcText } from './sql';
import { flatRows, keysetRows, mapRows, type PageRequest, type RowStream, rowStream, summarisedRows, writeBatches } from './stream';

/** The accession and relation columns, under the names the API's records and field search give them. */
export const accessionColumns = {
  biosampleAccession: samples.biosampleAccession,
  sraAccession: samples.sraAccession,
  submissionAccession: samples.submissionAccession,
  sampleDerivedFrom: samples.sampleDerivedFrom,
  sampleSameAs: samples.sampleSameAs,
  sampleSymbiontOf: samples.sampleSymbiontOf,
};

/** The stored columns rendering reads, unconverted, with the profile's title. */
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
  profileTitle: profiles.title,
};

/** The stored columns of `s` (the tables, or a subquery selecting storedColumns) as rendering reads them. */
const rowColumnsOf = (s: { [K in keyof typeof storedColumns]: AnyPgColumn }) => ({
  id: s.id,
  manifestId: s.manifestId,
  project: s.project,
  manifestVersion: s.manifestVersion,
  status: s.status,
  // as text, which the driver leaves alone: the writers copy each value out of it (lib/standards/stored-fields.ts)
  fields: sql<string>`${s.fields}::text`.mapWith((text: string) => new StoredFields(text)),
  publicName: s.publicName,
  biosampleAccession: s.biosampleAccession,
  sraAccession: s.sraAccession,
  submissionAccession: s.submissionAccession,
  sampleDerivedFrom: s.sampleDerivedFrom,
  sampleSameAs: s.sampleSameAs,
  sampleSymbiontOf: s.sampleSymbiontOf,
  associatedTolProjects: s.associatedTolProjects,
  lastBioimageSubmitted: sql<string | null>`${utcText(s.lastBioimageSubmitted)}`,
  timeCreated: utcText(s.timeCreated),
  timeUpdated: utcText(s.timeUpdated),
  // one boolean, not the time: all an embargo needs to know (lib/standards/render.ts)
  rightsCleared: sql<boolean>`${s.rightsClearedAt} is not null`,
  profileTitle: s.profileTitle,
});

/** The columns every sample query selects: what rendering needs, and nothing that must not leave the service. */
export const sampleRowColumns = rowColumnsOf(storedColumns);

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

const dialect = new PgDialect();
/** `q` as SQL text; only for parts without parameters, which are rendered once. */
const textOf = (q: SQL): string => {
  const { sql: text, params } = dialect.sqlToQuery(q);
  if (params.length) throw new Error('a constant part of a query has parameters');
  return text;
};

// the batch's chosen rows, as the outer query names them: a subquery "chosen" selecting storedColumns
const chosenSample = alias(samples, 'chosen');
const chosenProfile = alias(profiles, 'chosen');
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
  profileTitle: chosenProfile.title,
};

/**
 * What a batch query says whatever it asks for, rendered once: Drizzle took longer to build the whole statement on
 * every call (~0.3 ms) than PostgreSQL took to answer a one-sample look-up.
 */
const SELECT_CHOSEN = textOf(
  sql`select ${sql.join(Object.values(rowColumnsOf(chosenColumns)), sql`, `)} from (select ${sql.join(
    Object.values(storedColumns),
    sql`, `,
  )} from ${samples} left join ${profiles} on ${eq(profiles.id, samples.profileId)} where `,
);
const ORDERS: Record<SampleOrder, { time: AnyPgColumn | null; inner: string; outer: string }> = {
  id: { time: null, inner: textOf(asc(samples.id)), outer: textOf(asc(chosenSample.id)) },
  newest: {
    time: samples.timeCreated,
    inner: textOf(sql`${desc(samples.timeCreated)}, ${desc(samples.id)}`),
    outer: textOf(sql`${desc(chosenSample.timeCreated)}, ${desc(chosenSample.id)}`),
  },
  newestImage: {
    time: samples.lastBioimageSubmitted,
    inner: textOf(sql`${desc(samples.lastBioimageSubmitted)}, ${desc(samples.id)}`),
    outer: textOf(sql`${desc(chosenSample.lastBioimageSubmitted)}, ${desc(chosenSample.id)}`),
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
export function sampleBatchQuery(
  where: SQL | undefined,
  order: SampleOrder,
  { after, limit, offset }: PageRequest<Key>,
): { toSQL(): { sql: string; params: unknown[] } } {
  const { time, inner, outer } = ORDERS[order];
  const position = !after
    ? undefined
    : time === null
      ? gt(samples.id, after.id)
      : after.t
        ? sql`(${time}, ${samples.id}) < (${fromUtcText(after.t)}, ${after.id})`
        : undefined;
  const query = sql`${sql.raw(SELECT_CHOSEN)}${and(where, position) ?? sql`true`} order by ${sql.raw(inner)} limit ${limit} offset ${offset}) "chosen" order by ${sql.raw(outer)}`;
  return { toSQL: () => dialect.sqlToQuery(query) };
}

const SAMPLE_ROW_KEYS = Object.keys(sampleRowColumns) as (keyof typeof sampleRowColumns)[];
const FIELDS_AT = SAMPLE_ROW_KEYS.indexOf('fields');

/** A batch row as the driver gave it (forEachValueRow), in sampleRowColumns' order, as the SampleRow it stands for. */
function toSampleRow(values: unknown[]): SampleRow {
  const row: Record<string, unknown> = {};
  for (let i = 0; i < SAMPLE_ROW_KEYS.length; i++) row[SAMPLE_ROW_KEYS[i] as string] = values[i];
  row.fields = new StoredFields(values[FIELDS_AT] as string);
  return row as unknown as SampleRow;
}

/** What a row written as it arrived keeps of its stored fields: nothing. */
const NO_FIELDS: Readonly<Record<string, string>> = Object.freeze({});

/**
 * A batch of rows; when `prerender` gives a writer (asked as each batch starts), each row is written as it arrives,
 * while the database is still sending the rest, and the batch is ready to send soon after its last row.
 */
const fetchBatch =
  (db: Db, where: SQL | undefined, order: SampleOrder, prerender: () => ((row: SampleRow) => string) | undefined = () => undefined) =>
  async (req: PageRequest<Key>): Promise<SampleRow[]> => {
    const rows: SampleRow[] = [];
    const write = prerender();
    await forEachValueRow(db, sampleBatchQuery(where, order, req), (values) => {
      const row = toSampleRow(values);
      if (write) {
        row.written = write(row);
        // what is sent is written: the stored fields are let go, so a batch waiting its turn holds only its answer
        row.fields = NO_FIELDS;
      }
      rows.push(row);
    });
    return rows;
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
  return keysetRows(fetchBatch(db, where, order), keyOf(order), page);
}

/** The (project, version) pairs of rows read, in the order the count query gives them. */
export function shapesOf(rows: readonly SampleRow[]): RecordShape[] {
  const seen = new Map<string, RecordShape>();
  for (const r of rows) seen.set(`${r.project}\u0000${r.manifestVersion}`, { project: r.project, version: r.manifestVersion });
  return [...seen.values()].sort((a, b) =>
    a.project === b.project ? (a.version < b.version ? -1 : a.version > b.version ? 1 : 0) : a.project < b.project ? -1 : 1,
  );
}

/**
 * The samples matching `where`, rendered in `standard`, streamed. A look-up of one sample, or of a list shorter than
 * a batch, is one query: its count and CSV columns come from the rows themselves.
 */
export async function sampleStream(
  db: Db,
  where: SQL | undefined,
  opts: { standard: Standard; page: Page; order?: SampleOrder; returnType?: ReturnType },
): Promise<RowStream<SampleRecord>> {
  const order = opts.order ?? 'id';
  // a JSON answer's rows are written as they arrive; CSV lines need the result's columns first
  let prerender = opts.returnType === 'json' ? sampleJsonWriter(opts.standard) : undefined;
  const { summary, batches } = await summarisedRows(
    fetchBatch(db, where, order, () => prerender),
    keyOf(order),
    opts.page,
    {
      of: (all) => ({ total: all.length, shapes: shapesOf(all) }),
      query: () => countShapes(db, where),
    },
  );
  const columns = recordColumns(summary.shapes, opts.standard);
  const write = sampleWriters(columns, opts.standard);
  // the columns are known now: the batches still to come are written as they arrive, in CSV too
  if (opts.returnType === 'csv') prerender = write.csv;
  return {
    ...rowStream(
      summary.total,
      columns,
      mapRows(flatRows(batches), (r) => renderSample(r, opts.standard)),
    ),
    written: {
      json: writeBatches(batches, (r) => r.written ?? write.json(r), ','),
      csv: writeBatches(batches, (r) => r.written ?? write.csv(r), ''),
    },
  };
}
