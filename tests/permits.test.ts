import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permits, samples } from '@/db/schema';
import { currentDefinition } from '@/lib/manifests';
import { pdfProblem } from '@/lib/permits/pdf';
import { PERMIT_MAX_BYTES } from '@/lib/permits/permits';
import { validRows } from './fixtures/manifests/generate';
import { buildTaxonRecords, fakeTaxonomy } from './fixtures/manifests/taxa';
import { toXlsx } from './fixtures/manifests/workbook';
import { minimalPdf } from './fixtures/pdf';
import { createProfile, waitFor } from './support/flows';
import { createHarness, type Harness } from './support/harness';
import { expectProblem } from './support/http';
import { type RepositoryServer, startRepositoryServer } from './support/repository-server';

/**
 * ERGA permits (docs/tol-manifests.md §1.6, §2.6): the reference's own case, an ERGA sheet of 9 rows with
 * SAMPLING_PERMITS_REQUIRED = Y and SAMPLING_PERMITS_FILENAME = test_permit.pdf, cannot be confirmed until that PDF
 * is uploaded; the permit then travels with the samples, to their managers and to the specimen's ENA record.
 */

let server: RepositoryServer;
let h: Harness;
let owner: Awaited<ReturnType<Harness['user']>>;
let manager: Awaited<ReturnType<Harness['user']>>;
let stranger: Awaited<ReturnType<Harness['user']>>;
let profileId: string;
const json = { 'content-type': 'application/json' };
const dayOf = (d: Date) => d.toISOString().slice(0, 10).replace(/-/g, '');
// the day the permit was stored (UTC), read around its upload: a run may cross midnight
let today = dayOf(new Date());

beforeAll(async () => {
  server = await startRepositoryServer({ taxa: buildTaxonRecords().records });
  h = await createHarness(
    { ENA_WEBIN_URL: server.enaUrl, ENA_USERNAME: server.credentials.ena.username, ENA_PASSWORD: server.credentials.ena.password },
    { workers: true, taxonomy: fakeTaxonomy() },
  );
  owner = await h.user({ memberOf: ['erga'] });
  // the profile's samples carry BGE, which needs its approver's accept (lib/approvals/approvals.ts)
  manager = await h.user({ memberOf: ['erga'], managerOf: ['erga'], approverOf: ['BGE'] });
  stranger = await h.user({ memberOf: ['erga'] });
  profileId = await createProfile(h, owner.key, {
    title: 'Catalan genomes',
    description: '',
    type: 'erga',
    associated_type: ['BGE'],
    sequencing_centre: ['CNAG'],
  });
}, 120_000);
afterAll(async () => {
  await h.close();
  await server.close();
});

const ergaRows = (n: number, overrides: Record<string, string> = {}): Record<string, string>[] =>
  validRows(currentDefinition('erga'), n).map((r) => ({
    ...r,
    SAMPLING_PERMITS_REQUIRED: 'Y',
    SAMPLING_PERMITS_FILENAME: 'test_permit.pdf',
    ...overrides,
  }));

/** Uploads rows as a manifest and waits for the complete report. */
async function validated(rows: Record<string, string>[]) {
  const headers = currentDefinition('erga').fields.map((f) => f.name);
  const fd = new FormData();
  fd.set('profile_id', profileId);
  fd.set('file', new File([new Uint8Array(await toXlsx(headers, rows, { typed: true }))], 'erga_manifest.xlsx'));
  const res = await h.request('/api/manifest/validate', { method: 'POST', key: owner.key, body: fd });
  expect(res.status).toBe(202);
  const { report_id } = (await res.json()) as { report_id: string };
  return waitFor(
    async () =>
      (await (await h.request(`/api/manifest/validate/report/${report_id}`, { key: owner.key })).json()) as {
        report_id: string;
        status: string;
        errors: unknown[];
        permits: { filename: string; required_by: string[]; received: boolean; stored_name: string | null }[];
      },
    (r) => r.status === 'complete' || r.status === 'failed',
    'the validation report',
  );
}

