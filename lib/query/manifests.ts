import { and, arrayContains, eq, gte, inArray, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { forEachValueRow } from '@/db/rows';
import { manifests, profiles, samples } from '@/db/schema';
import { Invalid } from '@/lib/errors';
import { CURRENT_VERSIONS } from '@/lib/manifests';
import { referenceData } from '@/lib/reference/read';
import { isEmbargoed, jsonString, renderSample, type SampleRecord } from '@/lib/standards/render';
import { buildRoCrate, type CrateSequenceData } from '@/lib/standards/rocrate';
import { csvCell } from '@/lib/values/csv';
import { parseDateRange } from '@/lib/values/dates';
import type { CurrentVersions, RoCrate, SampleStatusItem } from './contract';
import { humanList, type Page, parseManifestId, parseProjects, type Raw, single } from './params';
import { countShapes, sampleRows, sampleStream } from './sample-rows';
import { parseSequencingCentre, type SampleQuery } from './samples';
import { formatPrinted, fromUtcText, printedUtc, textOf, utcText } from './sql';
import { keysetRows, mapRows, type PageRequest, type RowStream, rowStream, summarisedRows, writtenRowStream } from './stream';

// A manifest is listed once it holds a sample (the reference listed the manifest ids found on samples).
const hasSamples = sql`exists (select 1 from ${samples} where ${samples.manifestId} = ${manifests.id})`;

/** Manifest ids matching `where`, newest manifest first (docs/api-behaviour.md §3.4.1 Sensible), streamed. */
async function manifestIdStream(db: Db, where: SQL | undefined, page: Page): Promise<RowStream<string>> {
  const condition = and(hasSamples, where);
  const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(manifests).where(condition);
  type Row = { id: string; t: string };
  const rows = keysetRows<Row, Row>(
    ({ after, limit, offset }) =>
      db
        .select({ id: manifests.id, t: utcText(manifests.createdAt) })
        .from(manifests)
        .where(and(condition, after ? sql`(${manifests.createdAt}, ${manifests.id}) < (${fromUtcText(after.t)}, ${after.id})` : undefined))
        .orderBy(sql`${manifests.createdAt} desc`, sql`${manifests.id} desc`)
        .limit(limit)
        .offset(offset),
    (r) => r,
    page,
  );
  return rowStream(
    Number(count?.n ?? 0),
    ['manifest_id'],
    mapRows(rows, (r) => r.id),
  );
}

/** GET manifest */
export const allManifestIds = (db: Db, input: { page: Page }) => manifestIdStream(db, undefined, input.page);

/** GET manifest/sequencing_centre: manifests of profiles that chose the centre, or holding samples of its GAL. */
export async function manifestIdsOfCentre(db: Db, input: { centre: Raw; page: Page }): Promise<RowStream<string>> {
  const centre = parseSequencingCentre(input.centre, (await referenceData(db)).sequencingCentres);
  const byGal = sql`${manifests.id} in (select ${samples.manifestId} from ${samples} where upper(${samples.fields}->>'GAL') = upper(${centre.label}))`;
  return manifestIdStream(db, or(arrayContains(manifests.sequencingCentres, [centre.name]), byGal), input.page);
}

/** GET manifest/{from}/{to} and manifest/{project}/{from}/{to}: manifests recorded in [from, to). */
export function manifestIdsBetween(db: Db, input: { from: string; to: string; projects?: Raw; page: Page }): Promise<RowStream<string>> {
  const projects = input.projects === undefined ? [] : parseProjects(input.projects, 'project', { required: true });
  const range = parseDateRange(input.from, input.to, true);
  const where = and(
    gte(manifests.createdAt, range.from),
    lt(manifests.createdAt, range.to),
    projects.length ? inArray(manifests.project, projects) : undefined,
  );
  return manifestIdStream(db, where, input.page);
}

const MANIFEST_TYPES = Object.keys(CURRENT_VERSIONS).map((p) => p.toUpperCase());

/** GET manifest/current_version: `[{"ASG": "2.5", …}]`, or the one type asked for. */
export function currentVersions(input: { manifestType: Raw }): CurrentVersions {
  const type = single(input.manifestType)?.toUpperCase();
  if (type !== undefined && !MANIFEST_TYPES.includes(type)) {
    throw Invalid(`Invalid value for 'manifest_type'. Must be one of: ${humanList(MANIFEST_TYPES, 'or')}`);
  }
  return Object.fromEntries(
    Object.entries(CURRENT_VERSIONS)
      .map(([p, v]) => [p.toUpperCase(), v] as const)
      .filter(([p]) => type === undefined || p === type),
  );
}

export const manifestCondition = (manifestId: string): SQL => eq(samples.manifestId, parseManifestId(manifestId));

/** GET manifest/{manifest_id}: the manifest's samples, every exported field. */
export function manifestSamples(db: Db, input: SampleQuery & { manifestId: string }): Promise<RowStream<SampleRecord>> {
  return sampleStream(db, manifestCondition(input.manifestId), input);
}

const STATUS_COLUMNS = ['svc_id', 'manifest_id', 'status', 'time_created', 'time_updated'] as const;
type StatusRow = [svcId: string, manifestId: string, status: string, timeCreated: string, timeUpdated: string];

// a manifest's first batch, and the batches after a key: whole texts, built once (no Drizzle per request), their rows
// read as arrays (db/rows.ts, forEachValueRow) and written straight to JSON or CSV
const statusText = (() => {
  const head = sql`select ${samples.id}, ${samples.manifestId}, ${samples.status}, ${printedUtc(samples.timeCreated)}, ${printedUtc(samples.timeUpdated)} from ${samples} where ${samples.manifestId} = `;
  return {
    first: textOf(sql`${head}$1 order by ${samples.id} limit $2 offset $3`),
    next: textOf(sql`${head}$1 and ${samples.id} > $2 order by ${samples.id} limit $3`),
  };
})();

const statusBatch =
  (db: Db, manifestId: string) =>
  async ({ after, limit, offset }: PageRequest<string>): Promise<StatusRow[]> => {
    const query =
      after === null
        ? { sql: statusText.first, params: [manifestId, limit, offset] }
        : { sql: statusText.next, params: [manifestId, after, limit] };
    const rows: StatusRow[] = [];
    await forEachValueRow(db, { toSQL: () => query }, (values) => {
      const row = values as StatusRow;
      row[3] = formatPrinted(row[3]);
      row[4] = formatPrinted(row[4]);
      rows.push(row);
    });
    return rows;
  };

const statusItem = (r: StatusRow): SampleStatusItem => ({
  svc_id: r[0],
  manifest_id: r[1],
  status: r[2] as SampleStatusItem['status'],
  time_created: r[3],
  time_updated: r[4],
});
// Only the status is a text the database takes as it comes: quoted by jsonString (JSON.stringify's text without its
// serialiser when it needs no escape) and csvCell. The others need no escape in either by their form: a svc_id is
// hex (the samples_id_shape check), a manifest id a uuid column, and the times are made by formatPrinted; written as
// they are, four of each row's five values are not tested (2,000 in a 500-sample manifest).
const statusJson = (r: StatusRow): string =>
  `{"svc_id":"${r[0]}","manifest_id":"${r[1]}","status":${jsonString(r[2])},"time_created":"${r[3]}","time_updated":"${r[4]}"}`;
const statusCsv = (r: StatusRow): string => `${r[0]},${r[1]},${csvCell(r[2])},${r[3]},${r[4]}\n`;

/**
 * GET manifest/{manifest_id}/sample_status: the minimal status of each sample (docs/api-behaviour.md §3.4.7). Only the five columns it
 * shows are read (no record, no profile join), and a manifest of fewer samples than a batch is one query.
 */
export async function manifestSampleStatus(db: Db, input: { manifestId: string; page: Page }): Promise<RowStream<SampleStatusItem>> {
  const manifestId = parseManifestId(input.manifestId);
  const { summary, batches, whole } = await summarisedRows(statusBatch(db, manifestId), (r) => r[0], input.page, {
    of: (all) => all.length,
    query: async () => (await countShapes(db, eq(samples.manifestId, manifestId))).total,
  });
  return writtenRowStream(summary, STATUS_COLUMNS, { batches, whole }, { json: statusJson, csv: statusCsv }, statusItem);
}

/**
 * GET manifest/{manifest_id}?return_type=rocrate. A manifest's samples are bounded (one upload), so the crate is
 * built in memory. Embargoed samples are left out of it; a manifest without samples is the reference's 400.
 */
export async function manifestRoCrate(
  db: Db,
  input: {
    manifestId: string;
    baseUrl: string;
    /** what was made from the samples at ENA, by BioSample accession, within the manifest's profile */
    sequenceDataOf?: (biosamples: string[], profileId: string) => Promise<ReadonlyMap<string, readonly CrateSequenceData[]>>;
  },
): Promise<RoCrate> {
  const manifestId = parseManifestId(input.manifestId);
  const where = eq(samples.manifestId, manifestId);
  const records: SampleRecord[] = [];
  for await (const row of sampleRows(db, where, 'id', { offset: 0 })) {
    if (!isEmbargoed(row)) records.push(renderSample(row, 'tol'));
  }
  if (!records.length) throw Invalid("Only one 'manifest_id' can be processed at a time.");
  const [owner] = await db
    .select({ title: profiles.title, description: profiles.description, profileId: profiles.id })
    .from(manifests)
    .innerJoin(profiles, eq(profiles.id, manifests.profileId))
    .where(eq(manifests.id, manifestId));
  return buildRoCrate({
    manifestId,
    title: owner?.title ?? '',
    description: owner?.description ?? '',
    baseUrl: input.baseUrl,
    records,
    ...(input.sequenceDataOf &&
      owner && {
        sequenceData: await input.sequenceDataOf(
          records.flatMap((r) => r.biosampleAccession || []),
          owner.profileId,
        ),
      }),
  });
}
