import { and, desc, ne, type SQL, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { samples, type TolProject } from '@/db/schema';
import { briefly } from '@/lib/concurrency';
import { RIGHTS_APPLICABLE } from '@/lib/samples/rights-hold';
import type { PublicDashboard } from './contract';
import { samplesByProjectAndStatus, samplesRegisteredPerMonth } from './stats';

/**
 * The public dashboard's figures: the statistics queries of lib/stats/stats.ts over the public samples only (those
 * held, whatever their state, and those registered at ENA by the month of their registration), with the most sampled
 * taxa and where samples were collected. Counting a million samples takes seconds, so the figures
 * are kept DASHBOARD_CACHE_SECONDS in memory and every visitor in that time gets the same ones.
 */

/** How long the dashboard's figures are answered again before they are counted anew (docs/features.md, the dashboard). */
export const DASHBOARD_CACHE_SECONDS = 60;
const TOP_TAXA = 10;
// one-degree squares: at most 64,800 of them, however many samples
const MAX_PLACES = 5000;

/**
 * What the public sees: not `private`, and not embargoed. The embargo is the query API's rule (isEmbargoed in
 * lib/standards/render.ts, which answers such a record as `{"status": "embargoed"}`): an ERGA sample whose
 * traditional-knowledge answer is neither empty nor N and whose rights the Local Contexts Hub has not cleared.
 */
export const publicSamples: SQL = and(
  ne(samples.status, 'private'),
  sql`not (${samples.project} = 'erga' and ${samples.rightsClearedAt} is null
      and upper(btrim(coalesce(${samples.fields} ->> ${RIGHTS_APPLICABLE}, ''))) not in ('', 'N'))`,
) as SQL;

const DECIMAL = '^-?[0-9]+(\\.[0-9]+)?$';
const coordinate = (field: string) => sql`(${samples.fields} ->> ${field})`;
const latitude = coordinate('DECIMAL_LATITUDE');
const longitude = coordinate('DECIMAL_LONGITUDE');
// only numbers on the globe: NOT_COLLECTED and the like are left out (the case keeps the casts from them)
const onTheGlobe = sql`case when ${latitude} ~ ${DECIMAL} and ${longitude} ~ ${DECIMAL}
  then ${latitude}::numeric between -90 and 90 and ${longitude}::numeric between -180 and 180 else false end`;
const noTaxon = sql`coalesce(btrim(${samples.scientificName}), '') = ''`;

async function countPublic(db: Db): Promise<Omit<PublicDashboard, 'generated' | 'cache_seconds'>> {
  const [byProjectStatus, perMonth, taxa, places, [leftOut]] = await Promise.all([
    samplesByProjectAndStatus(db, publicSamples),
    samplesRegisteredPerMonth(db, publicSamples),
    db
      .select({
        scientificName: sql<string>`coalesce(${samples.scientificName}, '')`,
        taxonId: sql<string>`coalesce(${samples.taxonId}, '')`,
        n: sql<number>`count(*)::int`,
      })
      .from(samples)
      .where(and(publicSamples, sql`not ${noTaxon}`))
      .groupBy(sql`1`, sql`2`)
      .orderBy(desc(sql`3`), sql`1`)
      .limit(TOP_TAXA),
    db
      .select({
        // a latitude of exactly 90 (or longitude 180) joins the square below it, which stays on the map
        latitude: sql<number>`least(floor(${latitude}::numeric), 89)::int`,
        longitude: sql<number>`least(floor(${longitude}::numeric), 179)::int`,
        n: sql<number>`count(*)::int`,
      })
      .from(samples)
      .where(and(publicSamples, onTheGlobe))
      .groupBy(sql`1`, sql`2`)
      .orderBy(desc(sql`3`), sql`1`, sql`2`)
      .limit(MAX_PLACES),
    // what the charts leave out, so that what they show can be reconciled with the total ("none given")
    db
      .select({
        withoutTaxon: sql<number>`count(*) filter (where ${noTaxon})::int`,
        withoutPlace: sql<number>`count(*) filter (where not ${onTheGlobe})::int`,
      })
      .from(samples)
      .where(publicSamples),
  ]);

  const projects = new Map<TolProject, { project: TolProject; total: number; by_status: Record<string, number> }>();
  for (const r of byProjectStatus) {
    const p = projects.get(r.project) ?? { project: r.project, total: 0, by_status: {} };
    projects.set(r.project, p);
    p.total += Number(r.n);
    p.by_status[r.status] = Number(r.n);
  }
  const months = new Map<string, PublicDashboard['per_month'][number]>();
  for (const r of perMonth) {
    const m = months.get(r.month) ?? { month: r.month, by_project: {}, registered: 0 };
    months.set(r.month, m);
    m.by_project[r.project] = Number(r.n);
    m.registered += Number(r.n);
  }
  const byProject = [...projects.values()].sort((a, b) => a.project.localeCompare(b.project));
  const total = byProject.reduce((sum, p) => sum + p.total, 0);
  const topTaxa = taxa.map((t) => ({ scientific_name: t.scientificName, taxon_id: t.taxonId, samples: Number(t.n) }));
  const withoutTaxon = Number(leftOut?.withoutTaxon ?? 0);
  return {
    samples: total,
    registered: [...months.values()].reduce((sum, m) => sum + m.registered, 0),
    by_project: byProject,
    per_month: [...months.values()],
    top_taxa: topTaxa,
    samples_of_other_taxa: total - withoutTaxon - topTaxa.reduce((sum, t) => sum + t.samples, 0),
    samples_without_taxon: withoutTaxon,
    samples_without_place: Number(leftOut?.withoutPlace ?? 0),
    // the square's middle
    places: places.map((p) => ({ latitude: Number(p.latitude) + 0.5, longitude: Number(p.longitude) + 0.5, samples: Number(p.n) })),
  };
}

const cached = briefly(DASHBOARD_CACHE_SECONDS * 1000, async (db: Db) => ({
  generated: new Date().toISOString(),
  cache_seconds: DASHBOARD_CACHE_SECONDS,
  ...(await countPublic(db)),
}));

/** The dashboard's figures, counted at most DASHBOARD_CACHE_SECONDS ago. */
export const publicDashboard = (db: Db): Promise<PublicDashboard> => cached(db);
