import type { ChecklistDefinition } from '@/lib/checklists/definitions';
import { readChecklists } from '@/lib/seed/checklists';
import type { StudyComponents } from '@/lib/studies/contract';
import { writeStudyWorkbook } from '@/lib/studies/write';
import { SAMPLES } from '../fixtures/studies/api';
import { fillTemplate, fixtureComponents, workbookBytes } from '../fixtures/studies/fill';
import { portalCases } from './cases-portal';
import { type Case, CHECKLIST, SCHEMA, STUDY, w } from './world';

// study workbooks made from the schema workbooks themselves, before the world exists: a case's form is made on the spot
const seeds = await readChecklists();
async function studyWorkbook(checklistId: string, change: (c: StudyComponents) => void): Promise<Uint8Array> {
  const seed = seeds.find((s) => s.schemaName === SCHEMA && s.checklistId === checklistId)!;
  const def: ChecklistDefinition = { ...seed, components: seed.fields };
  const components = fixtureComponents(def, { studyId: 'CONTRACT2', samples: SAMPLES });
  change(components);
  return workbookBytes(await fillTemplate(new Uint8Array(await writeStudyWorkbook(def)), def, components));
}
// a new study whose data files are not uploaded: saved, with warnings
const NEW_STUDY = await studyWorkbook(CHECKLIST, () => {});
// a study id that cannot be addressed in a path breaks a rule: the report
const BAD_ID = await studyWorkbook(CHECKLIST, (c) => {
  c.study![0]!.study_id = 'NOT AN ID';
});
// the world's study under another checklist of the schema
const OTHER_CHECKLIST = await studyWorkbook('version_mixs_sc_rnaseq', (c) => {
  for (const rows of Object.values(c)) for (const row of rows) if (row.study_id) row.study_id = STUDY;
});

const studyForm =
  (bytes: Uint8Array, checklistId = CHECKLIST, name = 'study.xlsx') =>
  () => {
    const fd = new FormData();
    fd.set('checklist_id', checklistId);
    fd.set('file', new File([Buffer.from(bytes)], name));
    return fd;
  };