const confirm = (reportId: string) =>
  h.request('/api/manifest/validate/confirm', {
    method: 'POST',
    key: owner.key,
    headers: json,
    body: JSON.stringify({ validation_report_id: reportId }),
  });

function permitForm(reportId: string, files: { name: string; bytes: Buffer; type?: string }[]) {
  const fd = new FormData();
  fd.set('validation_report_id', reportId);
  for (const f of files) fd.append('file', new File([new Uint8Array(f.bytes)], f.name, { type: f.type ?? 'application/pdf' }));
  return fd;
}
const sendPermits = (reportId: string, files: { name: string; bytes: Buffer; type?: string }[], key = owner.key) =>
  h.request('/api/manifest/validate/permits', { method: 'POST', key, body: permitForm(reportId, files) });

describe('an ERGA manifest naming a sampling permit', () => {
  let reportId = '';
  let manifestId = '';
  const pdf = minimalPdf('Generalitat de Catalunya, sampling permit SF/0123/2023');

  it('validates, and lists the permit it needs with the specimens that need it', async () => {
    const report = await validated(ergaRows(9));
    expect(report.errors).toEqual([]);
    reportId = report.report_id;
    expect(report.permits).toHaveLength(1);
    expect(report.permits[0]).toMatchObject({ filename: 'test_permit.pdf', received: false, stored_name: null });
    expect(report.permits[0]!.required_by.length).toBeGreaterThan(0);
  });

  it('is refused at confirm with 409 naming the missing file, and nothing is created', async () => {
    const body = await expectProblem(await confirm(reportId), 409);
    expect(body.detail).toBe('Upload the permit files this manifest names before confirming it: test_permit.pdf.');
    expect(await h.database.db.select().from(samples).where(eq(samples.profileId, profileId))).toEqual([]);
  });

  it('refuses a text file named .pdf, a PDF the manifest does not name, and another user', async () => {
    const text = await expectProblem(
      await sendPermits(reportId, [
        { name: 'test_permit.pdf', bytes: Buffer.from('This is my permit, honestly.\n'.repeat(5)), type: 'text/plain' },
      ]),
      422,
    );
    expect(text.detail).toMatch(/^test_permit\.pdf is not a PDF: The file does not start like a PDF/);
    const other = await expectProblem(await sendPermits(reportId, [{ name: 'nagoya.pdf', bytes: pdf }]), 400);
    expect(other.detail).toBe('nagoya.pdf is not a permit file this manifest names; it names test_permit.pdf.');
    await expectProblem(await sendPermits(reportId, [{ name: 'test_permit.pdf', bytes: pdf }], stranger.key), 404);
    // a truncated PDF is not a PDF either
    expect(pdfProblem(pdf.subarray(0, pdf.length - 40))).toMatch(/end-of-file marker|startxref/);
    expect(await h.database.db.select().from(permits)).toEqual([]);
  });

  it('refuses a permit over the size limit with 413, and stores nothing', async () => {
    // a real PDF, padded past the limit inside a comment so that only its size is wrong
    const big = Buffer.concat([Buffer.from('%PDF-1.4\n%'), Buffer.alloc(PERMIT_MAX_BYTES, 0x20), Buffer.from('\n'), pdf.subarray(9)]);
    const body = await expectProblem(await sendPermits(reportId, [{ name: 'test_permit.pdf', bytes: big }]), 413);
    expect(body.detail).toMatch(/test_permit\.pdf|at most/);
    expect(await h.database.db.select().from(permits)).toEqual([]);
  });

  it('takes the PDF, stores it as <name>_YYYYMMDD.pdf, and then confirms the 9 samples', async () => {
    const before = dayOf(new Date());
    const res = await sendPermits(reportId, [{ name: 'test_permit.pdf', bytes: pdf }]);
    expect(res.status, await res.clone().text()).toBe(200);
    const body = (await res.json()) as { permits: { filename: string; received: boolean; stored_name: string }[] };
    today = [before, dayOf(new Date())].find((d) => body.permits[0]?.stored_name === `test_permit_${d}.pdf`) ?? before;
    expect(body.permits).toEqual([
      expect.objectContaining({ filename: 'test_permit.pdf', received: true, stored_name: `test_permit_${today}.pdf` }),
    ]);
    const confirmed = await confirm(reportId);
    expect(confirmed.status, await confirmed.clone().text()).toBe(200);
    const result = (await confirmed.json()) as { manifest_id: string; created: number };
    expect(result.created).toBe(9);
    manifestId = result.manifest_id;
    const [stored] = await h.database.db.select().from(permits).where(eq(permits.reportId, reportId));
    expect(stored).toMatchObject({
      manifestId,
      fileName: 'test_permit.pdf',
      storedName: `test_permit_${today}.pdf`,
      sizeInBytes: pdf.length,
    });
  });

  it('lets the project’s sample managers and the owner download a sample’s permit; anyone else gets 404', async () => {
    const [sample] = await h.database.db.select().from(samples).where(eq(samples.manifestId, manifestId)).limit(1);
    for (const user of [manager, owner]) {
      const list = await h.request(`/api/sample/${sample!.id}/permits`, { key: user.key });
      expect(list.status).toBe(200);
      const [permit] = (await list.json()) as { kind: string; stored_name: string; url: string }[];
      expect(permit).toMatchObject({ kind: 'SAMPLING', file_name: 'test_permit.pdf', stored_name: `test_permit_${today}.pdf` });
      const file = await h.request(permit!.url, { key: user.key });
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('application/pdf');
      expect(file.headers.get('content-disposition')).toBe(`attachment; filename="test_permit_${today}.pdf"`);
      expect(Buffer.from(await file.arrayBuffer()).equals(pdf)).toBe(true);
    }
    await expectProblem(await h.request(`/api/sample/${sample!.id}/permits`, { key: stranger.key }), 404);
    await expectProblem(await h.request(`/api/sample/${sample!.id}/permits/test_permit_${today}.pdf`, { key: stranger.key }), 404);
    await expectProblem(await h.request(`/api/sample/${sample!.id}/permits`), 401);
  });

  it('names the permit in the specimen’s ENA record once the samples are approved', async () => {
    const ids = (await h.database.db.select({ id: samples.id }).from(samples).where(eq(samples.manifestId, manifestId))).map((r) => r.id);
    const res = await h.request('/api/sample/decision', {
      method: 'POST',
      key: manager.key,
      headers: json,
      body: JSON.stringify({ svc_ids: ids, decision: 'accept' }),
    });
    expect(res.status).toBe(200);
    await waitFor(
      () =>
        h.database.db
          .select()
          .from(samples)
          .where(and(eq(samples.manifestId, manifestId), eq(samples.status, 'accepted'))),
      (rows) => rows.length === ids.length,
      'the registration',
      600,
    );
    const specimenXml = server.requests
      .filter((r) => r.service === 'ena' && r.body.includes('-ERGA-specimen'))
      .map((r) => r.body)
      .join('');
    expect(specimenXml).toContain('<TAG>sampling permits filename</TAG>');
    expect(specimenXml).toContain(`<VALUE>test_permit_${today}.pdf</VALUE>`);
  });

  it('asks a re-upload only for permits whose file name or REQUIRED changed', async () => {
    const rows = ergaRows(9);
    const unchanged = await validated(rows);
    expect(unchanged.errors).toEqual([]);
    expect(unchanged.permits).toEqual([]);

    const specimen = rows[0]!.SPECIMEN_ID!;
    const changed = await validated(
      rows.map((r) => (r.SPECIMEN_ID === specimen ? { ...r, SAMPLING_PERMITS_FILENAME: 'renewed_permit.pdf' } : r)),
    );
    expect(changed.errors).toEqual([]);
    expect(changed.permits).toEqual([
      expect.objectContaining({ filename: 'renewed_permit.pdf', required_by: [specimen], received: false }),
    ]);
    await expectProblem(await confirm(changed.report_id), 409);
  });
});
