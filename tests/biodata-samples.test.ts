import { and, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, biodataSamples, submissions } from '@/db/schema';
import { giveUpBiodataRegistration } from '@/lib/biodata-samples/registration-job';
import type { SchemaName } from '@/lib/checklists/contract';
import type { ChecklistField } from '@/lib/sample-checklists/contract';
import { refreshEnaChecklists } from '@/lib/sample-checklists/refresh';
import type { SequenceDataList } from '@/lib/submissions/study/contract';
import { fillSampleSheet, validSampleRows } from './fixtures/biodata/sheet';
import { buildTaxonRecords, fakeTaxonomy } from './fixtures/manifests/taxa';
import { bytesOf, definition, studiesApi } from './fixtures/studies/api';
import { withDataFiles } from './fixtures/studies/data-files';
import { type FixtureSample, fillTemplate, fixtureComponents, workbookBytes } from './fixtures/studies/fill';
import { waitFor } from './support/flows';
import { createHarness, type Harness } from './support/harness';
import { expectProblem } from './support/http';
import { type RepositoryServer, startRepositoryServer } from './support/repository-server';

/**
 * A researcher outside the Tree of Life registers samples against ENA's checklists: the template of a checklist,
 * filled, validated cell by cell into a report, confirmed into the profile, registered at ENA (one SAMPLE_SET, valid by
 * ENA's XSDs, with ENA-CHECKLIST), accessions back; a corrected re-upload goes to ENA by MODIFY.
 */

type Issue = { row: number | null; column: string | null; field: string | null; value: string | null; rule: string; message: string };
type Report = {
  status: string;
  errors: Issue[];
  warnings: Issue[];
  mode: string;
  changes: { field: string; oldValue: string; newValue: string }[];
};
type Sample = {
  svc_id: string;
  sample: string;
  status: string;
  status_detail: string | null;
  biosampleAccession: string | null;
  sraAccession: string | null;
  TAXON_ID: string;
  SCIENTIFIC_NAME: string;
  fields: Record<string, string>;
};

let server: RepositoryServer;
let h: Harness;
let owner: Awaited<ReturnType<Harness['user']>>;
let profileId: string;
const json = { 'content-type': 'application/json' };

beforeAll(async () => {
  server = await startRepositoryServer({ taxa: buildTaxonRecords().records });
  h = await createHarness(
    { ...server.enaSettings, ENA_FTP_URL: server.ftpUrl, OLS_URL: server.olsUrl },
    { workers: true, taxonomy: fakeTaxonomy() },
  );
  await refreshEnaChecklists({ db: h.database.db, config: h.config, logger: h.deps.logger, http: { retries: 0 } });
  owner = await h.user({ username: 'single-cell-lab' });
  const res = await h.request('/api/profiles', {
    method: 'POST',
    key: owner.key,
    headers: json,
    body: JSON.stringify({ title: 'PBMC atlas', description: 'single-cell samples', type: 'biodata' }),
  });
  expect(res.status).toBe(201);
  profileId = ((await res.json()) as { id: string }).id;
}, 120_000);
afterAll(async () => {
  await h?.close();
  await server?.close();
});

const fieldsOf = async (checklistId: string) =>
  ((await (await h.request(`/api/sample/checklists/${checklistId}`)).json()) as { fields: ChecklistField[] }).fields;

async function template(checklistId: string): Promise<ArrayBuffer> {
  const res = await h.request(`/api/profiles/${profileId}/samples/template?checklist_id=${checklistId}`, { key: owner.key });
  expect(res.status).toBe(200);
  return res.arrayBuffer();
}

async function upload(checklistId: string, rows: Record<string, string>[], name = 'samples.xlsx'): Promise<{ id: string; report: Report }> {
  const fd = new FormData();
  fd.set('checklist_id', checklistId);
  fd.set('file', new File([await fillSampleSheet(await template(checklistId), rows)], name));
  const res = await h.request(`/api/profiles/${profileId}/samples`, { method: 'POST', key: owner.key, body: fd });
  expect(res.status, await res.clone().text()).toBe(202);
  const { report_id } = (await res.json()) as { report_id: string };
  const report = await waitFor(
    async () => (await (await h.request(`/api/manifest/validate/report/${report_id}`, { key: owner.key })).json()) as Report,
    (r) => r.status === 'complete' || r.status === 'failed',
    'the sheet’s report',
  );
  return { id: report_id, report };
}

