import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { studies, submissions } from '@/db/schema';
import type { ChecklistDefinition } from '@/lib/checklists/definitions';
import type { StudyComponents } from '@/lib/studies/validate';
import { bytesOf, createProfile, definition, registerSamples, SAMPLES, studiesApi } from './fixtures/studies/api';
import { fillTemplate, fixtureComponents, workbookBytes } from './fixtures/studies/fill';
import { createHarness, type Harness } from './support/harness';
import { expectProblem } from './support/http';

const SC = 'svc_single_cell';
const DWC = 'version_dwc_sc_rnaseq';

let h: Harness;
let profileId: string;
let api: ReturnType<typeof studiesApi>;
let def: ChecklistDefinition;
const templates = new Map<string, Uint8Array>();

beforeAll(async () => {
  h = await createHarness();
  const alice = await h.user();
  profileId = await createProfile(h, alice.key, 'Updates');
  await registerSamples(h, profileId);
  api = studiesApi(h, alice.key, profileId);
  def = await definition(h, SC, DWC);
});
afterAll(() => h.close());

async function workbook(schema: string, checklistId: string, components: StudyComponents): Promise<Uint8Array> {
  if (!templates.has(checklistId)) templates.set(checklistId, await bytesOf(await api.template(schema, checklistId)));
  return workbookBytes(await fillTemplate(templates.get(checklistId)!, await definition(h, schema, checklistId), components));
}

const fixture = (studyId: string, d: ChecklistDefinition = def) => fixtureComponents(d, { studyId, samples: SAMPLES });

async function row(studyId: string) {
  const [r] = await h.database.db
    .select()
    .from(studies)
    .where(and(eq(studies.profileId, profileId), eq(studies.studyId, studyId)));
  return r!;
}

async function listed(schema = SC, query = ''): Promise<Record<string, unknown>[]> {
  const res = await api.list(schema, query);
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>[];
}

describe('replacing a study', () => {
  it('replaces the components of the study with the same study_id', async () => {
    const original = fixture('UPD1');
    expect((await api.upload(SC, DWC, await workbook(SC, DWC, original))).status).toBe(200);
    const created = await row('UPD1');

    const changed = fixture('UPD1');
    changed.study![0]!.title = 'A better title';
    changed.person = changed.person!.slice(0, 1);
    const res = await api.upload(SC, DWC, await workbook(SC, DWC, changed));
    expect(await res.json()).toMatchObject({
      status: 'success',
      study_id: 'UPD1',
      created: false,
      changed: true,
      components: { person: 1 },
    });
    const updated = await row('UPD1');
    expect(updated.id).toBe(created.id);
    expect(updated.components).toEqual(changed);
    expect(updated.updatedAt.getTime()).toBeGreaterThan(created.updatedAt.getTime());
    const [item] = await listed();
    expect(item).toMatchObject({ study_id: 'UPD1', title: 'A better title', components: { person: 1, file: 2 } });
  });

  it('refuses another schema or another checklist for an existing study_id (409), leaving it unchanged', async () => {
    const before = await row('UPD1');
    const fish = await definition(h, 'svc_image_stx_fish', 'version_dwc_stx_fish');
    const other = await expectProblem(
      await api.upload(
        'svc_image_stx_fish',
        'version_dwc_stx_fish',
        await workbook('svc_image_stx_fish', 'version_dwc_stx_fish', fixture('UPD1', fish)),
      ),
      409,
    );
    expect(other.detail).toBe('Study already exists with different schema: svc_single_cell');
    const mixs = await definition(h, SC, 'version_mixs_sc_rnaseq');
    const checklist = await expectProblem(
      await api.upload(SC, 'version_mixs_sc_rnaseq', await workbook(SC, 'version_mixs_sc_rnaseq', fixture('UPD1', mixs))),
      409,
    );
    expect(checklist.detail).toBe('Study already exists with different checklist: version_dwc_sc_rnaseq');
    expect(await row('UPD1')).toEqual(before);
  });

  it('refuses any change while the study is being submitted, and shows the repository state afterwards', async () => {
    const db = h.database.db;
    const study = await row('UPD1');
    const [sub] = await db
      .insert(submissions)
      .values({ kind: 'study', repository: 'ena', profileId, studyRowId: study.id, status: 'pending' })
      .returning();
    const edited = fixture('UPD1');
    edited.study![0]!.title = 'Edited while submitting';
    for (const status of ['pending', 'processing'] as const) {
      await db.update(submissions).set({ status }).where(eq(submissions.id, sub!.id));
      const busy = await expectProblem(await api.upload(SC, DWC, await workbook(SC, DWC, edited)), 409);
      expect(busy.detail).toBe('Study UPD1 is being submitted to ena; it cannot be changed until the submission has finished.');
      expect(await row('UPD1')).toEqual(study);
      // a queued job and a running one are both the reference's `processing`
      expect(await listed()).toEqual([expect.objectContaining({ status_ena: 'processing', status_zenodo: 'pending' })]);
    }

    await db
      .update(submissions)
      .set({ status: 'accepted', accessions: { study: 'PRJEB1234' }, finishedAt: new Date() })
      .where(eq(submissions.id, sub!.id));
    expect(await listed()).toEqual([expect.objectContaining({ status_ena: 'accepted', accession_ena: 'PRJEB1234', error_ena: '' })]);

    // the same content again changes nothing; new content makes the study pending at ENA again
    const same = await api.upload(SC, DWC, await bytesOf(await api.download(SC, 'UPD1')));
    expect(await same.json()).toMatchObject({ changed: false });
    expect(await listed()).toEqual([expect.objectContaining({ status_ena: 'accepted' })]);
    expect((await api.upload(SC, DWC, await workbook(SC, DWC, edited))).status).toBe(200);
    expect(await listed()).toEqual([
      expect.objectContaining({ status_ena: 'pending', accession_ena: 'PRJEB1234', title: 'Edited while submitting' }),
    ]);
  });

  it('refuses to drop a row that carries an accession (409), and accepts keeping it', async () => {
    const db = h.database.db;
    await db
      .update(studies)
      .set({
        accessions: {
          ena: { study: 'PRJEB1234', file: { FILE001: { run_accession: 'ERR0000001', experiment_accession: 'ERX0000001', digest: '' } } },
        },
      })
      .where(and(eq(studies.profileId, profileId), eq(studies.studyId, 'UPD1')));
    const before = await row('UPD1');
    const withoutFirst = fixture('UPD1');
    withoutFirst.file = withoutFirst.file!.slice(1);
    const res = await expectProblem(await api.upload(SC, DWC, await workbook(SC, DWC, withoutFirst)), 409);
    expect(res.detail).toBe('file: Cannot delete records with accession number : FILE001');
    expect(await row('UPD1')).toEqual(before);

    const withoutSecond = fixture('UPD1');
    withoutSecond.file = withoutSecond.file!.slice(0, 1);
    expect(await (await api.upload(SC, DWC, await workbook(SC, DWC, withoutSecond))).json()).toMatchObject({ changed: true });
    expect((await row('UPD1')).components.file!.map((f) => f.file_id)).toEqual(['FILE001']);
  });
});