/** Profiles, data files, checklists and studies, with their repository actions; and the portal's own reads. */
export function studyCases(): Record<string, Case[]> {
  const profile = `/api/profiles/${w.biodataProfile}`;
  const studyBase = `${profile}/schema/${SCHEMA}/studies`;
  const study = `${studyBase}/${STUDY}`;
  const unknownStudy = `${studyBase}/NOSUCHSTUDY`;
  const studyPath = '/api/profiles/{profile_id}/schema/{schema_name}/studies/{study_id}';
  const unknownProfile = '/api/profiles/0123456789abcdef01234567';
  return {
    ...portalCases(),
    'GET /api/profiles/singlecells/checklists': [{ name: 'list', path: '/api/profiles/singlecells/checklists', key: 'none', status: 200 }],
    'GET /api/profiles/schema/{schema_name}/checklists': [
      { name: 'list', path: `/api/profiles/schema/${SCHEMA}/checklists`, key: 'none', status: 200 },
      { name: 'any case', path: '/api/profiles/schema/SVC_IMAGE_REMBI/checklists', key: 'none', status: 200 },
      { name: 'unknown schema', path: '/api/profiles/schema/nope/checklists', key: 'none', status: 404 },
    ],
    'GET /api/profiles/types': [
      { name: 'types', path: '/api/profiles/types', key: 'owner', status: 200 },
      { name: 'no key', path: '/api/profiles/types', key: 'none', status: 401 },
    ],
    'GET /api/profiles/options': [
      { name: 'options', path: '/api/profiles/options', key: 'owner', status: 200 },
      { name: 'no key', path: '/api/profiles/options', key: 'none', status: 401 },
    ],
    'GET /api/profiles': [
      { name: 'mine', path: '/api/profiles?limit=10', key: 'owner', status: 200 },
      { name: 'bad offset', path: '/api/profiles?offset=-1', key: 'owner', status: 400 },
      { name: 'no key', path: '/api/profiles', key: 'none', status: 401 },
    ],
    'POST /api/profiles': [
      {
        name: 'create',
        path: '/api/profiles',
        key: 'owner',
        json: { title: 'Contract new', description: '', type: 'biodata' },
        status: 201,
      },
      {
        name: 'ERGA with its choices',
        path: '/api/profiles',
        key: 'owner',
        json: { title: 'Contract ERGA 2', description: '', type: 'ERGA', associated_type: 'BGE', sequencing_centre: ['SANGER INSTITUTE'] },
        status: 201,
      },
      { name: 'no type', path: '/api/profiles', key: 'owner', json: { title: 'x' }, status: 400 },
      { name: 'a title in use', path: '/api/profiles', key: 'owner', json: { title: 'Contract new', type: 'biodata' }, status: 409 },
      { name: 'not a member', path: '/api/profiles', key: 'stranger', json: { title: 'x', type: 'asg' }, status: 403 },
      {
        name: 'a form',
        path: '/api/profiles',
        key: 'owner',
        body: 'title=x&type=biodata',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        status: 415,
      },
      { name: 'no key', path: '/api/profiles', key: 'none', json: { title: 'x', type: 'biodata' }, status: 401 },
    ],
    'GET /api/profiles/{profile_id}': [
      { name: 'mine', path: `/api/profiles/${w.dtolProfile}`, key: 'owner', status: 200 },
      { name: 'another’s', path: `/api/profiles/${w.dtolProfile}`, key: 'stranger', status: 404 },
      { name: 'unknown', path: unknownProfile, key: 'owner', status: 404 },
    ],
    'PUT /api/profiles/{profile_id}': [
      {
        name: 'update',
        path: profile,
        method: 'PUT',
        key: 'owner',
        json: { title: 'Contract atlas', description: 'd', type: 'biodata' },
        status: 200,
      },
      {
        name: 'another type',
        path: profile,
        method: 'PUT',
        key: 'owner',
        json: { title: 'x', description: '', type: 'dtol' },
        status: 400,
      },
      {
        name: 'a title the owner uses',
        path: profile,
        method: 'PUT',
        key: 'owner',
        json: { title: 'Contract moths', type: 'biodata' },
        status: 409,
      },
      { name: 'another’s', path: profile, method: 'PUT', key: 'stranger', json: { title: 'x', type: 'biodata' }, status: 404 },
      {
        name: 'not JSON',
        path: profile,
        method: 'PUT',
        key: 'owner',
        body: 'title',
        headers: { 'content-type': 'text/plain' },
        status: 415,
      },
    ],
    'GET /api/profiles/{profile_id}/files': [
      { name: 'list', path: `${profile}/files?limit=2`, key: 'owner', status: 200 },
      { name: 'another’s', path: `${profile}/files`, key: 'stranger', status: 404 },
      { name: 'bad limit', path: `${profile}/files?limit=0`, key: 'owner', status: 400 },
    ],
    'GET /api/profiles/{profile_id}/files/presignedurls': [
      {
        name: 'urls',
        path: `${profile}/files/presignedurls?file_names=a.fastq.gz,dir/b.fastq.gz&file_sizes=1,2`,
        key: 'owner',
        status: 200,
      },
      { name: 'no names', path: `${profile}/files/presignedurls`, key: 'owner', status: 400 },
      { name: 'a size that is not one', path: `${profile}/files/presignedurls?file_names=a&file_sizes=-4`, key: 'owner', status: 400 },
      {
        name: 'over the limit',
        path: `${profile}/files/presignedurls?file_names=a&file_sizes=${Number.MAX_SAFE_INTEGER}`,
        key: 'owner',
        status: 413,
      },
      { name: 'another’s', path: `${profile}/files/presignedurls?file_names=a`, key: 'stranger', status: 404 },
    ],
    'POST /api/profiles/{profile_id}/files/presignedurls': [
      {
        name: 'urls',
        path: `${profile}/files/presignedurls`,
        key: 'owner',
        json: { file_names: ['b.fastq.gz'], file_sizes: [10] },
        status: 200,
      },
      { name: 'a traversal', path: `${profile}/files/presignedurls`, key: 'owner', json: { file_names: ['../x'] }, status: 400 },
      { name: 'not a list', path: `${profile}/files/presignedurls`, key: 'owner', json: { file_names: 'a' }, status: 400 },
      {
        name: 'not JSON',
        path: `${profile}/files/presignedurls`,
        key: 'owner',
        body: 'file_names=a',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        status: 415,
      },
    ],
    'PUT /api/uploads/{profile_id}/{file_name}': [
      {
        name: 'upload',
        path: w.uploadUrl,
        method: 'PUT',
        key: 'none',
        body: new Uint8Array([1, 2, 3]),
        headers: { 'content-type': 'application/octet-stream' },
        status: 200,
      },
      {
        name: 'a wrong signature',
        path: w.uploadUrl.replace(/signature=[^&]+/, 'signature=0000'),
        method: 'PUT',
        key: 'none',
        body: new Uint8Array([1]),
        status: 403,
      },
    ],
    'GET /api/profiles/schema/{schema_name}/terms/{term_name}': [
      { name: 'a term', path: `/api/profiles/schema/${SCHEMA}/terms/study_id`, key: 'none', status: 200 },
      { name: 'an enumerated term', path: `/api/profiles/schema/${SCHEMA}/terms/licence`, key: 'none', status: 200 },
      { name: 'an ontology term', path: `/api/profiles/schema/${SCHEMA}/terms/cell_type`, key: 'none', status: 200 },
      { name: 'unknown', path: `/api/profiles/schema/${SCHEMA}/terms/no_such_term`, key: 'none', status: 404 },
      { name: 'unknown schema', path: '/api/profiles/schema/nope/terms/study_id', key: 'none', status: 404 },
    ],
    'GET /api/profiles/schema/{schema_name}/components/{component}': [
      { name: 'a component', path: `/api/profiles/schema/${SCHEMA}/components/study`, key: 'none', status: 200 },
      { name: 'unknown', path: `/api/profiles/schema/${SCHEMA}/components/nope`, key: 'none', status: 404 },
    ],
    'GET /api/profiles/{profile_id}/schema/{schema_name}/template': [
      { name: 'template', path: `${profile}/schema/${SCHEMA}/template?checklist_id=${CHECKLIST}`, key: 'owner', status: 200 },
      { name: 'unknown checklist', path: `${profile}/schema/${SCHEMA}/template?checklist_id=nope`, key: 'owner', status: 400 },
      { name: 'unknown schema', path: `${profile}/schema/nope/template?checklist_id=${CHECKLIST}`, key: 'owner', status: 404 },
      { name: 'no key', path: `${profile}/schema/${SCHEMA}/template?checklist_id=${CHECKLIST}`, key: 'none', status: 401 },
    ],
    'GET /api/profiles/{profile_id}/schema/{schema_name}/studies': [
      { name: 'list', path: `${studyBase}?limit=5`, key: 'owner', status: 200 },
      { name: 'one checklist', path: `${studyBase}?checklist_id=${CHECKLIST}`, key: 'owner', status: 200 },
      { name: 'unknown checklist', path: `${studyBase}?checklist_id=nope`, key: 'owner', status: 400 },
      { name: 'unknown schema', path: `${profile}/schema/nope/studies`, key: 'owner', status: 404 },
      { name: 'another’s', path: studyBase, key: 'stranger', status: 404 },
    ],
    'POST /api/profiles/{profile_id}/schema/{schema_name}/studies': [
      { name: 'a new study', path: studyBase, key: 'owner', form: studyForm(NEW_STUDY), status: 200 },
      { name: 'the same again', path: studyBase, key: 'owner', form: studyForm(NEW_STUDY), status: 200 },
      { name: 'a rule broken', path: studyBase, key: 'owner', form: studyForm(BAD_ID), status: 422 },
      {
        name: 'another checklist',
        path: studyBase,
        key: 'owner',
        form: studyForm(OTHER_CHECKLIST, 'version_mixs_sc_rnaseq'),
        status: 409,
      },
      { name: 'not a workbook', path: studyBase, key: 'owner', form: studyForm(new Uint8Array([1, 2, 3])), status: 400 },
      {
        name: 'another type',
        path: studyBase,
        key: 'owner',
        form: studyForm(new Uint8Array([1, 2, 3]), CHECKLIST, 'study.pdf'),
        status: 415,
      },
      { name: 'no file', path: studyBase, key: 'owner', form: () => new FormData(), status: 400 },
      { name: 'JSON', path: studyBase, key: 'owner', json: {}, status: 415 },
      { name: 'another’s', path: studyBase, key: 'stranger', form: studyForm(NEW_STUDY), status: 404 },
    ],
    [`GET ${studyPath}`]: [
      { name: 'xlsx', path: study, key: 'owner', status: 200 },
      { name: 'jsonld', path: `${study}?return_type=jsonld`, key: 'owner', status: 200 },
      { name: 'bad type', path: `${study}?return_type=pdf`, key: 'owner', status: 400 },
      { name: 'unknown', path: unknownStudy, key: 'owner', status: 404 },
    ],
    [`POST ${studyPath}/action/submit`]: [
      { name: 'submit', path: `${study}/action/submit?repository=ena`, method: 'POST', key: 'owner', status: 202 },
      { name: 'twice', path: `${study}/action/submit?repository=ENA`, method: 'POST', key: 'owner', status: 409 },
      { name: 'unknown repository', path: `${study}/action/submit?repository=nope`, method: 'POST', key: 'owner', status: 400 },
      { name: 'unknown study', path: `${unknownStudy}/action/submit`, method: 'POST', key: 'owner', status: 404 },
    ],
    [`GET ${studyPath}/action/submit`]: [
      { name: 'status', path: `${study}/action/submit?repository=ena`, key: 'owner', status: 200 },
      { name: 'never submitted', path: `${study}/action/submit?repository=zenodo`, key: 'owner', status: 200 },
      { name: 'unknown repository', path: `${study}/action/submit?repository=figshare`, key: 'owner', status: 400 },
      { name: 'unknown study', path: `${unknownStudy}/action/submit`, key: 'owner', status: 404 },
    ],
    [`GET ${studyPath}/action/accession`]: [
      { name: 'json', path: `${study}/action/accession`, key: 'owner', status: 200 },
      { name: 'csv', path: `${study}/action/accession?return_type=csv`, key: 'owner', status: 200 },
      { name: 'bad type', path: `${study}/action/accession?return_type=xml`, key: 'owner', status: 400 },
      { name: 'unknown study', path: `${unknownStudy}/action/accession`, key: 'owner', status: 404 },
    ],
    [`POST ${studyPath}/action/accession`]: [
      { name: 'json', path: `${study}/action/accession?repository=ena`, method: 'POST', key: 'owner', status: 200 },
      { name: 'unknown repository', path: `${study}/action/accession?repository=nope`, method: 'POST', key: 'owner', status: 400 },
    ],
    [`POST ${studyPath}/action/publish`]: [
      { name: 'not submitted to zenodo', path: `${study}/action/publish?repository=zenodo`, method: 'POST', key: 'owner', status: 409 },
      { name: 'no repository', path: `${study}/action/publish`, method: 'POST', key: 'owner', status: 400 },
      { name: 'unknown repository', path: `${study}/action/publish?repository=nope`, method: 'POST', key: 'owner', status: 400 },
      { name: 'unknown study', path: `${unknownStudy}/action/publish?repository=ena`, method: 'POST', key: 'owner', status: 404 },
      { name: 'no key', path: `${study}/action/publish?repository=ena`, method: 'POST', key: 'none', status: 401 },
    ],
  };
}