/** The letter of a header's column in a checklist's template. */
async function columnOf(checklistId: string, header: string): Promise<string> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(await template(checklistId));
  let letter = '';
  workbook
    .getWorksheet('Metadata Entry')
    ?.getRow(1)
    .eachCell((cell) => {
      if (cell.value === header) letter = cell.address.replace(/[0-9]+$/, '');
    });
  return letter;
}

const confirm = (id: string) =>
  h.request('/api/manifest/validate/confirm', {
    method: 'POST',
    key: owner.key,
    headers: json,
    body: JSON.stringify({ validation_report_id: id }),
  });

const samplesOfProfile = async () =>
  (await (await h.request(`/api/profiles/${profileId}/samples?limit=100`, { key: owner.key })).json()) as Sample[];

describe('a checklist’s template, filled', () => {
  it.each(['ERC000011', 'ERC000022', 'ERC000053', 'COPO_DWC', 'COPO_FAANG'])('validates with no error: %s', async (checklistId) => {
    const rows = validSampleRows(await fieldsOf(checklistId), 2, `${checklistId.toLowerCase().replace('_', '')}x`);
    const { report } = await upload(checklistId, rows);
    expect(report.errors).toEqual([]);
    expect(report.mode).toBe('create');
  });
});

describe('each mistake is one error at its cell', () => {
  it.each([
    ['a mandatory field left empty', { 'collection date': '' }, 'mandatory', 'collection date'],
    ['a date that does not exist', { 'collection date': '2023-02-30' }, 'date', 'collection date'],
    [
      'a country not in the list',
      { 'geographic location (country and/or sea)': 'Atlantis' },
      'vocabulary',
      'geographic location (country and/or sea)',
    ],
    [
      'a unit the field does not take',
      { 'sample volume or weight for DNA extraction': '2', 'sample volume or weight for DNA extraction unit': 'litre' },
      'unit',
      'sample volume or weight for DNA extraction unit',
    ],
    ['a scientific name that is not the taxon’s', { SCIENTIFIC_NAME: 'Pieris brassicae' }, 'taxon_mismatch', 'SCIENTIFIC_NAME'],
  ] as const)('%s', async (_what, edit, rule, field) => {
    const fields = await fieldsOf('ERC000011');
    const rows = validSampleRows(fields, 3, 'mistake');
    Object.assign(rows[1]!, edit);
    const { report } = await upload('ERC000011', rows);
    expect(report.errors.map((e) => [e.rule, e.row, e.field])).toEqual([[rule, 3, field]]);
    // at the sheet's column of that header
    expect(report.errors[0]!.column).toBe(await columnOf('ERC000011', field));
  });

  it('respells a choice given in another case, and fills the unit of a field that has one', async () => {
    const fields = await fieldsOf('ERC000022');
    const rows = validSampleRows(fields, 1, 'spelling');
    rows[0]!['investigation type'] = 'METAGENOME';
    delete rows[0]!['depth unit'];
    const { report } = await upload('ERC000022', rows);
    expect(report.errors).toEqual([]);
    expect(report.warnings.map((w) => w.rule)).toContain('vocabulary_normalised');
  });
});

