import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifests, samples } from '@/db/schema';
import { typedColumns } from '@/lib/samples/columns';
import type { PublicDashboard, StatsSummary } from '@/lib/stats/contract';
import { NONE_GIVEN } from '@/lib/stats/none-given';
import { type QuerySeed, seedQueryData } from './query-seed';
import { createHarness, type Harness } from './support/harness';

/**
 * The statistics reconcile (issue 26): every count by category, on the admin summary (GET stats/summary) and on the
 * public dashboard (GET stats/dashboard), adds up to its total, with the things whose field is empty counted as
 * "none given", and a manifest naming two centres counted once where the counts are meant to add up.
 */

let h: Harness;
let seed: QuerySeed;
let summary: StatsSummary;
let dashboard: PublicDashboard;

const EXTRA_MANIFESTS = {
  twoCentres: '5f607182-0000-4000-8000-000000000005',
  sameTwoOtherOrder: '60718293-0000-4000-8000-000000000006',
};
const EXTRA_TAXA = 12;
const hex = (n: number) => `dd${n.toString(16).padStart(22, '0')}`;
const sum = (ns: number[]) => ns.reduce((a, b) => a + b, 0);

beforeAll(async () => {
  h = await createHarness();
  const db = h.deps.db;
  seed = await seedQueryData(db);
  const [base] = await db.select().from(manifests).where(eq(manifests.id, seed.manifests.erga));
  if (!base) throw new Error('no ERGA manifest in the seed');
  await db.insert(manifests).values([
    { ...base, id: EXTRA_MANIFESTS.twoCentres, sequencingCentres: ['SANGER', 'CNAG'] },
    { ...base, id: EXTRA_MANIFESTS.sameTwoOtherOrder, sequencingCentres: ['CNAG', 'SANGER', 'CNAG'] },
  ]);

  // public samples with empty fields: no scientific name, no coordinates (empty, NOT_COLLECTED), and more taxa than
  // the dashboard names, so that some are "other taxa"
  const [model] = await db.select().from(samples).where(eq(samples.id, seed.samples[0]!.id));
  if (!model) throw new Error('no sample in the seed');
  const extra = (n: number, changes: Record<string, string>) => {
    const fields = { ...model.fields, TUBE_OR_WELL_ID: `FD8${String(n).padStart(7, '0')}`, ...changes };
    return {
      ...model,
      id: hex(n),
      fields,
      ...typedColumns(fields),
      status: 'pending' as const,
      biosampleAccession: null,
      sraAccession: null,
    };
  };
  await db
    .insert(samples)
    .values([
      extra(1, { SCIENTIFIC_NAME: '' }),
      extra(2, { DECIMAL_LATITUDE: 'NOT_COLLECTED', DECIMAL_LONGITUDE: 'NOT_COLLECTED' }),
      extra(3, { DECIMAL_LATITUDE: '', DECIMAL_LONGITUDE: '', SCIENTIFIC_NAME: '' }),
      ...Array.from({ length: EXTRA_TAXA }, (_, i) => extra(10 + i, { SCIENTIFIC_NAME: `Extraspecies number${i}` })),
    ]);

  const s = await h.request('/api/stats/summary');
  expect(s.status).toBe(200);
  summary = (await s.json()) as StatsSummary;
  const d = await h.request('/api/stats/dashboard');
  expect(d.status).toBe(200);
  dashboard = (await d.json()) as PublicDashboard;
}, 120_000);
afterAll(() => h?.close());

describe('the admin summary', () => {
  it('counts each manifest once by its set of centres, none given included, adding up to the manifests', () => {
    const m = summary.manifests;
    expect(m.total).toBe(7);
    expect(sum(m.by_sequencing_centres.map((c) => c.manifests))).toBe(m.total);
    // the seed's three manifests naming no centre, last
    expect(m.by_sequencing_centres.at(-1)).toEqual({ sequencing_centres: [], label: NONE_GIVEN, manifests: 3 });
    // the same two centres in another order (and named twice) are one set
    expect(m.by_sequencing_centres).toContainEqual({
      sequencing_centres: ['CNAG', 'SANGER'],
      label: 'CENTRO NACIONAL DE ANÁLISIS GENÓMICO and SANGER INSTITUTE',
      manifests: 2,
    });
    expect(m.by_sequencing_centres.map((c) => c.sequencing_centres)).toEqual([['CNAG'], ['SANGER'], ['CNAG', 'SANGER'], []]);
  });

  it('still says how many manifests name each centre, which counts a two-centre manifest under both', () => {
    const each = Object.fromEntries(summary.manifests.per_sequencing_centre.map((c) => [c.sequencing_centre, c.manifests]));
    expect(each).toEqual({ CNAG: 3, SANGER: 3 });
    expect(sum(Object.values(each))).toBeGreaterThan(summary.manifests.total - 3);
  });

  it('counts samples by project, by status and by month, each adding up to the samples', () => {
    const s = summary.samples;
    expect(s.total).toBe(seed.samples.length + 3 + EXTRA_TAXA);
    const projects = Object.values(s.by_project);
    expect(sum(projects.map((p) => p.total))).toBe(s.total);
    expect(sum(projects.flatMap((p) => Object.values(p.by_status)))).toBe(s.total);
    for (const p of projects) expect(sum(Object.values(p.by_status))).toBe(p.total);
    expect(sum(s.per_month.map((m) => m.count))).toBe(s.total);
  });

  it('counts submissions by state, adding up to the submissions', () => {
    expect(summary.submissions.total).toBeGreaterThan(0);
    expect(sum(Object.values(summary.submissions.by_status))).toBe(summary.submissions.total);
  });
});

describe('the public dashboard', () => {
  it('counts public samples by project and status, and the registered ones by month, each adding up', () => {
    // the seed's private sample is not public
    expect(dashboard.samples).toBe(seed.samples.length - 1 + 3 + EXTRA_TAXA);
    expect(sum(dashboard.by_project.map((p) => p.total))).toBe(dashboard.samples);
    expect(sum(dashboard.by_project.flatMap((p) => Object.values(p.by_status)))).toBe(dashboard.samples);
    // by month: the registered ones only, by the month of their registration
    expect(sum(dashboard.per_month.map((m) => m.registered))).toBe(dashboard.registered);
    expect(dashboard.registered).toBeLessThan(dashboard.samples);
    for (const m of dashboard.per_month) expect(sum(Object.values(m.by_project))).toBe(m.registered);
  });

  it('says how many samples are of taxa not named and name none, so the top taxa add up to the public samples', () => {
    expect(dashboard.top_taxa).toHaveLength(10);
    expect(dashboard.top_taxa.every((t) => t.scientific_name !== '')).toBe(true);
    expect(dashboard.samples_without_taxon).toBe(2);
    expect(dashboard.samples_of_other_taxa).toBeGreaterThan(0);
    expect(sum(dashboard.top_taxa.map((t) => t.samples)) + dashboard.samples_of_other_taxa + dashboard.samples_without_taxon).toBe(
      dashboard.samples,
    );
  });

  it('says how many samples give no place, so the squares add up to the public samples', () => {
    expect(dashboard.samples_without_place).toBe(2);
    expect(sum(dashboard.places.map((p) => p.samples)) + dashboard.samples_without_place).toBe(dashboard.samples);
  });
});
