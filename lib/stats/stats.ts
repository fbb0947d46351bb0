import { and, eq, gte, isNotNull, lt, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '@/db/client';
import { manifests, profileFiles, profiles, samples, sampleUpdates, submissions, TOL_PROJECTS, type TolProject, users } from '@/db/schema';
import { Invalid } from '@/lib/errors';
import { isTolProject as isProject } from '@/lib/projects/contract';
import { PROFILE_TYPE_INFO } from '@/lib/projects/enums';
import { labelsOf, referenceData, subProjects } from '@/lib/reference/read';
import { parseDateRange } from '@/lib/values/dates';
import { humanList } from '@/lib/values/lists';
import type { StatsSummary } from './contract';
import { NONE_GIVEN } from './none-given';

const count = async (db: Db, table: PgTable, where?: SQL) => {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(table).where(where);
  return Number(row?.n ?? 0);
};

const SAMPLE_TYPES = TOL_PROJECTS.map((p) => p.toUpperCase());

export const numberOfUsers = (db: Db) => count(db, users);
export const numberOfProfiles = (db: Db) => count(db, profiles);
export const numberOfDatafiles = (db: Db) => count(db, profileFiles);

/**
 * Samples of one project, or of all, created in [d_from, d_to) when the dates are given. Dates apply without a type
 * too (the reference ignored them there, docs/api-behaviour.md §5.17). A lone `,` is the Swagger UI's empty value: no type.
 */
export function numberOfSamples(db: Db, input: { sampleType?: string; from?: string; to?: string }): Promise<number> {
  const raw = input.sampleType?.trim();
  const type = raw && raw !== ',' ? raw.toLowerCase() : undefined;
  if (type !== undefined && !isProject(type)) {
    throw Invalid(`Invalid value for 'sample_type'. Must be one of: ${humanList(SAMPLE_TYPES, 'or')}`);
  }
  const range = parseDateRange(input.from, input.to, false);
  return count(
    db,
    samples,
    and(
      type ? eq(samples.project, type as TolProject) : undefined,
      range ? gte(samples.timeCreated, range.from) : undefined,
      range ? lt(samples.timeCreated, range.to) : undefined,
    ),
  );
}

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Labels of the Tree of Life projects, sorted. */
export const tolProjects = (): string[] =>
  PROFILE_TYPE_INFO.filter((t) => t.tol)
    .map((t) => t.label)
    .sort(byCodePoint);

/** Labels of the sub-projects that are neither a project nor a sequencing centre, sorted (docs/api-behaviour.md §3.7). */
export const associatedTolProjects = async (db: Db): Promise<string[]> =>
  subProjects(await referenceData(db))
    .map((a) => a.label)
    .sort(byCodePoint);

/** Samples counted by project and status, of all samples or of those `where` selects. */
export const samplesByProjectAndStatus = (db: Db, where?: SQL) =>
  db
    .select({ project: samples.project, status: samples.status, n: sql<number>`count(*)::int` })
    .from(samples)
    .where(where)
    .groupBy(samples.project, samples.status);

/** Samples counted by the month (UTC) they were created in and by project, oldest first. */
export const samplesPerMonth = (db: Db, where?: SQL) =>
  db
    .select({
      month: sql<string>`to_char(${samples.timeCreated} at time zone 'UTC', 'YYYY-MM')`,
      project: samples.project,
      n: sql<number>`count(*)::int`,
    })
    .from(samples)
    .where(where)
    .groupBy(sql`1`, samples.project)
    .orderBy(sql`1`, samples.project);

/**
 * When a sample was registered at ENA: its first change to `accepted` in its history, or, for one that came with its
 * accession and was never sent from here, when the broker recorded it.
 */
const registeredAt = sql`coalesce(
  (select min(${sampleUpdates.timeUpdated}) from ${sampleUpdates}
   where ${sampleUpdates.sampleId} = ${samples.id} and ${sampleUpdates.field} = 'status' and ${sampleUpdates.newValue} = 'accepted'),
  ${samples.timeCreated})`;

/**
 * Samples registered at ENA (accessioned: a BioSample accession), of all or of those `where` selects, counted by the
 * month (UTC) of their registration and by project, oldest first.
 */
export const samplesRegisteredPerMonth = (db: Db, where?: SQL) =>
  db
    .select({
      month: sql<string>`to_char(${registeredAt} at time zone 'UTC', 'YYYY-MM')`,
      project: samples.project,
      n: sql<number>`count(*)::int`,
    })
    .from(samples)
    .where(and(where, isNotNull(samples.biosampleAccession)))
    .groupBy(sql`1`, samples.project)
    .orderBy(sql`1`, samples.project);

/** The months of samplesPerMonth with their projects added up. */
function monthTotals(rows: { month: string; n: number }[]): { month: string; count: number }[] {
  const byMonth = new Map<string, number>();
  for (const r of rows) byMonth.set(r.month, (byMonth.get(r.month) ?? 0) + Number(r.n));
  return [...byMonth].map(([month, count]) => ({ month, count }));
}

/**
 * Manifests counted two ways from their sets of centres: under each centre they name (a manifest naming two is in two
 * bars, one naming none in none), and each once, under the centres it names together or under none given, so that
 * those add up to the number of manifests. The same centres in another order are the same set.
 */
export function manifestsByCentres(
  rows: { centres: string[] | null; n: number }[],
  centreLabel: (name: string) => string,
): Omit<StatsSummary['manifests'], 'total'> {
  const each = new Map<string, number>();
  const sets = new Map<string, { centres: string[]; n: number }>();
  for (const r of rows) {
    const centres = [...new Set(r.centres ?? [])].sort(byCodePoint);
    const n = Number(r.n);
    for (const c of centres) each.set(c, (each.get(c) ?? 0) + n);
    const key = centres.join('\n');
    const set = sets.get(key) ?? { centres, n: 0 };
    sets.set(key, set);
    set.n += n;
  }
  // one centre before several, by name; none given last
  const rank = (centres: string[]) => (centres.length === 0 ? 2 : centres.length === 1 ? 0 : 1);
  const bySet = [...sets.values()].sort(
    (a, b) => rank(a.centres) - rank(b.centres) || byCodePoint(a.centres.join('\n'), b.centres.join('\n')),
  );
  return {
    per_sequencing_centre: [...each]
      .sort(([a], [b]) => byCodePoint(a, b))
      .map(([c, n]) => ({ sequencing_centre: c, label: centreLabel(c), manifests: n })),
    by_sequencing_centres: bySet.map((s) => ({
      sequencing_centres: s.centres,
      label: s.centres.length ? s.centres.map(centreLabel).join(' and ') : NONE_GIVEN,
      manifests: s.n,
    })),
  };
}

/** Everything the admin dashboard charts, in one round of aggregate queries; the route adds the services. */
export async function statsSummary(db: Db): Promise<Omit<StatsSummary, 'services'>> {
  const [userCount, profileCount, datafileCount, byProjectStatus, perMonth, manifestTotal, perCentre, bySubmission] = await Promise.all([
    numberOfUsers(db),
    numberOfProfiles(db),
    numberOfDatafiles(db),
    samplesByProjectAndStatus(db),
    samplesPerMonth(db),
    count(db, manifests),
    db.select({ centres: manifests.sequencingCentres, n: sql<number>`count(*)::int` }).from(manifests).groupBy(manifests.sequencingCentres),
    db.select({ status: submissions.status, n: sql<number>`count(*)::int` }).from(submissions).groupBy(submissions.status),
  ]);
  const byProject: StatsSummary['samples']['by_project'] = {};
  let total = 0;
  for (const r of byProjectStatus) {
    const p = byProject[r.project] ?? { total: 0, by_status: {} };
    byProject[r.project] = p;
    p.total += Number(r.n);
    p.by_status[r.status] = Number(r.n);
    total += Number(r.n);
  }
  const submissionStatus = Object.fromEntries(bySubmission.map((r) => [r.status, Number(r.n)]));
  return {
    users: userCount,
    profiles: profileCount,
    datafiles: datafileCount,
    samples: { total, by_project: byProject, per_month: monthTotals(perMonth) },
    manifests: { total: manifestTotal, ...manifestsByCentres(perCentre, labelsOf((await referenceData(db)).sequencingCentres)) },
    submissions: { total: Object.values(submissionStatus).reduce((a, b) => a + b, 0), by_status: submissionStatus },
  };
}