describe('samples confirmed and registered', () => {
  let first: Sample[];

  it('are stored in the profile when the report is confirmed', async () => {
    const rows = validSampleRows(await fieldsOf('ERC000011'), 3, 'pbmc');
    const { id, report } = await upload('ERC000011', rows);
    expect(report.errors).toEqual([]);
    const res = await confirm(id);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ manifest_id: id, created: 3, updated: 0 });
    first = (await samplesOfProfile()).filter((s) => s.sample.startsWith('pbmc'));
    expect(first.map((s) => [s.sample, s.status])).toEqual(
      expect.arrayContaining([
        ['pbmc1', 'confirmed'],
        ['pbmc2', 'confirmed'],
        ['pbmc3', 'confirmed'],
      ]),
    );
  });

  it('are registered at ENA as one SAMPLE_SET with ENA-CHECKLIST, held until the release date, and get their accessions', async () => {
    const before = server.ena.submissions.length;
    const res = await h.request('/api/sample/register', {
      method: 'POST',
      key: owner.key,
      headers: json,
      body: JSON.stringify({ svc_ids: first.map((s) => s.svc_id), release_date: '2027-06-30' }),
    });
    expect(res.status, await res.clone().text()).toBe(202);
    const done = await waitFor(
      samplesOfProfile,
      (all) => all.filter((s) => s.sample.startsWith('pbmc')).every((s) => s.status === 'accepted'),
      'the accessions',
    );
    for (const s of done.filter((x) => x.sample.startsWith('pbmc'))) {
      expect(s.biosampleAccession).toMatch(/^SAMEA\d+$/);
      expect(s.sraAccession).toMatch(/^ERS\d+$/);
    }
    const sent = server.ena.submissions.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ success: true, actions: ['ADD', 'HOLD'] });
    const held = server.ena.objects().filter((o) => first.some((s) => s.svc_id === o.alias));
    // as ENA's receipts write the day
    expect(held.map((o) => o.holdUntilDate)).toEqual(['2027-06-30+00:00', '2027-06-30+00:00', '2027-06-30+00:00']);
    const body = server.requests.filter((r) => r.path.endsWith('/webin-v2/submit')).at(-1)?.body ?? '';
    expect(body).toContain('<TAG>ENA-CHECKLIST</TAG>');
    expect(body).toContain('<VALUE>ERC000011</VALUE>');
    expect(body).toContain('<TAG>collection date</TAG>');
  });

  it('sends a corrected re-upload of a registered sample to ENA by MODIFY, with its history', async () => {
    const rows = validSampleRows(await fieldsOf('ERC000011'), 3, 'pbmc');
    rows[0]!['collection date'] = '2024-04-30';
    const { id, report } = await upload('ERC000011', rows);
    expect(report.errors).toEqual([]);
    expect(report.mode).toBe('update');
    expect(report.changes.map((c) => [c.field, c.oldValue, c.newValue])).toEqual([['collection date', '2024-05-01', '2024-04-30']]);
    const before = server.ena.submissions.length;
    expect(await (await confirm(id)).json()).toMatchObject({ created: 0, updated: 1 });
    const pbmc1 = first.find((s) => s.sample === 'pbmc1')!;
    await waitFor(samplesOfProfile, (all) => all.find((s) => s.svc_id === pbmc1.svc_id)?.status === 'accepted', 'the change at ENA');
    const sent = server.ena.submissions.slice(before);
    expect(sent.map((s) => s.actions)).toEqual([['MODIFY']]);
    const [row] = await h.database.db.select().from(biodataSamples).where(eq(biodataSamples.id, pbmc1.svc_id));
    expect(row?.fields['collection date']).toBe('2024-04-30');
  });

  it('refuses to register again what ENA holds, naming it', async () => {
    const body = await expectProblem(
      await h.request('/api/sample/register', {
        method: 'POST',
        key: owner.key,
        headers: json,
        body: JSON.stringify({ svc_ids: [first[0]!.svc_id] }),
      }),
      409,
    );
    expect(body.detail).toMatch(/Already registered at ENA: pbmc\d \(SAMEA\d+\)/);
  });
});

