import { asc, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { samples } from '@/db/schema';
import { XLSX } from '@/lib/api/schemas';
import { currentDefinition, type ManifestProject, METADATA_SHEET, parseManifest } from '@/lib/manifests';
import { manifestSamplesPage } from '@/lib/reports/confirmed';
import { validRows } from './fixtures/manifests/generate';
import { fakeTaxonomy } from './fixtures/manifests/taxa';
import { createProfile, uploadManifest, waitFor } from './support/flows';
import { createHarness, type Harness } from './support/harness';

/**
 * A confirmed manifest downloads as its template filled with the samples' current values, and uploads back as an
 * update: unchanged it changes nothing, and one cell edited in Excel is exactly one change.
 */

type Report = {
  status: string;
  mode: string | null;
  errors: { rule: string; message: string }[];
  changes: { sampleId: string; row: number; field: string; oldValue: string; newValue: string }[];
};

let h: Harness;
let owner: Awaited<ReturnType<Harness['user']>>;
let stranger: Awaited<ReturnType<Harness['user']>>;
let manager: Awaited<ReturnType<Harness['user']>>;
const json = { 'content-type': 'application/json' };

beforeAll(async () => {
  h = await createHarness({}, { workers: true, taxonomy: fakeTaxonomy() });
  owner = await h.user({ username: 'corrector', memberOf: ['dtol', 'asg', 'erga', 'dtolenv'] });
  stranger = await h.user({ username: 'neighbour', memberOf: ['dtol', 'asg', 'erga', 'dtolenv'] });
  manager = await h.user({ username: 'asg-lead', memberOf: ['asg'], managerOf: ['asg'] });
}, 120_000);
afterAll(() => h?.close());

/** A cell edited as a person does in Excel: a date as a date, a number as a number, a time as a time, text as text. */
interface Edit {
  field: string;
  cell: ExcelJS.CellValue;
  numFmt?: string;
  /** the text the upload reads from that cell */
  text: string;
}

const CASES: { project: ManifestProject; offset: number; profile: Record<string, unknown>; edit: Edit }[] = [
  {
    project: 'dtol',
    offset: 0,
    profile: { type: 'dtol' },
    edit: { field: 'DATE_OF_COLLECTION', cell: new Date('2023-06-14T00:00:00Z'), numFmt: 'dd/mm/yyyy', text: '2023-06-14' },
  },
  { project: 'asg', offset: 10, profile: { type: 'asg' }, edit: { field: 'DECIMAL_LATITUDE', cell: 51.7722, text: '51.7722' } },
  {
    project: 'erga',
    offset: 20,
    profile: { type: 'erga', associated_type: ['BGE'], sequencing_centre: ['CNAG'] },
    edit: { field: 'COLLECTED_BY', cell: 'Jane Smith | Joan Doe', text: 'Jane Smith | Joan Doe' },
  },
  {
    project: 'dtolenv',
    offset: 30,
    profile: { type: 'dtolenv' },
    edit: { field: 'TIME_OF_COLLECTION', cell: new Date('1899-12-30T11:45:00Z'), numFmt: 'hh:mm', text: '11:45' },
  },
];

/**
 * Six rows of a project that no other case's rows share a rack, tube or specimen with; ERGA's name no permit PDF,
 * and in DTOL and ASG the fourth is a symbiont in the first one's tube, as their manifests have them.
 */
function rowsOf(project: ManifestProject, offset: number): Record<string, string>[] {
  const rows = validRows(currentDefinition(project), offset + 6)
    .slice(offset)
    .map((r) =>
      project === 'erga'
        ? { ...r, SAMPLING_PERMITS_REQUIRED: 'N', SAMPLING_PERMITS_DEF: 'NOT_APPLICABLE', SAMPLING_PERMITS_FILENAME: 'NOT_APPLICABLE' }
        : r,
    );
  const [target, , , symbiont] = rows;
  if ((project === 'dtol' || project === 'asg') && target && symbiont) {
    Object.assign(symbiont, {
      TAXON_ID: '562',
      SCIENTIFIC_NAME: 'Escherichia coli',
      ORDER_OR_GROUP: 'Enterobacterales',
      FAMILY: 'Enterobacteriaceae',
      GENUS: 'Escherichia',
      SYMBIONT: 'SYMBIONT',
      RACK_OR_PLATE_ID: target.RACK_OR_PLATE_ID,
      TUBE_OR_WELL_ID: target.TUBE_OR_WELL_ID,
      SPECIMEN_ID: target.SPECIMEN_ID,
    });
  }
  return rows;
}

async function download(manifestId: string, key = owner.key): Promise<Buffer> {
  const res = await h.request(`/api/manifest/${manifestId}/spreadsheet`, { key });
  expect(res.status, await res.clone().text()).toBe(200);
  expect(res.headers.get('content-type')).toBe(XLSX);
  expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="manifest_current_v[0-9.]+\.xlsx"$/);
  return Buffer.from(await res.arrayBuffer());
}

