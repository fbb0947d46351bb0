import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { samples, submissionReceipts, submissions } from '@/db/schema';
import type { Submission, SubmissionList } from '@/lib/submissions/contract';
import { buildTaxonRecords, fakeTaxonomy } from './fixtures/manifests/taxa';
import { createProfile, dtolRows, uploadManifest, waitFor } from './support/flows';
import { createHarness, type Harness } from './support/harness';
import { type RepositoryServer, startRepositoryServer } from './support/repository-server';

/**
 * ENA's receipts kept whole: a registration records each RECEIPT document as ENA sent it, lists show only where to
 * download it, and GET /api/submissions/{id}/receipts/{n} serves it as XML to those who may see the submission.
 */

let server: RepositoryServer;
let h: Harness;
let manager: Awaited<ReturnType<Harness['user']>>;
let stranger: Awaited<ReturnType<Harness['user']>>;
let submission: Submission;
const json = { 'content-type': 'application/json' };

beforeAll(async () => {
  server = await startRepositoryServer({ taxa: buildTaxonRecords().records });
  h = await createHarness(
    {
      ENA_WEBIN_URL: server.enaUrl,
      ENA_USERNAME: server.credentials.ena.username,
      ENA_PASSWORD: server.credentials.ena.password,
      TOLID_URL: server.tolidUrl,
      TOLID_TOKEN: server.credentials.tolid.token,
    },
    { workers: true, taxonomy: fakeTaxonomy() },
  );
  server.tolid.approveAll();
  manager = await h.user({ username: 'receipt-manager', memberOf: ['dtol'], managerOf: ['dtol'] });
  stranger = await h.user({ username: 'receipt-stranger', memberOf: ['dtol'] });
  const profileId = await createProfile(h, manager.key, { title: 'Receipts', description: '', type: 'dtol' });
  const { manifest_id } = await uploadManifest(h, manager.key, profileId, dtolRows(2));
  const ids = (await h.database.db.select({ id: samples.id }).from(samples).where(eq(samples.manifestId, manifest_id))).map((r) => r.id);
  const decided = await h.request('/api/sample/decision', {
    method: 'POST',
    key: manager.key,
    headers: json,
    body: JSON.stringify({ svc_ids: ids, decision: 'accept' }),
  });
  expect(decided.status).toBe(200);
  const [row] = await waitFor(
    () => h.database.db.select().from(submissions).where(eq(submissions.profileId, profileId)),
    (rows) => rows[0]?.status === 'accepted',
    'the registration',
    600,
  );
  submission = (await (await h.request(`/api/submissions/${row!.id}`, { key: manager.key })).json()) as Submission;
}, 120_000);
afterAll(async () => {
  await h?.close();
  await server?.close();
});

describe('ENA receipts', () => {
  it('keeps the RECEIPT document of the ADD as received, and says where to download it', async () => {
    // the answers are rows of their own, in their places (issue 27)
    const stored = await h.database.db
      .select()
      .from(submissionReceipts)
      .where(eq(submissionReceipts.submissionId, submission.submission_id))
      .orderBy(asc(submissionReceipts.seq));
    expect(stored.map((r) => r.seq)).toEqual(stored.map((_, i) => i));
    const add = stored.findIndex((r) => r.kind === 'ADD');
    expect(add).toBeGreaterThanOrEqual(0);
    expect(stored[add]!.xml).toMatch(/<RECEIPT[^>]*success="true"/);

    const answer = submission.receipts[add]!;
    expect(answer).not.toHaveProperty('xml');
    expect(answer.xml_url).toBe(`/api/submissions/${submission.submission_id}/receipts/${add}`);
    const list = (await (await h.request('/api/submissions?limit=10', { key: manager.key })).json()) as SubmissionList;
    const listed = list.data.find((s) => s.submission_id === submission.submission_id)!;
    expect(listed.receipts[add]).toEqual(answer);

    const res = await h.request(answer.xml_url!, { key: manager.key });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="receipt-.+-add\.xml"$/);
    const xml = await res.text();
    expect(xml).toBe(stored[add]!.xml);

    // specimens, then samples: between them, the receipts name every accession the submission lists
    const adds = submission.receipts.filter((r) => r.kind === 'ADD');
    expect(adds.length).toBeGreaterThanOrEqual(2);
    const all = (await Promise.all(adds.map(async (r) => (await h.request(r.xml_url!, { key: manager.key })).text()))).join('');
    for (const accessions of Object.values(submission.accessions.samples ?? {})) expect(all).toContain(accessions.sraAccession);
  });

  it('is not found for an answer that does not exist, and for someone who may not see the submission', async () => {
    const base = `/api/submissions/${submission.submission_id}/receipts`;
    expect((await h.request(`${base}/${submission.receipts.length}`, { key: manager.key })).status).toBe(404);
    expect((await h.request(`${base}/0`, { key: stranger.key })).status).toBe(404);
    expect((await h.request(`${base}/0`)).status).toBe(401);
    expect((await h.request(`${base}/first`, { key: manager.key })).status).toBe(400);
    expect((await h.request('/api/submissions/00000000-0000-4000-8000-000000000000/receipts/0', { key: manager.key })).status).toBe(404);
  });
});
