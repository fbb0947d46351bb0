import { createHash } from 'node:crypto';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checklists, manifestDefinitions, schemaWorkbookSheets } from '@/db/schema';
import { seedReferenceData } from '@/lib/seed';
import { readChecklists, readSchemas, readWorkbookSheets, SCHEMA_WORKBOOKS, SHEETS_FORMAT, schemasDir } from '@/lib/seed/checklists';
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
  // the reads workbook's checklists sheet names the single-cell technology, as published
  svc_read: [
    ['version_dwc', 'Darwin Core metadata', 'dwc', 'sc_rnaseq'],
    ['version_mixs', 'Minimum Information about any Sequence metadata', 'mixs', 'sc_rnaseq'],
    ['version_tol', 'Tree of Life metadata', 'tol', 'sc_rnaseq'],
    ['version_faang', 'Functional Annotation of Animal Genomes metadata', 'faang', 'sc_rnaseq'],
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
    expect(all).toHaveLength(12);
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
    expect(rows).toHaveLength(12);
    const rembi = rows.find((r) => r.checklistId === 'version_rembi')!;
    expect(rembi).toMatchObject({ name: 'REMBI images', version: '0.1' });
    expect(rembi.fields).toEqual((await readChecklists()).find((c) => c.checklistId === 'version_rembi')!.fields);
    expect(rows.find((r) => r.checklistId === 'version_tol_sc_rnaseq')?.version).toBe('0.4');
  });

  it('rewrites a manifest definition that differs from the one the code loads, and leaves the others as they are', async () => {
    const db = h.database.db;
    const stored = () => db.select().from(manifestDefinitions);
    const before = await stored();
    const [changed, kept] = before as [(typeof before)[0], (typeof before)[0]];
    await db
      .update(manifestDefinitions)
      .set({ definition: { ...changed.definition, fields: [] }, isCurrent: !changed.isCurrent })
      .where(and(eq(manifestDefinitions.project, changed.project), eq(manifestDefinitions.version, changed.version)));
    await seedReferenceData(db);
    const after = await stored();
    const find = (r: typeof changed) => after.find((a) => a.project === r.project && a.version === r.version)!;
    expect(find(changed)).toMatchObject({ definition: changed.definition, isCurrent: changed.isCurrent });
    expect(find(changed).loadedAt.getTime()).toBeGreaterThan(changed.loadedAt.getTime());
    expect(find(kept).loadedAt).toEqual(kept.loadedAt);
  });

  it('reads the workbooks kept in the repository unless REFERENCE_DIR says otherwise', async () => {
    expect(schemasDir({})).toMatch(/db[/\\]seed[/\\]data[/\\]schemas$/);
    expect(schemasDir({ REFERENCE_DIR: '/srv/reference' })).toBe('/srv/reference/schemas');
    expect(await readChecklists()).toHaveLength(12);
    // parsed once per process and folder: later calls share the first parse
    expect(readSchemas()).toBe(readSchemas());
  });
});

/**
 * What each workbook of the repository reads as (SHA-256 of its sheets' JSON), under each version of SHEETS_FORMAT.
 * A change to the reading (lib/seed/checklists.ts readSheets, lib/spreadsheets/cells.ts) that changes these must come
 * with a new version, recorded here beside the old: databases keep sheets under the version they were read with, and
 * would otherwise go on serving the old reading.
 */
const READINGS: Record<string, Record<string, string>> = {
  '1:data,allowed_values,checklists,components,term_mapping': {
    'singlecell_schema_main_v0.4.xlsx': '415a6cf9323256804c785f07246195a6353062dcdafc4b2a376f93ee4d656c61',
    'rembi_image_schema_main_v0.1.xlsx': '4a57cc298c3271dcf07d37d7807ecd630bda7c6991a11557c943b1c0e7db638d',
    'stx_fish_image_schema_main_v0.1.xlsx': '76cd26d62ea0cdac24bb7a6d186a18e95090fd53038003b73cbc931148129649',
    'reads_schema_main_v0.1.xlsx': '9ef69109d1e0870202514f27b85839a5030e3a7b2a3ce0eaff3ebdfcdb452dd8',
  },
};

describe('the sheets kept of each schema workbook', () => {
  it('are what the workbook reads as under the current SHEETS_FORMAT: a new reading needs a new version', async () => {
    const files = Object.values(SCHEMA_WORKBOOKS).map((w) => w.file);
    const digests = Object.fromEntries(
      await Promise.all(
        files.map(async (file) => {
          const sheets = await readWorkbookSheets(path.join(schemasDir(), file));
          return [file, createHash('sha256').update(JSON.stringify(sheets)).digest('hex')] as const;
        }),
      ),
    );
    expect(digests).toEqual(READINGS[SHEETS_FORMAT]);
  });

  it('are read from the database at a start whose workbook has not changed, and read again from one that has', async () => {
    const db = h.database.db;
    // the suite's template was seeded as a first start is: one reading per workbook
    const kept = await db.select().from(schemaWorkbookSheets);
    expect(kept.map((k) => k.file).sort()).toEqual(
      Object.values(SCHEMA_WORKBOOKS)
        .map((w) => w.file)
        .sort(),
    );
    const rembi = kept.find((k) => k.file === 'rembi_image_schema_main_v0.1.xlsx')!;
    // a kept reading that says something else: what is read is what is kept, not the workbook
    const checklistsSheet = rembi.sheets.checklists!.map((row) => row.map((cell) => (cell === 'REMBI images' ? 'Kept images' : cell)));
    await db
      .update(schemaWorkbookSheets)
      .set({ sheets: { ...rembi.sheets, checklists: checklistsSheet } })
      .where(eq(schemaWorkbookSheets.key, rembi.key));
    // another spelling of the folder: not the parse this process already holds
    const name = async (dir: string) => (await readChecklists(dir, db)).find((c) => c.checklistId === 'version_rembi')?.name;
    expect(await name(`${schemasDir()}${path.sep}.`)).toBe('Kept images');
    // kept under another key (another workbook, or another reading): read from the workbook again, and kept
    await db.update(schemaWorkbookSheets).set({ key: 'an-older-reading' }).where(eq(schemaWorkbookSheets.key, rembi.key));
    expect(await name(`${schemasDir()}${path.sep}.${path.sep}.`)).toBe('REMBI images');
    const after = await db.select().from(schemaWorkbookSheets).where(eq(schemaWorkbookSheets.file, rembi.file));
    expect(after.map((k) => k.key)).toEqual([rembi.key]);
  });
});
