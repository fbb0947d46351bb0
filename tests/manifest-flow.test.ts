import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifests, samples, sampleUpdates, validationReports } from '@/db/schema';
import { currentDefinition, parseManifest } from '@/lib/manifests';
import { rowsOfStored } from '@/lib/manifests/stored-rows';
import { reportStoredRows } from '@/lib/reports/read';
import { typedColumns } from '@/lib/samples/columns';
import { validRows } from './fixtures/manifests/generate';
import { fakeTaxonomy } from './fixtures/manifests/taxa';
import { toCsv, toXlsx } from './fixtures/manifests/workbook';
import { createHarness, type Harness } from './support/harness';

type Report = {
  report_id: string;
  status: string;
  mode: string | null;
  summary: { rows: number; errors: number; warnings: number };
  errors: { row: number | null; column: string | null; field: string | null; value: string | null; rule: string; message: string }[];
  changes: { field: string; oldValue: string; newValue: string }[];
};

let h: Harness;
let owner: Awaited<ReturnType<Harness['user']>>;
let manager: Awaited<ReturnType<Harness['user']>>;
let stranger: Awaited<ReturnType<Harness['user']>>;
let profileId: string;
const dtol = currentDefinition('dtol');
const headers = dtol.fields.map((f) => f.name);
const json = { 'content-type': 'application/json' };

beforeAll(async () => {
  h = await createHarness({ UPLOAD_MAX_BYTES: String(2 * 1024 * 1024) }, { workers: true, taxonomy: fakeTaxonomy() });
  owner = await h.user({ username: 'uploader', memberOf: ['dtol'] });
  manager = await h.user({ username: 'dtol-manager', memberOf: ['dtol'], managerOf: ['dtol'] });
  stranger = await h.user({ username: 'stranger', memberOf: ['dtol'] });
  const res = await h.request('/api/profiles', {
    method: 'POST',
    key: owner.key,
    headers: json,
    body: JSON.stringify({ title: 'Wytham Woods Lepidoptera', description: 'moths and butterflies', type: 'dtol' }),
  });
  profileId = ((await res.json()) as { id: string }).id;
}, 120_000);
afterAll(() => h.close());

async function upload(file: Buffer, name = 'manifest.xlsx', key = owner.key, profile = profileId): Promise<Response> {
  const fd = new FormData();
  fd.set('profile_id', profile);
  fd.set('file', new File([new Uint8Array(file)], name));
  return h.request('/api/manifest/validate', { method: 'POST', key, body: fd });
}