describe('refused by ENA, and removed', () => {
  const register = (svcIds: string[]) =>
    h.request('/api/sample/register', { method: 'POST', key: owner.key, headers: json, body: JSON.stringify({ svc_ids: svcIds }) });
  const confirmed = async (prefix: string, n: number) => {
    const { id, report } = await upload('ERC000011', validSampleRows(await fieldsOf('ERC000011'), n, prefix));
    expect(report.errors).toEqual([]);
    expect((await confirm(id)).status).toBe(200);
    return (await samplesOfProfile()).filter((s) => s.sample.startsWith(prefix));
  };

  it('keeps ENA’s words on a refused sample, and sends it again when asked', async () => {
    const [sample] = await confirmed('refusal', 1);
    server.faults.errorReceipt(10, [`Sample: ${sample!.svc_id}; Attribute: collection date; Reason: must not be in the future`]);
    expect((await register([sample!.svc_id])).status).toBe(202);
    const [refused] = await waitFor(
      async () => (await samplesOfProfile()).filter((s) => s.svc_id === sample!.svc_id),
      (r) => r[0]?.status === 'refused',
      'the refusal',
    );
    expect(refused!.status_detail).toContain('collection date; Reason: must not be in the future');
    expect(refused!.biosampleAccession).toBeNull();

    server.faults.clear();
    expect((await register([sample!.svc_id])).status).toBe(202);
    const [accepted] = await waitFor(
      async () => (await samplesOfProfile()).filter((s) => s.svc_id === sample!.svc_id),
      (r) => r[0]?.status === 'accepted',
      'the second registration',
    );
    expect(accepted!.biosampleAccession).toMatch(/^SAMEA\d+$/);
  });

  it('waits while ENA is down, saying so; the last attempt refuses the samples with why, and they can be sent again', async () => {
    const [sample] = await confirmed('outage', 1);
    server.faults.fail(1000, { service: 'ena', status: 503 });
    expect((await register([sample!.svc_id])).status).toBe(202);
    const [waiting] = await waitFor(
      async () => (await samplesOfProfile()).filter((s) => s.svc_id === sample!.svc_id),
      (r) => r[0]?.status_detail?.startsWith('ENA could not be reached') ?? false,
      'the outage to show',
    );
    expect(waiting!.status).toBe('processing');
    expect(waiting!.status_detail).toMatch(/next try at \d{4}-\d{2}-\d{2}T/);

    // the queue's last attempt ends it: what the give-up of the job does
    const [sub] = await h.database.db
      .select()
      .from(submissions)
      .where(and(eq(submissions.kind, 'biodata_samples'), eq(submissions.status, 'processing')));
    await giveUpBiodataRegistration(h.database.db, sub!.id, 'ENA could not be reached for two days');
    const [refused] = (await samplesOfProfile()).filter((s) => s.svc_id === sample!.svc_id);
    expect(refused).toMatchObject({ status: 'refused', biosampleAccession: null });
    expect(refused!.status_detail).toContain('ENA could not be reached for two days');

    server.faults.clear();
    expect((await register([sample!.svc_id])).status).toBe(202);
    await waitFor(
      async () => (await samplesOfProfile()).filter((s) => s.svc_id === sample!.svc_id),
      (r) => r[0]?.status === 'accepted',
      'the registration once ENA is back',
    );
  });

  it('deletes a sample ENA never had, with an audit event, and refuses one ENA holds', async () => {
    const [mistake] = await confirmed('mistake-only', 1);
    const gone = await h.request(`/api/sample/${mistake!.svc_id.toUpperCase()}`, { method: 'DELETE', key: owner.key });
    expect(gone.status, await gone.clone().text()).toBe(204);
    expect((await samplesOfProfile()).some((s) => s.svc_id === mistake!.svc_id)).toBe(false);
    const [event] = await h.database.db.select().from(auditEvents).where(eq(auditEvents.objectId, mistake!.svc_id));
    expect(event).toMatchObject({
      action: 'delete',
      objectType: 'sample',
      profileId,
      detail: { sample: 'mistake-only1', status: 'confirmed' },
    });

    const registered = (await samplesOfProfile()).find((s) => s.status === 'accepted')!;
    const kept = await expectProblem(await h.request(`/api/sample/${registered.svc_id}`, { method: 'DELETE', key: owner.key }), 409);
    expect(kept.detail).toContain(`Sample ${registered.sample} is registered at ENA (${registered.biosampleAccession})`);

    // someone who may not see the profile learns nothing of the sample
    const stranger = await h.user({ username: 'not-in-the-lab' });
    await expectProblem(await h.request(`/api/sample/${registered.svc_id}`, { method: 'DELETE', key: stranger.key }), 404);
  });

  it('keeps a profile whose samples ENA holds', async () => {
    const kept = await expectProblem(await h.request(`/api/profiles/${profileId}`, { method: 'DELETE', key: owner.key }), 409);
    expect(kept.detail).toMatch(/cannot be deleted: Sample \S+ is registered at ENA \(SAMEA\d+\)/);
  });
});

