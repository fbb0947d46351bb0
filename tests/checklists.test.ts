import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checklists } from '@/db/schema';
import { seedReferenceData } from '@/lib/seed';
import { readChecklists, readSchemas, schemasDir } from '@/lib/seed/checklists';
import { createHarness, type Harness } from './support/harness';
import { expectProblem } from './support/http';

interface Checklist {
  checklist_id: string;
  name: string;
  description: string;
  standard: string;
  technology: string;
}

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

// docs/api-behaviour.md §2.7 and docs/studies-and-checklists.md §8
const EXPECTED: Record<string, Array<[string, string, string, string]>> = {
  svc_single_cell: [
    ['version_dwc_sc_rnaseq', 'Darwin Core metadata', 'dwc', 'sc_rnaseq'],
    ['version_mixs_sc_rnaseq', 'Minimum Information about any Sequence metadata', 'mixs', 'sc_rnaseq'],
    ['version_tol_sc_rnaseq', 'Tree of Life metadata', 'tol', 'sc_rnaseq'],
    ['version_faang_sc_rnaseq', 'Functional Annotation of Animal Genomes metadata', 'faang', 'sc_rnaseq'],
  ],
  svc_image_rembi: [['version_rembi', 'REMBI images', 'rembi', '']],
  svc_image_stx_fish: [
    ['version_dwc_stx_fish', 'Darwin Core metadata', 'dwc', 'stx_fish'],
    ['version_mixs_stx_fish', 'Minimum Information about any Sequence metadata', 'mixs', 'stx_fish'],
    ['version_tol_stx_fish', 'Tree of Life metadata', 'tol', 'stx_fish'],
  ],
};

async function get(path: string): Promise<Checklist[]> {
  const res = await h.request(path);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('application/json');
  return (await res.json()) as Checklist[];
}

describe('checklist listing', () => {
  it('lists the eight checklists of the three schemas, in workbook order, without a key', async () => {
    const all: string[] = [];
    for (const [schema, rows] of Object.entries(EXPECTED)) {
      const items = await get(`/api/profiles/schema/${schema}/checklists`);
      expect(items.map((i) => [i.checklist_id, i.name, i.standard, i.technology])).toEqual(rows);
      for (const i of items) expect(Object.keys(i)).toEqual(['checklist_id', 'name', 'description', 'standard', 'technology']);
      all.push(...items.map((i) => i.checklist_id));
    }
    expect(all).toHaveLength(8);
  });

  it('keeps the workbook text verbatim', async () => {
    const items = await get('/api/profiles/schema/svc_single_cell/checklists');
    expect(items[0]!.description).toBe(
      'For single-cell Ribonucleic Acid Sequencing (RNA-seq)  studies aimed focused on biodiversity-related ' +
        'information in alignment with the Darwin Core (DwC) standard.',
    );
    const fish = await get('/api/profiles/schema/svc_image_stx_fish/checklists');
    expect(fish[2]!.description).toContain('initiative’s goals');
  });

  it('serves the single-cell checklists at profiles/singlecells/checklists', async () => {
    const items = await get('/api/profiles/singlecells/checklists');
    expect(items).toEqual(await get('/api/profiles/schema/svc_single_cell/checklists'));
    expect(items).toHaveLength(4);
  });

  it('takes the schema name in any case, and ignores a key', async () => {
    const res = await h.request('/api/profiles/schema/SVC_IMAGE_REMBI/checklists');
    expect(((await res.json()) as Checklist[]).map((c) => c.checklist_id)).toEqual(['version_rembi']);
    const user = await h.user();
    expect((await h.request('/api/profiles/schema/svc_image_rembi/checklists/', { key: user.key })).status).toBe(200);
  });

  it('answers 404 for an unknown schema', async () => {
    const body = await expectProblem(await h.request('/api/profiles/schema/copo_read/checklists'), 404);
    expect(body.detail).toBe('No checklist found for schema COPO_READ');
  });

  it('answers 405 to other methods', async () => {
    await expectProblem(await h.request('/api/profiles/singlecells/checklists', { method: 'POST' }), 405);
  });
});

describe('checklist seeding', () => {
  it('is idempotent and restores generated definitions that were changed', async () => {
    const db = h.database.db;
    await db
      .update(checklists)
      // a shape the column's type does not allow: what an older loader may have left
      .set({ fields: sql`'[{"term_name": "study_id"}]'::jsonb`, name: 'stale' })
      .where(eq(checklists.checklistId, 'version_rembi'));
    await seedReferenceData(db);
    await seedReferenceData(db);
    const rows = await db.select().from(checklists);
    expect(rows).toHaveLength(8);
    const rembi = rows.find((r) => r.checklistId === 'version_rembi')!;
    expect(rembi).toMatchObject({ name: 'REMBI images', version: '0.1' });
    expect(rembi.fields).toEqual((await readChecklists()).find((c) => c.checklistId === 'version_rembi')!.fields);
    expect(rows.find((r) => r.checklistId === 'version_tol_sc_rnaseq')?.version).toBe('0.4');
  });

  it('reads the workbooks kept in the repository unless REFERENCE_DIR says otherwise', async () => {
    expect(schemasDir({})).toMatch(/db[/\\]seed[/\\]data[/\\]schemas$/);
    expect(schemasDir({ REFERENCE_DIR: '/srv/reference' })).toBe('/srv/reference/schemas');
    expect(await readChecklists()).toHaveLength(8);
    // parsed once per process and folder: later calls share the first parse
    expect(readSchemas()).toBe(readSchemas());
  });
});