/** Polls the report as a client would, until the job has finished. */
async function reportOf(id: string, key = owner.key): Promise<Report> {
  for (let i = 0; i < 200; i++) {
    const res = await h.request('/api/manifest/validate/report', {
      method: 'POST',
      key,
      headers: json,
      body: JSON.stringify({ validation_report_id: id }),
    });
    expect(res.status).toBe(200);
    const r = (await res.json()) as Report;
    if (r.status === 'complete' || r.status === 'failed') return r;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('report never finished');
}

async function validated(rows: Record<string, string>[]): Promise<Report> {
  const res = await upload(await toXlsx(headers, rows, { typed: true }));
  expect(res.status).toBe(202);
  return reportOf(((await res.json()) as { report_id: string }).report_id);
}

const confirm = (id: string, key = owner.key) =>
  h.request('/api/manifest/validate/confirm', { method: 'POST', key, headers: json, body: JSON.stringify({ validation_report_id: id }) });

describe('manifest upload, validation report and confirmation', () => {
  const rows = validRows(dtol, 3);
  let manifestId: string;

  it('validates a realistic manifest in a job and reports no errors', async () => {
    const report = await validated(rows);
    expect(report.errors).toEqual([]);
    expect(report).toMatchObject({ status: 'complete', mode: 'create', summary: { rows: 3, errors: 0 } });

    const res = await confirm(report.report_id);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { manifest_id: string; created: number; updated: number };
    expect(body.manifest_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body).toMatchObject({ created: 3, updated: 0 });
    manifestId = body.manifest_id;

    const stored = await h.database.db.select().from(samples).where(eq(samples.manifestId, manifestId));
    expect(stored).toHaveLength(3);
    for (const s of stored) {
      expect(s.id).toMatch(/^[0-9a-f]{24}$/);
      expect(s).toMatchObject({ status: 'pending', project: 'dtol', profileId, manifestVersion: dtol.version });
    }
    expect(stored.map((s) => s.tubeOrWellId).sort()).toEqual(rows.map((r) => r.TUBE_OR_WELL_ID).sort());
    expect(stored[0]!.fields.SCIENTIFIC_NAME).toBeTruthy();
    // the typed columns, made from the few fields confirm reads of each row, are those of the sample's whole fields
    for (const s of stored) expect(s).toMatchObject(typedColumns(s.fields));
    // each sample's fields are its row's values as validation kept them, copied within the database
    const kept = await reportStoredRows(h.database.db, report.report_id);
    const byTube = new Map(stored.map((s) => [s.tubeOrWellId, s.fields]));
    expect(kept?.normalised).toHaveLength(3);
    for (const row of kept ? rowsOfStored(kept).normalised : []) expect(byTube.get(row.values.TUBE_OR_WELL_ID ?? '')).toEqual(row.values);
    const [m] = await h.database.db.select().from(manifests).where(eq(manifests.id, manifestId));
    expect(m).toMatchObject({ project: 'dtol', version: dtol.version, profileId });
  });

  it('confirms a report once: the second confirmation is 409 and writes nothing', async () => {
    const [first] = await h.database.db.select().from(validationReports).where(eq(validationReports.confirmedManifestId, manifestId));
    const again = await confirm(first!.id);
    expect(again.status).toBe(409);
    expect((await again.json()).detail).toBe(`This report was already confirmed (manifest ${manifestId}).`);
    expect((await h.database.db.select().from(samples).where(eq(samples.manifestId, manifestId))).length).toBe(3);
  });

  it('creates the samples once when two confirmations of the same report race', async () => {
    const fresh = validRows(dtol, 8).slice(5); // other tubes than the first manifest
    const report = await validated(fresh);
    expect(report.errors).toEqual([]);
    const before = (await h.database.db.select().from(samples)).length;
    const results = await Promise.all([confirm(report.report_id), confirm(report.report_id)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    // the loser waited for the winner's profile lock: it is told the truth, naming the manifest the winner made
    const won = (await results.find((r) => r.status === 200)!.json()) as { manifest_id: string };
    const lost = (await results.find((r) => r.status === 409)!.json()) as { detail: string };
    expect(lost.detail).toBe(`This report was already confirmed (manifest ${won.manifest_id}).`);
    expect((await h.database.db.select().from(samples)).length).toBe(before + 3);
  });

  it('turns a re-upload with one changed updatable field into exactly one user audit record', async () => {
    const changed = rows.map((r) => ({ ...r }));
    changed[1]!.IDENTIFIED_BY = 'Richard Lewington';
    const report = await validated(changed);
    expect(report.errors).toEqual([]);
    expect(report.mode).toBe('update');
    expect(report.changes).toEqual([
      expect.objectContaining({ field: 'IDENTIFIED_BY', oldValue: rows[1]!.IDENTIFIED_BY, newValue: 'Richard Lewington' }),
    ]);

    const res = await confirm(report.report_id);
    expect(await res.json()).toEqual({ manifest_id: manifestId, created: 0, updated: 1 });
    const [sample] = await h.database.db.select().from(samples).where(eq(samples.tubeOrWellId, rows[1]!.TUBE_OR_WELL_ID!));
    expect(sample!.fields.IDENTIFIED_BY).toBe('Richard Lewington');
    const audit = await h.database.db.select().from(sampleUpdates).where(eq(sampleUpdates.sampleId, sample!.id));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      updateType: 'user',
      field: 'IDENTIFIED_BY',
      oldValue: rows[1]!.IDENTIFIED_BY,
      newValue: 'Richard Lewington',
      actorId: owner.user.id,
      manifestId,
    });
  });

  it('refuses, in the report, a change to a non-updatable field of an accessioned sample', async () => {
    const tube = rows[0]!.TUBE_OR_WELL_ID!;
    await h.database.db.update(samples).set({ biosampleAccession: 'SAMEA7519928' }).where(eq(samples.tubeOrWellId, tube));
    const current = (await h.database.db.select().from(samples).where(eq(samples.manifestId, manifestId))).sort(
      (a, b) => rows.findIndex((r) => r.TUBE_OR_WELL_ID === a.tubeOrWellId) - rows.findIndex((r) => r.TUBE_OR_WELL_ID === b.tubeOrWellId),
    );
    const edited = current.map((s) => ({ ...s.fields }));
    edited[0]!.COLLECTION_LOCATION = 'United Kingdom | Berkshire | Windsor Great Park';
    const report = await validated(edited);
    const issue = report.errors.find((e) => e.rule === 'not_updatable');
    expect(issue).toMatchObject({
      row: 2,
      field: 'COLLECTION_LOCATION',
      column: dtol.fields.find((f) => f.name === 'COLLECTION_LOCATION')!.column,
    });
    expect(issue!.message).toMatch(/cannot be updated because it is a part of the compliance process/);
    // the report page's group names it from the rule catalogue
    const groups = (await (await h.request(`/api/manifest/validate/report/${report.report_id}/groups`, { key: owner.key })).json()) as {
      groups: { rule: string; title: string }[];
    };
    expect(groups.groups.find((g) => g.rule === 'not_updatable')?.title).toBe('cannot change after registration');
    expect((await confirm(report.report_id)).status).toBe(409);
  });

  it('refuses a stale report: the profile’s samples changed after it was validated', async () => {
    const current = await h.database.db.select().from(samples).where(eq(samples.manifestId, manifestId));
    const base = current.map((s) => ({ ...s.fields }));
    const a = base.map((f) => ({ ...f }));
    a.find((f) => !f.BIOSAMPLE)!.IDENTIFIER_AFFILIATION = 'Butterfly Conservation';
    const reportA = await validated(a.filter((f) => f.TUBE_OR_WELL_ID !== rows[0]!.TUBE_OR_WELL_ID));
    const b = base.filter((f) => f.TUBE_OR_WELL_ID !== rows[0]!.TUBE_OR_WELL_ID).map((f) => ({ ...f, PRESERVED_BY: 'Someone Else' }));
    const reportB = await validated(b);
    expect(reportA.errors).toEqual([]);
    expect(reportB.errors).toEqual([]);
    expect((await confirm(reportB.report_id)).status).toBe(200);
    const stale = await confirm(reportA.report_id);
    expect(stale.status).toBe(409);
    expect(((await stale.json()) as { detail: string }).detail).toMatch(/validate the manifest again/);
  });
});

describe('reports with errors and bad uploads', () => {
  it('points at the row and column of each error', async () => {
    const rows = validRows(dtol, 12).slice(9);
    rows[0]!.DECIMAL_LATITUDE = '123.5';
    rows[2]!.SPECIMEN_ID = '';
    const report = await validated(rows);
    const lat = report.errors.find((e) => e.field === 'DECIMAL_LATITUDE');
    const spec = report.errors.find((e) => e.field === 'SPECIMEN_ID');
    expect(lat).toMatchObject({ row: 2, column: dtol.fields.find((f) => f.name === 'DECIMAL_LATITUDE')!.column, value: '123.5' });
    expect(spec).toMatchObject({ row: 4, column: dtol.fields.find((f) => f.name === 'SPECIMEN_ID')!.column });
    const res = await confirm(report.report_id);
    expect(res.status).toBe(409);
  });

  it('reads CSV manifests too', async () => {
    const res = await upload(toCsv(headers, validRows(dtol, 15).slice(13)), 'manifest.csv');
    const report = await reportOf(((await res.json()) as { report_id: string }).report_id);
    expect(report).toMatchObject({ status: 'complete', summary: { rows: 2, errors: 0 } });
  });

  it('refuses at once, with 422 and a reason, a file that is not a spreadsheet or has no Metadata Entry sheet', async () => {
    const count = async () => (await h.database.db.select().from(validationReports)).length;
    const before = await count();
    const notXlsx = await upload(Buffer.from('this is not a workbook'), 'manifest.xlsx');
    expect(notXlsx.status).toBe(422);
    expect(await notXlsx.json()).toMatchObject({ reason: 'not_a_spreadsheet' });
    const otherSheet = await upload(await toXlsx(headers, validRows(dtol, 1), { sheetName: 'Samples' }), 'manifest.xlsx');
    expect(otherSheet.status).toBe(422);
    const body = (await otherSheet.json()) as { reason: string; detail: string };
    expect(body.reason).toBe('no_metadata_sheet');
    expect(body.detail).toContain("'Samples'");
    const binaryCsv = await upload(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x01]), 'manifest.csv');
    expect(binaryCsv.status).toBe(422);
    expect((await upload(Buffer.alloc(0), 'manifest.xlsx')).status).toBe(422);
    expect(await count()).toBe(before);
  });

  it('refuses other file types (415), missing fields (400) and oversized files (413), storing no report', async () => {
    const count = async () => (await h.database.db.select().from(validationReports)).length;
    const before = await count();
    expect((await upload(Buffer.from('x'), 'manifest.pdf')).status).toBe(415);
    const fd = new FormData();
    fd.set('profile_id', profileId);
    expect((await h.request('/api/manifest/validate', { method: 'POST', key: owner.key, body: fd })).status).toBe(400);
    expect((await upload(Buffer.alloc(3 * 1024 * 1024, 65), 'big.csv')).status).toBe(413);
    expect(await count()).toBe(before);
  });

  it('hides profiles and reports of other users behind 404', async () => {
    expect((await upload(await toXlsx(headers, validRows(dtol, 1)), 'm.xlsx', stranger.key)).status).toBe(404);
    const [any] = await h.database.db.select().from(validationReports).where(eq(validationReports.userId, owner.user.id));
    const res = await h.request('/api/manifest/validate/report', {
      method: 'POST',
      key: stranger.key,
      headers: json,
      body: JSON.stringify({ validation_report_id: any!.id }),
    });
    expect(res.status).toBe(404);
    const unknown = await h.request('/api/manifest/validate/report', {
      method: 'POST',
      key: stranger.key,
      headers: json,
      body: JSON.stringify({ validation_report_id: '00000000-0000-4000-8000-000000000000' }),
    });
    expect(unknown.status).toBe(404);
    expect((await h.request('/api/manifest/validate/report', { method: 'POST', headers: json, body: '{}' })).status).toBe(401);
  });

  it('lists the caller’s reports, newest first, with their ids', async () => {
    const res = await h.request('/api/manifest/validations', { method: 'POST', key: owner.key });
    const list = (await res.json()) as { validation_report_id: string; created: string }[];
    expect(list.length).toBeGreaterThan(3);
    expect([...list].sort((a, b) => b.created.localeCompare(a.created))).toEqual(list);
    const theirs = (await (await h.request('/api/manifest/validations', { method: 'POST', key: stranger.key })).json()) as unknown[];
    expect(theirs).toEqual([]);
  });
});