async function validate(profileId: string, file: Buffer): Promise<{ id: string; report: Report }> {
  const fd = new FormData();
  fd.set('profile_id', profileId);
  fd.set('file', new File([new Uint8Array(file)], 'corrected.xlsx'));
  const res = await h.request('/api/manifest/validate', { method: 'POST', key: owner.key, body: fd });
  expect(res.status).toBe(202);
  const { report_id } = (await res.json()) as { report_id: string };
  const report = await waitFor(
    async () => (await (await h.request(`/api/manifest/validate/report/${report_id}`, { key: owner.key })).json()) as Report,
    (r) => r.status === 'complete' || r.status === 'failed',
    'the validation report',
  );
  return { id: report_id, report };
}

async function edited(file: Buffer, row: number, edit: Edit): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(file as unknown as ExcelJS.Buffer);
  const sheet = workbook.getWorksheet(METADATA_SHEET);
  let column = 0;
  sheet?.getRow(1).eachCell((cell, c) => {
    if (cell.value === edit.field) column = c;
  });
  expect(column).toBeGreaterThan(0);
  const cell = sheet?.getRow(row).getCell(column);
  if (!cell) throw new Error('no cell');
  cell.value = edit.cell;
  if (edit.numFmt) cell.numFmt = edit.numFmt;
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

const storedOf = (manifestId: string) =>
  h.database.db
    .select({ id: samples.id, fields: samples.fields })
    .from(samples)
    .where(eq(samples.manifestId, manifestId))
    .orderBy(asc(samples.id));

