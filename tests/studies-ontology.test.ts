import type ExcelJS from 'exceljs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChecklistDefinition } from '@/lib/checklists/definitions';
import { FIRST_DATA_ROW } from '@/lib/studies/layout';
import { bytesOf, createProfile, definition, registerSamples, SAMPLES, studiesApi } from './fixtures/studies/api';
import { columnOf, fillTemplate, fixtureComponents, workbookBytes } from './fixtures/studies/fill';
import { createHarness, type Harness } from './support/harness';
import { expectProblem } from './support/http';
import { type RepositoryServer, startRepositoryServer } from './support/repository-server';

/**
 * A study's ontology terms (docs/studies-and-checklists.md §9) are checked with the Ontology Lookup Service under the
 * ancestor their checklist names: `cell_type` under the Cell Ontology's CL:0000000. The stand-in answers OLS4's
 * search from a fixture of real terms (tests/support/repository-server/ols.ts).
 */

const SCHEMA = 'svc_single_cell';
const CHECKLIST = 'version_faang_sc_rnaseq';

let server: RepositoryServer;
let h: Harness;
let def: ChecklistDefinition;
let api: ReturnType<typeof studiesApi>;

beforeAll(async () => {
  server = await startRepositoryServer();
  h = await createHarness({ OLS_URL: server.olsUrl });
  const { key } = await h.user();
  const profileId = await createProfile(h, key, 'Retina atlas');
  await registerSamples(h, profileId);
  api = studiesApi(h, key, profileId);
  def = await definition(h, SCHEMA, CHECKLIST);
});
afterAll(async () => {
  await h.close();
  await server.close();
});
beforeEach(() => server.faults.clear());

/** A valid study whose dissociation rows name these cell types. */
async function sheet(studyId: string, cellTypes: string[]) {
  const template = await bytesOf(await api.template(SCHEMA, CHECKLIST));
  const wb = await fillTemplate(template, def, fixtureComponents(def, { studyId, samples: SAMPLES, rows: cellTypes.length }));
  const ws = wb.getWorksheet('dissociation') as ExcelJS.Worksheet;
  const col = columnOf(ws, def.components.find((c) => c.key === 'dissociation')!, 'cell_type');
  cellTypes.forEach((v, k) => {
    ws.getRow(FIRST_DATA_ROW + k).getCell(col).value = v;
  });
  return workbookBytes(wb);
}

describe('cell_type under CL:0000000', () => {
  it('passes real Cell Ontology terms by label, synonym or CURIE, in any case', async () => {
    const res = await api.upload(SCHEMA, CHECKLIST, await sheet('CELLS1', ['T cell', 'b-lymphocyte', 'CL:0000540']));
    expect(res.status, await res.clone().text()).toBe(200);
    // the sheet's data files are not uploaded, which is a warning of its own; none is about its cell types
    const { warnings } = (await res.json()) as { warnings: { column: string }[] };
    expect(warnings.filter((w) => w.column === 'Cell Type')).toEqual([]);
  });

  it('refuses banana, and a term of another ontology, each at its cell naming the ontology', async () => {
    const body = await expectProblem(await api.upload(SCHEMA, CHECKLIST, await sheet('CELLS2', ['banana', 'liver', 'neuron'])), 422);
    const errors = body.errors as { sheet: string; row: number; column: string; value: string; message: string }[];
    expect(errors.map((e) => [e.sheet, e.row, e.column, e.value])).toEqual([
      ['dissociation', FIRST_DATA_ROW, 'Cell Type', 'banana'],
      ['dissociation', FIRST_DATA_ROW + 1, 'Cell Type', 'liver'],
    ]);
    expect(errors[0]!.message).toBe(
      `Sheet dissociation: Invalid value banana in column Cell Type at row ${FIRST_DATA_ROW}. Expected an ontology term listed for ` +
        "CL:0000000: 'banana' is not a term of CL under CL:0000000 (give the term’s label, one of its synonyms or its CURIE).",
    );
  });

  it('asks OLS once per term: the answers are kept', async () => {
    const before = server.ols.asked.length;
    const res = await api.upload(SCHEMA, CHECKLIST, await sheet('CELLS3', ['T cell', 'macrophage']));
    expect(res.status).toBe(200);
    // T cell was asked by an earlier upload; macrophage is new
    expect(server.ols.asked.slice(before).map((a) => a.q)).toEqual(['macrophage']);
  });

  it('says which cells could not be checked while OLS is down, and checks them once it is back', async () => {
    server.faults.fail(100, { service: 'ols', status: 503 });
    const res = await api.upload(SCHEMA, CHECKLIST, await sheet('CELLS4', ['fibroblast', 'kiwi']));
    expect(res.status, await res.clone().text()).toBe(200);
    const { warnings } = (await res.json()) as { warnings: { column: string; message: string }[] };
    expect(warnings.filter((w) => w.column === 'Cell Type')).toEqual([
      expect.objectContaining({
        column: 'Cell Type',
        message:
          `Sheet dissociation: the Ontology Lookup Service could not be reached, so column Cell Type (rows ${FIRST_DATA_ROW} and ` +
          `${FIRST_DATA_ROW + 1}) was not checked against CL:0000000. Upload the sheet again later to have it checked.`,
      }),
    ]);

    server.faults.clear();
    const again = await expectProblem(await api.upload(SCHEMA, CHECKLIST, await sheet('CELLS4', ['fibroblast', 'kiwi'])), 422);
    expect(JSON.stringify(again.errors)).toContain("'kiwi' is not a term of CL under CL:0000000");
  });

  it('keeps judging a term it has an answer for while OLS is down', async () => {
    server.faults.fail(100, { service: 'ols', status: 503 });
    const body = await expectProblem(await api.upload(SCHEMA, CHECKLIST, await sheet('CELLS5', ['T cell', 'banana'])), 422);
    expect((body.errors as { value: string }[]).map((e) => e.value)).toEqual(['banana']);
    expect(JSON.stringify(body.warnings)).not.toContain('Ontology Lookup Service');
  });
});
