import { and, asc, desc, eq, gt, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '@/db/client';
import { forEachValueRow } from '@/db/rows';
import { profiles, samples } from '@/db/schema';
import {
  type RecordShape,
  recordColumns,
  renderSample,
  type SampleRecord,
  type SampleRow,
  sampleJsonWriter,
  sampleWriters,
} from '@/lib/standards/render';
import { StoredFields } from '@/lib/standards/stored-fields';
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

const TIME: Record<Exclude<SampleOrder, 'id'>, { column: AnyPgColumn; of: (r: SampleRow) => string | null }> = {
  newest: { column: samples.timeCreated, of: (r) => r.timeCreated },
  newestImage: { column: samples.lastBioimageSubmitted, of: (r) => r.lastBioimageSubmitted },
};

/**
 * One batch of rows: exported so that tests and the benchmark can EXPLAIN exactly what the API runs. The batch is
 * chosen, sorted and limited on the stored columns first, and only then are the fields printed as text and the times
 * formatted, row by row as they are sent: PostgreSQL computes a select list before sorting, so a batch sorted on
 * anything but the index it was found by (a manifest's or a taxon's samples by svc_id) would otherwise print every
 * row before sending the first, and the service could not write rows while the rest arrive.
 */
export function sampleBatchQuery(db: Db, where: SQL | undefined, order: SampleOrder, { after, limit, offset }: PageRequest<Key>) {
  const time = order === 'id' ? null : TIME[order].column;
  const position = !after
    ? undefined
    : time === null
      ? gt(samples.id, after.id)
      : after.t
        ? sql`(${time}, ${samples.id}) < (${fromUtcText(after.t)}, ${after.id})`
        : undefined;
  const chosen = db
    .select(storedColumns)
    .from(samples)
    .leftJoin(profiles, eq(profiles.id, samples.profileId))
    .where(and(where, position))
    .orderBy(...(time === null ? [asc(samples.id)] : [desc(time), desc(samples.id)]))
    .limit(limit)
    .offset(offset)
    .as('chosen');
  // the same order again, which the chosen rows already have: PostgreSQL sorts nothing twice
  const chosenTime = order === 'id' ? null : order === 'newest' ? chosen.timeCreated : chosen.lastBioimageSubmitted;
  return db
    .select(rowColumnsOf(chosen))
    .from(chosen)
    .orderBy(...(chosenTime === null ? [asc(chosen.id)] : [desc(chosenTime), desc(chosen.id)]));
}

const SAMPLE_ROW_KEYS = Object.keys(sampleRowColumns) as (keyof typeof sampleRowColumns)[];
const FIELDS_AT = SAMPLE_ROW_KEYS.indexOf('fields');

/** A batch row as the driver gave it (valueRows), in sampleRowColumns' order, as the SampleRow it stands for. */
function toSampleRow(values: unknown[]): SampleRow {
  const row: Record<string, unknown> = {};
  for (let i = 0; i < SAMPLE_ROW_KEYS.length; i++) row[SAMPLE_ROW_KEYS[i] as string] = values[i];
  row.fields = new StoredFields(values[FIELDS_AT] as string);
  return row as unknown as SampleRow;
}

/**
 * A batch of rows; with `prerender`, each row's JSON is written as the row arrives, while the database is still
 * sending the rest (a list's answer is then ready soon after its last row).
 */
const fetchBatch =
  (db: Db, where: SQL | undefined, order: SampleOrder, prerender?: (row: SampleRow) => string) =>
  async (req: PageRequest<Key>): Promise<SampleRow[]> => {
    const rows: SampleRow[] = [];
    await forEachValueRow(db, sampleBatchQuery(db, where, order, req), (values) => {
      const row = toSampleRow(values);
      if (prerender) row.json = prerender(row);
      rows.push(row);
    });
    return rows;
  };

const keyOf =
  (order: SampleOrder) =>
  (r: SampleRow): Key => ({ id: r.id, t: order === 'id' ? null : TIME[order].of(r) });

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
  // a JSON answer's rows are written as they arrive; CSV needs the result's columns, known once every row is in
  const json = opts.returnType === 'json' ? sampleJsonWriter(opts.standard) : undefined;
  const { summary, batches } = await summarisedRows(fetchBatch(db, where, order, json), keyOf(order), opts.page, {
    of: (all) => ({ total: all.length, shapes: shapesOf(all) }),
    query: () => countShapes(db, where),
  });
  const columns = recordColumns(summary.shapes, opts.standard);
  const write = sampleWriters(columns, opts.standard);
  return {
    ...rowStream(
      summary.total,
      columns,
      mapRows(flatRows(batches), (r) => renderSample(r, opts.standard)),
    ),
    written: { json: writeBatches(batches, (r) => r.json ?? write.json(r), ','), csv: writeBatches(batches, write.csv, '') },
  };
}
