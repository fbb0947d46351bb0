import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profileShares, samples } from '@/db/schema';
import { currentDefinition } from '@/lib/manifests';
import type { ProfileSampleSummary } from '@/lib/samples/contract';
import { recentlyRejected } from '@/lib/samples/rejected';
import type { ReviewQueue } from '@/lib/samples/review-contract';
import { validRows } from './fixtures/manifests/generate';
import { buildTaxonRecords, fakeTaxonomy } from './fixtures/manifests/taxa';
import { toXlsx } from './fixtures/manifests/workbook';
import { minimalPdf } from './fixtures/pdf';
import { createProfile, dtolRows, uploadManifest, waitFor } from './support/flows';
import { createHarness, type Harness } from './support/harness';
import { type RepositoryServer, startRepositoryServer } from './support/repository-server';

/**
 * The portal's review queue and profile summary: samples grouped by the manifest that brought them, who uploaded it
 * and when; after a decision the samples stay listed (decided) with where they stand — ToLID, accession, reason —
 * and a profile counts its samples by status per manifest and lists the permits its samples name.
 */

let server: RepositoryServer;
let h: Harness;
type User = Awaited<ReturnType<Harness['user']>>;
let uploader: User;
let manager: User;
let ergaManager: User;
let profileId: string;
let first: string[];
let second: string[];
const json = { 'content-type': 'application/json' };

const get = async <T>(path: string, key: string) => {
  const res = await h.request(path, { key });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as T;
};
const ids = (manifestId: string) =>
  h.database.db
    .select({ id: samples.id })
    .from(samples)
    .where(eq(samples.manifestId, manifestId))
    .orderBy(samples.tubeOrWellId)
    .then((r) => r.map((x) => x.id));
const decide = (key: string, body: unknown) =>
  h.request('/api/sample/decision', { method: 'POST', key, headers: json, body: JSON.stringify(body) });

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
  uploader = await h.user({ username: 'moth-collector', memberOf: ['dtol', 'erga'] });
  manager = await h.user({ username: 'dtol-curator', memberOf: ['dtol'], managerOf: ['dtol'] });
  // ERGA samples wait for the approvers of their types: this curator approves BGE
  ergaManager = await h.user({ username: 'erga-curator', memberOf: ['erga'], managerOf: ['erga'], approverOf: ['BGE'] });
  profileId = await createProfile(h, uploader.key, { title: 'Review moths', description: '', type: 'dtol' });
  first = await ids((await uploadManifest(h, uploader.key, profileId, dtolRows(2))).manifest_id);
  second = await ids((await uploadManifest(h, uploader.key, profileId, dtolRows(1, 2))).manifest_id);
}, 180_000);
afterAll(async () => {
  await h?.close();
  await server?.close();
});

