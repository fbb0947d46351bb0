import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { samples, sampleUpdates } from '@/db/schema';
import { briefly } from '@/lib/concurrency';
import { RIGHTS_APPLICABLE } from '@/lib/samples/rights-hold';
import type { PublicDashboard } from '@/lib/stats/contract';
import { type QuerySeed, seedQueryData } from './query-seed';
import { createHarness, type Harness } from './support/harness';

/**
 * The public dashboard's figures (GET stats/dashboard, the page /dashboard): public samples only, by the query API's
 * own rule for what is embargoed, counted once a minute at most.
 */

let h: Harness;
let seed: QuerySeed;
let first: PublicDashboard;
const ids = {
  heldAccepted: 'cc0000000000000000000001',
  cleared: 'cc0000000000000000000002',
  registered: 'cc0000000000000000000003',
  rejected: 'cc0000000000000000000004',
};
/** the DTOL sample the registered and rejected ones are copies of */
let dtolBase: string;

beforeAll(async () => {
  h = await createHarness();
  seed = await seedQueryData(h.deps.db);
  // beside the seed's private sample: one under rights not cleared that is not `private` (the query API embargoes it
  // all the same), and one whose rights the Local Contexts Hub cleared (public)
  const [held] = await h.deps.db.select().from(samples).where(eq(samples.id, seed.embargoed));
  if (!held) throw new Error('no embargoed sample in the seed');
  const copy = (id: string, tube: string) => ({
    ...held,
    id,
    fields: { ...held.fields, TUBE_OR_WELL_ID: tube },
    tubeOrWellId: tube,
  });
  await h.deps.db.insert(samples).values([
    { ...copy(ids.heldAccepted, 'FD90000001'), status: 'accepted' },
    { ...copy(ids.cleared, 'FD90000002'), status: 'pending', rightsClearedAt: new Date() },
  ]);
  // beside them: a DTOL sample recorded in November 2025 and registered at ENA in February 2026 (its history says
  // when), and one a manager rejected, which the broker holds but ENA never had
  dtolBase = seed.samples.find((s) => s.project === 'dtol' && s.status === 'accepted')?.id ?? '';
  const [base] = await h.deps.db.select().from(samples).where(eq(samples.id, dtolBase));
  if (!base) throw new Error('no accepted DTOL sample in the seed');
  const dtolCopy = (id: string, tube: string) => ({ ...base, id, fields: { ...base.fields, TUBE_OR_WELL_ID: tube }, tubeOrWellId: tube });
  await h.deps.db.insert(samples).values([
    {
      ...dtolCopy(ids.registered, 'FD90000003'),
      status: 'accepted',
      biosampleAccession: 'SAMEA99000003',
      timeCreated: new Date('2025-11-20T10:00:00Z'),
    },
    { ...dtolCopy(ids.rejected, 'FD90000004'), status: 'rejected', biosampleAccession: null, sraAccession: null, publicName: null },
  ]);
  await h.deps.db.insert(sampleUpdates).values({
    sampleId: ids.registered,
    manifestId: base.manifestId,
    project: 'dtol',
    updateType: 'system',
    field: 'status',
    oldValue: 'sending',
    newValue: 'accepted',
    timeUpdated: new Date('2026-02-10T08:00:00Z'),
  });
  const res = await h.request('/api/stats/dashboard');
  expect(res.status).toBe(200);
  first = (await res.json()) as PublicDashboard;
}, 120_000);
afterAll(() => h?.close());

/** Every record the query API answers for the seeded manifests, embargoed ones as `{"status": "embargoed"}`. */
async function queryRecords(): Promise<{ status?: string; SCIENTIFIC_NAME?: string }[]> {
  const out: { status?: string }[] = [];
  for (const id of Object.values(seed.manifests)) {
    const res = await h.request(`/api/manifest/${id}`);
    out.push(...((await res.json()) as { data: { status?: string }[] }).data);
  }
  return out;
}