describe.each(CASES)('$project: a confirmed manifest back as a spreadsheet', ({ project, offset, profile, edit }) => {
  const definition = currentDefinition(project);
  const uploaded = rowsOf(project, offset);
  // a re-upload may not name symbionts: the spreadsheet holds the targets
  const rows = uploaded.filter((r) => r.SYMBIONT !== 'SYMBIONT');
  let profileId: string;
  let manifestId: string;
  let file: Buffer;

  beforeAll(async () => {
    profileId = await createProfile(h, owner.key, { title: `${project} corrections`, description: '', ...profile });
    manifestId = (await uploadManifest(h, owner.key, profileId, uploaded)).manifest_id;
  }, 60_000);

  it('downloads as the template of its version, one row per target sample in the uploaded order, with the stored values', async () => {
    file = await download(manifestId);
    const parsed = await parseManifest(file, 'm.xlsx', { definition });
    expect(parsed.headers).toEqual(definition.fields.map((f) => f.name));
    expect(parsed.rows.map((r) => [r.values.TUBE_OR_WELL_ID, r.values.TAXON_ID])).toEqual(rows.map((r) => [r.TUBE_OR_WELL_ID, r.TAXON_ID]));
    const stored = await storedOf(manifestId);
    expect(stored.length).toBe(uploaded.length);
    const targets = new Map(stored.filter((s) => s.fields.SYMBIONT !== 'SYMBIONT').map((s) => [s.fields.TUBE_OR_WELL_ID, s.fields]));
    for (const r of parsed.rows) {
      const fields = targets.get(r.values.TUBE_OR_WELL_ID) ?? {};
      const expected = Object.fromEntries(definition.fields.map((f) => [f.name, fields[f.name] ?? '']).filter(([, v]) => v !== ''));
      expect(r.values).toEqual(expected);
    }
    // typed as Excel would hold them, where they read back the same
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file as unknown as ExcelJS.Buffer);
    const sheet = workbook.getWorksheet(METADATA_SHEET);
    const cellOf = (field: string) => sheet?.getRow(2).getCell(definition.fields.findIndex((f) => f.name === field) + 1).value;
    expect(cellOf('DATE_OF_COLLECTION')).toBeInstanceOf(Date);
    expect(typeof cellOf('DECIMAL_LATITUDE')).toBe('number');
    expect(cellOf('SPECIMEN_ID')).toBe(rows[0]?.SPECIMEN_ID);
  });

  it('lists its samples on the manifest’s page in the uploaded rows’ order, page by page, a symbiont beside its target', async () => {
    const tubes = uploaded.map((r) => r.TUBE_OR_WELL_ID);
    const expected = [...tubes].sort((a, b) => tubes.indexOf(a) - tubes.indexOf(b));
    const first = await manifestSamplesPage(h.database.db, owner.user, manifestId, { limit: 4, offset: 0 });
    const rest = await manifestSamplesPage(h.database.db, owner.user, manifestId, { limit: 4, offset: 4 });
    expect(first.total).toBe(uploaded.length);
    expect([...first.samples, ...rest.samples].map((s) => s.tubeOrWellId)).toEqual(expected);
  });

  it('uploads back unchanged as an update with nothing to change', async () => {
    const { report } = await validate(profileId, file);
    expect(report.errors).toEqual([]);
    expect(report.mode).toBe('update');
    expect(report.changes).toEqual([]);
  });

  it('uploads back with one edited cell as exactly that change, which the next download holds', async () => {
    const { id, report } = await validate(profileId, await edited(file, 3, edit));
    expect(report.errors).toEqual([]);
    expect(report.mode).toBe('update');
    const sample = (await storedOf(manifestId)).find(
      (s) => s.fields.TUBE_OR_WELL_ID === rows[1]?.TUBE_OR_WELL_ID && s.fields.SYMBIONT !== 'SYMBIONT',
    );
    expect(report.changes).toEqual([
      { sampleId: sample?.id, row: 3, field: edit.field, oldValue: rows[1]?.[edit.field], newValue: edit.text },
    ]);

    const confirmed = await h.request('/api/manifest/validate/confirm', {
      method: 'POST',
      key: owner.key,
      headers: json,
      body: JSON.stringify({ validation_report_id: id }),
    });
    expect(confirmed.status).toBe(200);
    const again = await parseManifest(await download(manifestId), 'm.xlsx', { definition });
    expect(again.rows[1]?.values[edit.field]).toBe(edit.text);
    expect(again.rows.map((r) => r.values.TUBE_OR_WELL_ID)).toEqual(rows.map((r) => r.TUBE_OR_WELL_ID));
  });
});

describe('who may download a manifest', () => {
  let manifestId: string;
  beforeAll(async () => {
    const profileId = await createProfile(h, owner.key, { title: 'Who reads', description: '', type: 'asg' });
    manifestId = (await uploadManifest(h, owner.key, profileId, rowsOf('asg', 40))).manifest_id;
  }, 60_000);

  it('lets the project’s sample manager download it, and answers 404 to another member and to an unknown id', async () => {
    await download(manifestId, manager.key);
    expect((await h.request(`/api/manifest/${manifestId}/spreadsheet`, { key: stranger.key })).status).toBe(404);
    expect((await h.request('/api/manifest/00000000-0000-4000-8000-000000000000/spreadsheet', { key: owner.key })).status).toBe(404);
    expect((await h.request(`/api/manifest/${manifestId}/spreadsheet`)).status).toBe(401);
  });
});