describe('approval by sample managers', () => {
  it('lets a manager accept and reject pending samples; others get 404 and nothing changes', async () => {
    const pending = await h.database.db
      .select()
      .from(samples)
      .where(and(eq(samples.profileId, profileId), eq(samples.status, 'pending')));
    expect(pending.length).toBeGreaterThan(1);
    const [a, b] = pending;
    const decide = (key: string, body: unknown) =>
      h.request('/api/sample/decision', { method: 'POST', key, headers: json, body: JSON.stringify(body) });

    expect((await decide(owner.key, { svc_ids: [a!.id], decision: 'accept' })).status).toBe(404);
    expect((await h.database.db.select().from(samples).where(eq(samples.id, a!.id)))[0]!.status).toBe('pending');

    const queue = (await (await h.request('/api/sample/pending', { key: manager.key })).json()) as {
      number_found: number;
      data: { svc_id: string; time_created: string }[];
    };
    expect(queue.data.map((s) => s.svc_id)).toContain(a!.id);
    // each named as the review queue names it: its manifest's labels, as the manifest gave them
    expect(queue.data.find((s) => s.svc_id === a!.id)).toEqual({
      svc_id: a!.id,
      manifest_id: a!.manifestId,
      profile_id: profileId,
      tol_project: 'DTOL',
      status: 'pending',
      SPECIMEN_ID: a!.fields.SPECIMEN_ID,
      RACK_OR_PLATE_ID: a!.fields.RACK_OR_PLATE_ID,
      TUBE_OR_WELL_ID: a!.fields.TUBE_OR_WELL_ID,
      TAXON_ID: a!.fields.TAXON_ID,
      SCIENTIFIC_NAME: a!.fields.SCIENTIFIC_NAME,
      // no approval given yet; DTOL awaited, which the project's manager gives
      approvals: [],
      waiting_for: ['DTOL'],
      waiting_for_you: ['DTOL'],
      time_created: a!.timeCreated.toISOString(),
    });
    // the newest first, as the review queue; sort=oldest turns it round
    const times = (q: { data: { time_created: string }[] }) => q.data.map((s) => s.time_created);
    const newest = times(queue);
    expect(newest).toEqual([...newest].sort().reverse());
    const oldest = (await (await h.request('/api/sample/pending?sort=oldest', { key: manager.key })).json()) as {
      data: { time_created: string }[];
    };
    expect(times(oldest)).toEqual([...times(oldest)].sort());
    expect(new Set(times(oldest))).toEqual(new Set(newest));

    const accepted = await decide(manager.key, { svc_ids: [a!.id], decision: 'accept' });
    expect(await accepted.json()).toEqual({ accepted: [a!.id], rejected: [], registrations: [] });
    const rejected = await decide(manager.key, { svc_ids: [b!.id], decision: 'reject', reason: 'Tube label unreadable' });
    expect(rejected.status).toBe(200);
    const [sa] = await h.database.db.select().from(samples).where(eq(samples.id, a!.id));
    const [sb] = await h.database.db.select().from(samples).where(eq(samples.id, b!.id));
    // no Webin account in this service: the approved sample waits for one, and says so
    expect(sa).toMatchObject({ status: 'awaiting_ena' });
    expect(sa!.statusDetail).toMatch(/ENA_USERNAME and ENA_PASSWORD/);
    expect(Object.keys(sa!.approvals as object)).toEqual(['DTOL']);
    expect(sb).toMatchObject({ status: 'rejected', rejectionReason: 'Tube label unreadable' });
    const audit = await h.database.db
      .select()
      .from(sampleUpdates)
      .where(and(eq(sampleUpdates.sampleId, a!.id), eq(sampleUpdates.field, 'status')));
    expect(audit).toEqual([
      expect.objectContaining({ oldValue: 'pending', newValue: 'processing', updateType: 'user' }),
      expect.objectContaining({ oldValue: 'processing', newValue: 'awaiting_ena', updateType: 'system' }),
    ]);

    expect((await decide(manager.key, { svc_ids: [a!.id], decision: 'accept' })).status).toBe(409);
    expect((await decide(manager.key, { svc_ids: ['nothex'], decision: 'accept' })).status).toBe(400);
  });
});

describe('blank templates', () => {
  it('generates each project’s template from its definition, readable as a manifest', async () => {
    for (const project of ['asg', 'dtol', 'dtolenv', 'erga']) {
      const res = await h.request(`/api/manifest/template?project=${project}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toContain('.xlsx');
      const parsed = await parseManifest(new Uint8Array(await res.arrayBuffer()), 'template.xlsx');
      expect(parsed.headers).toEqual(currentDefinition(project as 'dtol').fields.map((f) => f.name));
      expect(parsed.rows).toEqual([]);
    }
    expect((await h.request('/api/manifest/template?project=dtol&version=2.4.1')).status).toBe(200);
    expect((await h.request('/api/manifest/template?project=dtol&version=9.9')).status).toBe(400);
    expect((await h.request('/api/manifest/template?project=nope')).status).toBe(400);
  });
});
