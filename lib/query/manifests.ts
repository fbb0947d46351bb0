import { and, arrayContains, asc, eq, gt, gte, inArray, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { preparedOnce } from '@/db/prepared';
import { manifests, profiles, samples } from '@/db/schema';
import { Invalid } from '@/lib/errors';
import { CURRENT_VERSIONS } from '@/lib/manifests';
import { isEmbargoed, renderSample, type SampleRecord } from '@/lib/standards/render';
import { buildRoCrate } from '@/lib/standards/rocrate';
import { formatUtc, parseDateRange } from '@/lib/values/dates';
import type { CurrentVersions, RoCrate, SampleStatusItem } from './contract';
import { humanList, type Page, parseManifestId, parseProjects, type Raw, single } from './params';
import { countShapes, sampleRows, sampleStream } from './sample-rows';
import { parseSequencingCentre, type SampleQuery } from './samples';
import { fromUtcText, utcText } from './sql';
import { flatRows, keysetRows, mapRows, type PageRequest, type RowStream, rowStream, summarisedRows } from './stream';

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
export function manifestIdsOfCentre(db: Db, input: { centre: Raw; page: Page }): Promise<RowStream<string>> {
  const centre = parseSequencingCentre(input.centre);
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

const statusColumns = {
  svc_id: samples.id,
  manifest_id: samples.manifestId,
  status: samples.status,
  time_created: utcText(samples.timeCreated),
  time_updated: utcText(samples.timeUpdated),
};
// a manifest's first batch, and the batches after a key: each built by Drizzle once per database (db/prepared.ts)
const firstStatusBatch = preparedOnce((db) =>
  db
    .select(statusColumns)
    .from(samples)
    .where(eq(samples.manifestId, sql.placeholder('manifestId')))
    .orderBy(asc(samples.id))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare('manifest_sample_status'),
);
const nextStatusBatch = preparedOnce((db) =>
  db
    .select(statusColumns)
    .from(samples)
    .where(and(eq(samples.manifestId, sql.placeholder('manifestId')), gt(samples.id, sql.placeholder('after'))))
    .orderBy(asc(samples.id))
    .limit(sql.placeholder('limit'))
    .prepare('manifest_sample_status_after'),
);

/**
 * GET manifest/{manifest_id}/sample_status: the minimal status of each sample (docs/api-behaviour.md §3.4.7). Only the five columns it
 * shows are read (no record, no profile join), and a manifest of fewer samples than a batch is one query.
 */
export async function manifestSampleStatus(db: Db, input: { manifestId: string; page: Page }): Promise<RowStream<SampleStatusItem>> {
  const manifestId = parseManifestId(input.manifestId);
  const { summary, batches } = await summarisedRows(
    ({ after, limit, offset }: PageRequest<string>) =>
      after === null
        ? firstStatusBatch(db).execute({ manifestId, limit, offset })
        : nextStatusBatch(db).execute({ manifestId, after, limit }),
    (r) => r.svc_id,
    input.page,
    { of: (all) => all.length, query: async () => (await countShapes(db, eq(samples.manifestId, manifestId))).total },
  );
  const items = mapRows(flatRows(batches), (r) => ({
    ...r,
    time_created: formatUtc(r.time_created),
    time_updated: formatUtc(r.time_updated),
  }));
  return rowStream(summary, ['svc_id', 'manifest_id', 'status', 'time_created', 'time_updated'], items);
}

/**
 * GET manifest/{manifest_id}?return_type=rocrate. A manifest's samples are bounded (one upload), so the crate is
 * built in memory. Embargoed samples are left out of it; a manifest without samples is the reference's 400.
 */
export async function manifestRoCrate(db: Db, input: { manifestId: string; baseUrl: string }): Promise<RoCrate> {
  const manifestId = parseManifestId(input.manifestId);
  const where = eq(samples.manifestId, manifestId);
  const records: SampleRecord[] = [];
  for await (const row of sampleRows(db, where, 'id', { offset: 0 })) {
    if (!isEmbargoed(row)) records.push(renderSample(row, 'tol'));
  }
  if (!records.length) throw Invalid("Only one 'manifest_id' can be processed at a time.");
  const [owner] = await db
    .select({ title: profiles.title, description: profiles.description })
    .from(manifests)
    .innerJoin(profiles, eq(profiles.id, manifests.profileId))
    .where(eq(manifests.id, manifestId));
  return buildRoCrate({
    manifestId,
    title: owner?.title ?? '',
    description: owner?.description ?? '',
    baseUrl: input.baseUrl,
    records,
  });
}
