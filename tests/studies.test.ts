import { and, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import jsonld from 'jsonld';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { studies } from '@/db/schema';
import { termIri } from '@/lib/studies/jsonld';
import { bytesOf, CHECKLISTS, createProfile, definition, registerSamples, SAMPLES, studiesApi, XLSX } from './fixtures/studies/api';
import { fillTemplate, fixtureComponents, workbookBytes } from './fixtures/studies/fill';
import { createHarness, type Harness } from './support/harness';
import { expectProblem } from './support/http';

let h: Harness;
let key: string;
let profileId: string;
let api: ReturnType<typeof studiesApi>;

beforeAll(async () => {
  h = await createHarness();
  const alice = await h.user();
  key = alice.key;
  profileId = await createProfile(h, key, 'Single-cell atlas');
  await registerSamples(h, profileId);
  api = studiesApi(h, key, profileId);
});
afterAll(() => h.close());

const stored = async (studyId: string) =>
  (
    await h.database.db
      .select()
      .from(studies)
      .where(and(eq(studies.profileId, profileId), eq(studies.studyId, studyId)))
  )[0];

describe.each(CHECKLISTS)('%s / %s: template → upload → list → export', (schema, checklistId) => {
  const studyId = `RT${checklistId.replace(/[^a-z]/g, '').slice(7, 15)}`;

  it('uploads the filled template, lists it, and exports xlsx that re-uploads to the identical study and JSON-LD that expands to the term IRIs', async () => {
    const def = await definition(h, schema, checklistId);

    const tpl = await api.template(schema.toUpperCase(), checklistId);
    expect(tpl.status).toBe(200);
    expect(tpl.headers.get('content-type')).toBe(XLSX);
    expect(tpl.headers.get('content-disposition')).toBe(
      `attachment; filename=${schema}_${checklistId}_manifest_template_v${def.version}.xlsx`,
    );
    const components = fixtureComponents(def, { studyId, samples: SAMPLES });
    const filled = await workbookBytes(await fillTemplate(await bytesOf(tpl), def, components));

    const res = await api.upload(schema, checklistId, filled);
    const body = (await res.json()) as Record<string, unknown>;
    expect(res.status, JSON.stringify(body).slice(0, 2000)).toBe(200);
    expect(body).toMatchObject({
      status: 'success',
      message: 'Single Cell records saved successfully.',
      study_id: studyId,
      created: true,
      changed: true,
    });
    expect(body.components).toEqual(Object.fromEntries(def.components.map((c) => [c.key, c.key === 'study' ? 1 : 2])));
    const first = await stored(studyId);
    expect(first).toMatchObject({ schemaName: schema, checklistId, components });

    const listed = (await (await api.list(schema, `?checklist_id=${checklistId}`)).json()) as Record<string, unknown>[];
    const item = listed.find((s) => s.study_id === studyId);
    const repos = Object.keys(def.components.find((c) => c.key === 'study')!.repositories);
    expect(item).toMatchObject({ ...components.study![0], checklist_id: checklistId, profile_id: profileId, schema_name: schema });
    for (const repo of repos)
      expect(item).toMatchObject({ [`status_${repo}`]: 'pending', [`accession_${repo}`]: '', [`error_${repo}`]: '' });
    expect(repos).toEqual(schema === 'svc_image_rembi' ? ['zenodo'] : ['ena', 'zenodo']);

    const xlsx = await api.download(schema, studyId);
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers.get('content-type')).toBe(XLSX);
    expect(xlsx.headers.get('content-disposition')).toBe(`attachment; filename=${schema}_manifest_${studyId}.xlsx`);
    const again = await api.upload(schema, checklistId, await bytesOf(xlsx), `${studyId}.xlsx`);
    expect(await again.json()).toMatchObject({ status: 'success', created: false, changed: false });
    const second = await stored(studyId);
    expect(second!.components).toEqual(components);
    expect(second!.updatedAt).toEqual(first!.updatedAt);

    const ld = await api.download(schema, studyId, '?return_type=JSONLD');
    expect(ld.status).toBe(200);
    expect(ld.headers.get('content-type')).toBe('application/ld+json');
    expect(ld.headers.get('content-disposition')).toBe(`attachment; filename=${schema}_manifest_${studyId}.jsonld`);
    const doc = (await ld.json()) as Record<string, unknown>;
    expect(doc.study).toEqual([{ '@type': 'study', ...components.study![0] }]);
    const expanded = (await jsonld.expand(doc as jsonld.JsonLdDocument)) as Record<string, unknown>[];
    expect(expanded).toHaveLength(1);
    const vocab = `${h.config.baseUrl}/api/profiles/schema/${schema}/`;
    for (const c of def.components) {
      const rows = expanded[0]![`${vocab}components/${c.key}`] as Record<string, unknown>[];
      expect(rows, c.key).toHaveLength(components[c.key]!.length);
      for (const [i, row] of rows.entries()) {
        expect(row['@type']).toEqual([`${vocab}components/${c.key}`]);
        for (const f of c.fields) {
          expect(row[termIri(vocab, f)], `${c.key}.${f.termName}`).toEqual([{ '@value': components[c.key]![i]![f.termName] }]);
        }
      }
    }
  });
});