describe('the public dashboard’s figures', () => {
  it('count exactly the samples the query API does not embargo', async () => {
    const records = await queryRecords();
    const shown = records.filter((r) => r.status !== 'embargoed');
    expect(records.length).toBe(seed.samples.length + 4);
    expect(records.length - shown.length).toBe(2);
    expect(first.samples).toBe(shown.length);
    expect(first.by_project.reduce((sum, p) => sum + p.total, 0)).toBe(shown.length);
    const erga = first.by_project.find((p) => p.project === 'erga');
    expect(erga?.by_status.private).toBeUndefined();
    const ergaShown = seed.samples.filter((s) => s.project === 'erga' && s.id !== seed.embargoed).length + 1;
    expect(erga?.total).toBe(ergaShown);
    expect(first.by_project.map((p) => p.project)).toEqual(['asg', 'dtol', 'erga']);
  });

  it('count the samples registered at ENA apart from those held, by the month of their registration', () => {
    // public and accessioned: the seed's accepted samples but the embargoed one, the cleared copy and the new one
    const accessioned = seed.samples.filter((s) => s.biosampleAccession && s.id !== seed.embargoed).length;
    expect(first.registered).toBe(accessioned + 2);
    expect(first.registered).toBeLessThan(first.samples);
    expect(first.by_project.find((p) => p.project === 'dtol')?.by_status.rejected).toBe(1);
    // registered in February 2026 by its history, though recorded in November 2025
    expect(first.per_month.find((m) => m.month === '2026-02')).toEqual({ month: '2026-02', by_project: { dtol: 1 }, registered: 1 });
    expect(first.per_month.find((m) => m.month === '2025-11')).toBeUndefined();
    // samples never sent from here count from when the broker recorded them: the seed's by the month of creation
    const seeded = seed.samples.filter(
      (s) => s.project === 'dtol' && s.biosampleAccession && s.timeCreated.toISOString().startsWith('2024-03'),
    );
    expect(first.per_month.find((m) => m.month === '2024-03')?.by_project.dtol).toBe(seeded.length);
    expect(first.per_month.map((m) => m.month)).toEqual([...first.per_month.map((m) => m.month)].sort());
    expect(first.per_month.reduce((sum, m) => sum + m.registered, 0)).toBe(first.registered);
  });

  it('name the most sampled taxa, most first', () => {
    const counts = new Map<string, number>();
    for (const s of seed.samples) {
      if (s.id === seed.embargoed) continue;
      const name = s.fields.SCIENTIFIC_NAME ?? '';
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
    const held = seed.samples.find((s) => s.id === seed.embargoed)?.fields.SCIENTIFIC_NAME ?? '';
    counts.set(held, (counts.get(held) ?? 0) + 1); // the cleared copy
    const dtolName = seed.samples.find((s) => s.id === dtolBase)?.fields.SCIENTIFIC_NAME ?? '';
    counts.set(dtolName, (counts.get(dtolName) ?? 0) + 2); // the registered and the rejected copies
    const top = first.top_taxa[0];
    expect(top?.samples).toBe(Math.max(...counts.values()));
    expect(counts.get(top?.scientific_name ?? '')).toBe(top?.samples);
    expect(first.top_taxa.map((t) => t.samples)).toEqual([...first.top_taxa.map((t) => t.samples)].sort((a, b) => b - a));
    expect(top?.taxon_id).toMatch(/^[0-9]+$/);
  });

  it('place samples on one-degree squares from their decimal latitude and longitude', () => {
    // Wytham Woods (51.7721, -1.3385) and Montseny (41.7676, 2.4014), the fixtures' collection places
    expect(first.places).toEqual(
      expect.arrayContaining([
        { latitude: 51.5, longitude: -1.5, samples: expect.any(Number) },
        { latitude: 41.5, longitude: 2.5, samples: expect.any(Number) },
      ]),
    );
    expect(first.places.reduce((sum, p) => sum + p.samples, 0)).toBe(first.samples);
  });

  it('answers the same figures for a minute, without counting again', async () => {
    await h.deps.db.update(samples).set({ status: 'accepted' }).where(eq(samples.id, ids.cleared));
    await h.deps.db
      .update(samples)
      .set({ fields: { ...seed.samples[0]?.fields, [RIGHTS_APPLICABLE]: 'N', DECIMAL_LATITUDE: 'NOT_COLLECTED' } })
      .where(eq(samples.id, seed.samples[0]?.id ?? ''));
    const again = (await (await h.request('/api/stats/dashboard')).json()) as PublicDashboard;
    expect(again).toEqual(first);
    expect(again.cache_seconds).toBe(60);
  });
});

describe('briefly', () => {
  it('keeps a count for its time, shares one under way, and forgets a failure', async () => {
    let runs = 0;
    let fail = false;
    const count = briefly(50, async (_db: object) => {
      runs += 1;
      await new Promise((r) => setTimeout(r, 5));
      if (fail) throw new Error('database away');
      return runs;
    });
    const db = {};
    expect(await Promise.all([count(db), count(db), count(db)])).toEqual([1, 1, 1]);
    expect(await count(db)).toBe(1);
    expect(await count({})).toBe(2);
    await new Promise((r) => setTimeout(r, 60));
    fail = true;
    await expect(count(db)).rejects.toThrow('database away');
    fail = false;
    expect(await count(db)).toBe(4);
  });
});
