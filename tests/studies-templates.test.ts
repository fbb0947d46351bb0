import { and, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { studies } from '@/db/schema';
import { isDateTerm } from '@/lib/checklists/corrections';
import { DATA_VALUES_SHEET, FIRST_DATA_ROW } from '@/lib/studies/layout';
import { bytesOf, CHECKLISTS, createProfile, definition, studiesApi } from './fixtures/studies/api';
import { workbookBytes } from './fixtures/studies/fill';
import { createHarness, type Harness } from './support/harness';
import { type RepositoryServer, startRepositoryServer } from './support/repository-server';

/**
 * What a new user does first: download a checklist's template, copy its own example row (row 3) below the separator
 * as it is (values and cell formats), and upload it. Every checklist must accept its own example. The examples'
 * BioSample is a public sample that only ENA (the stand-in's browser API) holds, as for a real researcher.
 */

let h: Harness;
let server: RepositoryServer;
let api: ReturnType<typeof studiesApi>;
let profileId: string;

beforeAll(async () => {
  server = await startRepositoryServer();
  h = await createHarness({ ENA_BROWSER_URL: server.browserUrl });
  const { key } = await h.user();
  profileId = await createProfile(h, key, 'Templates as a new user fills them');
  api = studiesApi(h, key, profileId);
});
afterAll(async () => {
  await h.close();
  await server.close();
});

/** Copies row 3 onto the first data row of every sheet, cell by cell, as copy and paste in Excel does. */
async function exampleRowCopied(template: Uint8Array): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(Buffer.from(template) as unknown as ExcelJS.Buffer);
  for (const ws of wb.worksheets) {
    if (ws.name === DATA_VALUES_SHEET) continue;
    const target = ws.getRow(FIRST_DATA_ROW);
    ws.getRow(3).eachCell({ includeEmpty: false }, (cell, col) => {
      const pasted = target.getCell(col);
      pasted.value = cell.value;
      pasted.numFmt = cell.numFmt;
    });
  }
  return workbookBytes(wb);
}

describe.each(CHECKLISTS)('%s / %s', (schema, checklistId) => {
  it('accepts its template with the example row copied below the line, storing dates and list values as the lists spell them', async () => {
    const def = await definition(h, schema, checklistId);
    const template = await api.template(schema, checklistId);
    expect(template.status).toBe(200);
    const res = await api.upload(schema, checklistId, await exampleRowCopied(await bytesOf(template)));
    const body = (await res.json()) as { errors?: unknown[]; study_id?: string; warnings?: unknown[] };
    expect(res.status, JSON.stringify(body.errors ?? body).slice(0, 3000)).toBe(200);

    const [study] = await h.database.db
      .select()
      .from(studies)
      .where(and(eq(studies.profileId, profileId), eq(studies.studyId, body.study_id!)));
    for (const component of def.components) {
      const row = study!.components[component.key]?.[0] ?? {};
      for (const f of component.fields) {
        const value = row[f.termName];
        if (value === undefined) continue;
        if (isDateTerm(f)) expect(value, `${component.key}.${f.termName}`).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        if (f.type === 'enum' && f.cardinality === 'single') expect(f.allowedValues, `${component.key}.${f.termName}`).toContain(value);
      }
    }
    // the study is stored, ready for the next user: remove it so the next checklist's example (same study_id) is new
    await h.database.db.delete(studies).where(eq(studies.id, study!.id));
  });
});

it('asked ENA’s browser API about the examples’ BioSample once, then used its cached answer', () => {
  const asked = server.requests.filter((r) => r.service === 'browser' && r.path.endsWith('/xml/SAMEA12907823'));
  expect(asked).toHaveLength(1);
  expect(asked[0]!.status).toBe(200);
});

it('shows a date example as a date cell in the template, and a corrected example inside its own list', async () => {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(Buffer.from(await bytesOf(await api.template('svc_image_rembi', 'version_rembi'))) as unknown as ExcelJS.Buffer);
  const study = wb.getWorksheet('study')!;
  let releaseDate: ExcelJS.Cell | undefined;
  study.getRow(1).eachCell((cell, col) => {
    if (String(cell.value) === 'Release Date') releaseDate = study.getRow(3).getCell(col);
  });
  expect(releaseDate!.value).toEqual(new Date('2027-06-01T00:00:00Z'));
  expect(releaseDate!.numFmt).toBe('yyyy-mm-dd');

  const fish = await definition(h, 'svc_image_stx_fish', 'version_dwc_stx_fish');
  const licence = fish.components.find((c) => c.key === 'study')!.fields.find((f) => f.termName === 'licence')!;
  expect(licence.example).toBe('MIT');
  expect(licence.allowedValues).toContain('MIT');
});