describe('template', () => {
  it('has one sheet per component, the docs/studies-and-checklists.md §10 layout and drop-downs', async () => {
    const def = await definition(h, 'svc_single_cell', 'version_faang_sc_rnaseq');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await (await api.template('svc_single_cell', 'version_faang_sc_rnaseq')).arrayBuffer()) as ExcelJS.Buffer);
    expect(wb.worksheets.map((w) => w.name)).toEqual([...def.components.map((c) => c.key), 'data_values']);
    expect(wb.getWorksheet('data_values')!.state).toBe('hidden');
    const study = wb.getWorksheet('study')!;
    expect(study.getCell('A1').value).toBe('Study ID');
    expect(study.getCell('A1').font?.bold).toBe(true);
    const fields = def.components[0]!.fields;
    expect(study.getRow(1).values).toEqual([undefined, ...fields.map((f) => (f.mandatory ? f.label : `${f.label} (optional)`))]);
    expect(study.getCell('A2').value).toBe(fields[0]!.description);
    expect(study.getCell('A3').value).toBe(fields[0]!.example);
    expect(study.getCell('A4').value).toBe('FILL OUT INFORMATION BELOW THIS LINE');
    expect(study.getCell('A5').numFmt).toBe('@');
    // the enum `material` has a drop-down from row 5
    const col = fields.findIndex((f) => f.termName === 'material') + 1;
    const dv = (study as unknown as { dataValidations: { model: Record<string, { type: string; formulae: string[] }> } }).dataValidations
      .model;
    const letter = String.fromCharCode(64 + col);
    expect(Object.entries(dv).find(([addr]) => addr.startsWith(`${letter}5`))?.[1]).toMatchObject({ type: 'list' });
    // the 83 instrument models are too long for an inline list
    const seq = wb.getWorksheet('sequencing')!;
    const seqDv = (seq as unknown as { dataValidations: { model: Record<string, { formulae: string[] }> } }).dataValidations.model;
    expect(Object.values(seqDv).some((v) => v.formulae[0]!.startsWith('data_values!'))).toBe(true);
  });

  it('needs a known checklist of the schema', async () => {
    const missing = await expectProblem(await api.template('svc_single_cell'), 400);
    expect(missing.detail).toBe("'checklist_id' is required but not provided.");
    const other = await expectProblem(await api.template('svc_single_cell', 'version_rembi'), 400);
    expect(other.detail).toBe(
      "Invalid value for 'checklist_id'. Accepted values are: version_dwc_sc_rnaseq, version_mixs_sc_rnaseq, version_tol_sc_rnaseq and version_faang_sc_rnaseq",
    );
    await expectProblem(await api.template('svc_reads', 'version_rembi'), 404);
  });
});

describe('OpenAPI', () => {
  it('documents the study routes', async () => {
    const res = await h.request('/api/openapi.json');
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { paths: Record<string, Record<string, unknown>> };
    const base = '/api/profiles/{profile_id}/schema/{schema_name}';
    expect(Object.keys(doc.paths[`${base}/studies`] ?? {})).toEqual(expect.arrayContaining(['get', 'post']));
    expect(doc.paths[`${base}/studies/{study_id}`]).toHaveProperty('get');
    expect(doc.paths[`${base}/template`]).toHaveProperty('get');
    const post = doc.paths[`${base}/studies`]!.post as { requestBody: { content: Record<string, unknown> } };
    expect(Object.keys(post.requestBody.content)).toEqual(['multipart/form-data']);
  });
});

describe('vocabulary pages', () => {
  it('the service’s own term and component IRIs resolve, without a key', async () => {
    const def = await definition(h, 'svc_single_cell', 'version_faang_sc_rnaseq');
    const vocab = `${h.config.baseUrl}/api/profiles/schema/svc_single_cell/`;
    const cellType = def.components.find((c) => c.key === 'dissociation')!.fields.find((f) => f.termName === 'cell_type')!;
    const iri = termIri(vocab, cellType);
    expect(iri).toBe(`${vocab}terms/cell_type`);
    const res = await h.request(iri.slice(h.config.baseUrl.length));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      schema_name: 'svc_single_cell',
      term_name: 'cell_type',
      definitions: [
        expect.objectContaining({
          component: 'dissociation',
          label: 'Cell Type',
          type: 'ontology',
          ontology_root: 'CL:0000000',
          checklists: { version_faang_sc_rnaseq: 'mandatory' },
        }),
      ],
    });
    const spaced = await h.request('/api/profiles/schema/svc_single_cell/terms/cell-type%20annotation');
    expect(((await spaced.json()) as { definitions: unknown[] }).definitions).toHaveLength(1);
    const studyId = (await (await h.request('/api/profiles/schema/SVC_SINGLE_CELL/terms/study_id')).json()) as {
      definitions: { component: string }[];
    };
    expect(studyId.definitions.map((d) => d.component)).toContain('expression_data_file');

    const comp = await h.request('/api/profiles/schema/svc_single_cell/components/file');
    expect(await comp.json()).toMatchObject({ component: 'file', name: 'File', repositories: { ena: 'read' } });
    await expectProblem(await h.request('/api/profiles/schema/svc_single_cell/terms/nope'), 404);
    await expectProblem(await h.request('/api/profiles/schema/svc_single_cell/components/nope'), 404);
  });
});