describe('the review queue', () => {
  it('groups the awaiting samples by manifest (oldest first when asked) with who uploaded it, when, and into which profile', async () => {
    // the default order, newest first, is tests/review-queue.test.ts's
    const q = await get<ReviewQueue>('/api/sample/review?sort=oldest', manager.key);
    expect(q).toMatchObject({ state: 'awaiting', number_found: 2, samples_found: 3 });
    const [a, b] = q.data;
    expect(a).toMatchObject({
      tol_project: 'DTOL',
      profile_id: profileId,
      profile_title: 'Review moths',
      uploaded_by: 'moth-collector',
      manifest_samples: 2,
    });
    expect(a!.samples.map((s) => s.svc_id).sort()).toEqual([...first].sort());
    expect(b!.samples.map((s) => s.svc_id)).toEqual(second);
    expect(a!.samples[0]).toMatchObject({ status: 'pending', decided_by: null, registration_failed: false, permits: [] });

    const paged = await get<ReviewQueue>('/api/sample/review?sort=oldest&limit=1&offset=1', manager.key);
    expect(paged.number_found).toBe(2);
    expect(paged.data.map((g) => g.manifest_id)).toEqual([b!.manifest_id]);
    // a manager of another project sees none of them
    expect((await get<ReviewQueue>('/api/sample/review', ergaManager.key)).number_found).toBe(0);
  });

  it('keeps decided samples listed with where they stand: the ToLID and accession once registered, the reason of a rejection', async () => {
    expect((await decide(manager.key, { svc_ids: first, decision: 'accept' })).status).toBe(200);
    expect((await decide(manager.key, { svc_ids: second, decision: 'reject', reason: 'Wrong tissue' })).status).toBe(200);
    expect((await get<ReviewQueue>('/api/sample/review', manager.key)).number_found).toBe(0);

    const settled = await waitFor(
      () => get<ReviewQueue>('/api/sample/review?state=decided', manager.key),
      (q) => q.data.flatMap((g) => g.samples).filter((s) => s.status === 'accepted').length === 2,
      'the registration',
      600,
    );
    expect(settled).toMatchObject({ state: 'decided', number_found: 2, samples_found: 3 });
    // the latest decision first: the rejection
    const [rejected, accepted] = settled.data;
    expect(rejected!.samples).toEqual([
      expect.objectContaining({
        svc_id: second[0],
        status: 'rejected',
        rejection_reason: 'Wrong tissue',
        registration_failed: false,
        decided_by: 'dtol-curator',
      }),
    ]);
    for (const s of accepted!.samples) {
      expect(s.biosampleAccession).toMatch(/^SAMEA\d+$/);
      expect(s.public_name).toBeTruthy();
      expect(s).toMatchObject({ decided_by: 'dtol-curator', rejection_reason: null });
      expect(Date.parse(s.decided_at!)).toBeGreaterThan(Date.parse(s.time_created));
    }
  });

  it('tells the researcher on their home page which samples were rejected and why; a stranger is told nothing', async () => {
    const since = new Date(Date.now() - 3600_000);
    const { rows } = await recentlyRejected(h.database.db, uploader.user, since);
    expect(rows.map((r) => [r.id, r.reason])).toEqual(second.map((id) => [id, 'Wrong tissue']));
    expect(rows.every((r) => r.contributes)).toBe(true);
    const stranger = await h.user({ memberOf: ['dtol'] });
    expect((await recentlyRejected(h.database.db, stranger.user, since)).rows).toEqual([]);
    // one the profile is shared with to read: told of the rejections, but not as the one to upload again
    await h.database.db.insert(profileShares).values({ profileId, userId: stranger.user.id, role: 'viewer' });
    const viewed = await recentlyRejected(h.database.db, stranger.user, since);
    expect(viewed.rows.map((r) => [r.id, r.contributes])).toEqual(second.map((id) => [id, false]));
    await h.database.db.delete(profileShares).where(eq(profileShares.userId, stranger.user.id));
  });

  it('tells a registration that failed after approval from a manager’s rejection', async () => {
    await h.database.db
      .update(samples)
      .set({ status: 'rejected', rejectionReason: 'ENA: the sample is invalid', statusDetail: 'ENA: the sample is invalid' })
      .where(eq(samples.id, first[0]!));
    const q = await get<ReviewQueue>('/api/sample/review?state=decided', manager.key);
    const failed = q.data.flatMap((g) => g.samples).find((s) => s.svc_id === first[0]);
    expect(failed).toMatchObject({ registration_failed: true, rejection_reason: 'ENA: the sample is invalid' });
    const summary = await get<ProfileSampleSummary>(`/api/profiles/${profileId}/samples/summary`, uploader.key);
    expect(summary.registration_failed).toBe(1);
    await h.database.db
      .update(samples)
      .set({ status: 'accepted', rejectionReason: null, statusDetail: null })
      .where(eq(samples.id, first[0]!));
  });
});