describe('listing and exporting', () => {
  it('filters by checklist, answers [] when there is nothing, and 400 for an unknown checklist', async () => {
    const mixs = await definition(h, SC, 'version_mixs_sc_rnaseq');
    expect(
      (await api.upload(SC, 'version_mixs_sc_rnaseq', await workbook(SC, 'version_mixs_sc_rnaseq', fixture('MIXS1', mixs)))).status,
    ).toBe(200);
    expect((await listed()).map((s) => s.study_id)).toEqual(['UPD1', 'MIXS1']);
    expect((await listed(SC, `?checklist_id=${DWC}`)).map((s) => s.study_id)).toEqual(['UPD1']);
    expect(await listed('svc_image_stx_fish')).toEqual([]);
    await expectProblem(await api.list(SC, '?checklist_id=version_rembi'), 400);
    await expectProblem(await api.list('svc_reads'), 404);
  });

  it('shows a rejection with the repository’s error', async () => {
    const study = await row('UPD1');
    await h.database.db
      .insert(submissions)
      .values({ kind: 'study', repository: 'zenodo', profileId, studyRowId: study.id, status: 'rejected', error: 'Missing creators' });
    const item = (await listed()).find((s) => s.study_id === 'UPD1');
    expect(item).toMatchObject({ status_zenodo: 'rejected', error_zenodo: 'Missing creators', accession_zenodo: '' });
  });

  it('accepts study ids with _ - and . in paths', async () => {
    const rembi = await definition(h, 'svc_image_rembi', 'version_rembi');
    const res = await api.upload(
      'svc_image_rembi',
      'version_rembi',
      await workbook('svc_image_rembi', 'version_rembi', fixture('img_1-a.v2', rembi)),
    );
    expect(res.status).toBe(200);
    const xlsx = await api.download('svc_image_rembi', 'img_1-a.v2');
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers.get('content-disposition')).toBe('attachment; filename=svc_image_rembi_manifest_img_1-a.v2.xlsx');
    const [item] = await listed('svc_image_rembi');
    expect(item).toMatchObject({ study_id: 'img_1-a.v2', status_zenodo: 'pending' });
    expect(item).not.toHaveProperty('status_ena');
  });

  it('answers 400 for an unknown return_type and 404 for an unknown study or another schema', async () => {
    const bad = await expectProblem(await api.download(SC, 'UPD1', '?return_type=csv'), 400);
    expect(bad.detail).toBe("Invalid value for 'return_type'. Accepted values are: xlsx and jsonld");
    expect((await expectProblem(await api.download(SC, 'NOPE'), 404)).detail).toBe('No record found');
    await expectProblem(await api.download('svc_image_stx_fish', 'UPD1'), 404);
    await expectProblem(await api.download(SC, 'bad%20id'), 404);
  });
});