describe('a single-cell study of the profile’s samples', () => {
  const SCHEMA = 'svc_single_cell';
  const CHECKLIST = 'version_dwc_sc_rnaseq';
  const studyOf = async (studyId: string, samples: FixtureSample[], schema: SchemaName = SCHEMA, checklist = CHECKLIST) => {
    const api = studiesApi(h, owner.key, profileId);
    const def = await definition(h, schema, checklist);
    const template = await bytesOf(await api.template(schema, checklist));
    const { components } = await withDataFiles(h, owner.key, profileId, def, fixtureComponents(def, { studyId, samples }));
    return { api, bytes: await workbookBytes(await fillTemplate(template, def, components)) };
  };

  it('validates and reaches ENA when it names the profile’s registered samples by their accessions', async () => {
    const registered = (await samplesOfProfile()).filter((s) => s.status === 'accepted' && s.biosampleAccession).slice(0, 2);
    expect(registered).toHaveLength(2);
    const { api, bytes } = await studyOf(
      'PBMCSTUDY',
      registered.map((s) => ({ accession: s.biosampleAccession!, taxonId: s.TAXON_ID, scientificName: s.SCIENTIFIC_NAME })),
    );
    const saved = await api.upload(SCHEMA, CHECKLIST, bytes);
    expect(saved.status, await saved.clone().text()).toBe(200);
    const submit = (method = 'POST') =>
      h.request(`${api.base(SCHEMA)}/studies/PBMCSTUDY/action/submit?repository=ena`, { method, key: owner.key });
    expect((await submit()).status).toBe(202);
    const done = await waitFor(
      async () => (await (await submit('GET')).json()) as Record<string, string>,
      (s) => s.status === 'accepted' || s.status === 'rejected',
      'the study at ENA',
    );
    expect(done, JSON.stringify(done)).toMatchObject({ status: 'accepted' });
    // the runs point at the profile's samples
    const experiments = server.requests.filter((r) => r.service === 'ena' && r.body.includes('<EXPERIMENT'));
    expect(experiments.some((r) => r.body.includes(registered[0]!.biosampleAccession!))).toBe(true);
  });

  it('sends a reads study of the registered samples as PROJECT, EXPERIMENT, RUN and ANALYSIS, its files staged', async () => {
    const registered = (await samplesOfProfile()).filter((s) => s.status === 'accepted' && s.biosampleAccession).slice(0, 2);
    const { api, bytes } = await studyOf(
      'PBMCREADS',
      registered.map((s) => ({ accession: s.biosampleAccession!, taxonId: s.TAXON_ID, scientificName: s.SCIENTIFIC_NAME })),
      'svc_read',
      'version_dwc',
    );
    const saved = await api.upload('svc_read', 'version_dwc', bytes);
    expect(saved.status, await saved.clone().text()).toBe(200);
    const submit = (method = 'POST') =>
      h.request(`${api.base('svc_read')}/studies/PBMCREADS/action/submit?repository=ena`, { method, key: owner.key });
    expect((await submit()).status).toBe(202);
    const done = await waitFor(
      async () => (await (await submit('GET')).json()) as Record<string, string>,
      (s) => s.status === 'accepted' || s.status === 'rejected',
      'the reads study at ENA',
    );
    expect(done, JSON.stringify(done)).toMatchObject({ status: 'accepted' });
    const objects = server.ena.objects(server.credentials.ena.username).filter((o) => o.alias.includes(':PBMCREADS'));
    expect(objects.map((o) => o.type).sort()).toEqual(['ANALYSIS', 'ANALYSIS', 'EXPERIMENT', 'EXPERIMENT', 'PROJECT', 'RUN', 'RUN']);
    const experiments = server.requests.filter(
      (r) => r.service === 'ena' && r.body.includes('<EXPERIMENT') && r.body.includes('PBMCREADS'),
    );
    for (const s of registered) expect(experiments.some((r) => r.body.includes(`accession="${s.biosampleAccession}"`))).toBe(true);
    const staged = server.requests.filter((r) => r.service === 'ena' && r.body.includes('<RUN ') && r.body.includes('PBMCREADS'));
    expect(staged.some((r) => r.body.includes('read_file_read_1_file_1.fastq.gz'))).toBe(true);
    // without WEBIN_CLI_JAR its assemblies wait, saying which setting is missing
    const listed = (await (
      await h.request(`/api/profiles/${profileId}/sequence-data?kind=assembly`, { key: owner.key })
    ).json()) as SequenceDataList;
    const assemblies = listed.data.filter((d) => d.study_id === 'PBMCREADS');
    expect(assemblies.length).toBeGreaterThan(0);
    for (const a of assemblies) expect(a).toMatchObject({ state: 'waiting', detail: expect.stringContaining('WEBIN_CLI_JAR is not set') });
  });

  it('is refused while its samples are confirmed but not registered, naming them', async () => {
    const { id } = await upload('ERC000011', validSampleRows(await fieldsOf('ERC000011'), 2, 'unsent'));
    expect((await confirm(id)).status).toBe(200);
    const waiting = (await samplesOfProfile()).filter((s) => s.sample.startsWith('unsent'));
    const { api, bytes } = await studyOf(
      'UNSENT',
      waiting.map((s) => ({ accession: s.sample, taxonId: s.TAXON_ID, scientificName: s.SCIENTIFIC_NAME })),
    );
    const res = await api.upload(SCHEMA, CHECKLIST, bytes);
    expect(res.status).toBe(422);
    const { errors } = (await res.json()) as { errors: { message: string }[] };
    for (const name of ['unsent1', 'unsent2']) {
      expect(errors.some((e) => e.message.includes(`Sample ${name} of this profile is not registered at ENA yet: register it first`))).toBe(
        true,
      );
    }
  });
});