describe('a profile’s summary', () => {
  it('counts the samples by status, for the profile and each manifest (newest first)', async () => {
    const s = await get<ProfileSampleSummary>(`/api/profiles/${profileId}/samples/summary`, uploader.key);
    expect(s).toMatchObject({
      profile_id: profileId,
      samples: 3,
      statuses: [
        { status: 'accepted', samples: 2 },
        { status: 'rejected', samples: 1 },
      ],
      registration_failed: 0,
      permits: [],
    });
    expect(s.manifests.map((m) => [m.samples, m.statuses, m.uploaded_by])).toEqual([
      [1, [{ status: 'rejected', samples: 1 }], 'moth-collector'],
      [2, [{ status: 'accepted', samples: 2 }], 'moth-collector'],
    ]);
    // someone else's profile is an unknown one
    expect((await h.request(`/api/profiles/${profileId}/samples/summary`, { key: manager.key })).status).toBe(404);
  });

  it('lists the ERGA permits its samples name, each downloadable; the review queue shows them beside the samples', async () => {
    const ergaProfile = await createProfile(h, uploader.key, {
      title: 'Review beetles',
      description: '',
      type: 'erga',
      associated_type: ['BGE'],
      sequencing_centre: ['CNAG'],
    });
    const erga = currentDefinition('erga');
    const rows = validRows(erga, 2).map((r) => ({ ...r, SAMPLING_PERMITS_REQUIRED: 'Y', SAMPLING_PERMITS_FILENAME: 'review_permit.pdf' }));
    const fd = new FormData();
    fd.set('profile_id', ergaProfile);
    const bytes = await toXlsx(
      erga.fields.map((f) => f.name),
      rows,
      { typed: true },
    );
    fd.set('file', new File([new Uint8Array(bytes)], 'beetles.xlsx'));
    const { report_id } = (await (await h.request('/api/manifest/validate', { method: 'POST', key: uploader.key, body: fd })).json()) as {
      report_id: string;
    };
    await waitFor(
      () => get<{ status: string }>(`/api/manifest/validate/report/${report_id}/status`, uploader.key),
      (r) => r.status === 'complete',
      'the ERGA report',
    );
    const permit = new FormData();
    permit.set('validation_report_id', report_id);
    permit.set('file', new File([new Uint8Array(minimalPdf('review permit'))], 'review_permit.pdf', { type: 'application/pdf' }));
    expect((await h.request('/api/manifest/validate/permits', { method: 'POST', key: uploader.key, body: permit })).status).toBe(200);
    const confirmed = await h.request('/api/manifest/validate/confirm', {
      method: 'POST',
      key: uploader.key,
      headers: json,
      body: JSON.stringify({ validation_report_id: report_id }),
    });
    expect(confirmed.status).toBe(200);

    const s = await get<ProfileSampleSummary>(`/api/profiles/${ergaProfile}/samples/summary`, uploader.key);
    expect(s.permits).toEqual([
      expect.objectContaining({
        file_name: 'review_permit.pdf',
        kinds: ['SAMPLING'],
        samples: 2,
        stored_name: expect.stringMatching(/^review_permit_\d{8}\.pdf$/),
      }),
    ]);
    const pdf = await h.request(s.permits[0]!.url, { key: uploader.key });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toContain('application/pdf');

    const q = await get<ReviewQueue>('/api/sample/review', ergaManager.key);
    const group = q.data.find((g) => g.profile_id === ergaProfile)!;
    expect(group.samples).toHaveLength(2);
    for (const sample of group.samples) {
      expect(sample.permits).toEqual([
        {
          kind: 'SAMPLING',
          file_name: 'review_permit.pdf',
          stored_name: s.permits[0]!.stored_name,
          url: `/api/sample/${sample.svc_id}/permits/${s.permits[0]!.stored_name}`,
        },
      ]);
    }
    const asManager = await h.request(group.samples[0]!.permits[0]!.url!, { key: ergaManager.key });
    expect(asManager.status).toBe(200);
    // tidy: nothing else in this file reads ERGA samples
    await h.database.db
      .update(samples)
      .set({ status: 'rejected' })
      .where(inArray(samples.profileId, [ergaProfile]));
  });
});
