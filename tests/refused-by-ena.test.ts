import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { emails, sampleUpdates, submissions } from '@/db/schema';
import { ENA_REFUSAL_FIELD, REGISTRATION_FAILURE_FIELD } from '@/lib/samples/contract';
import { REFUSED_BY_ENA } from '@/lib/samples/registration';
import { recentlyRejected } from '@/lib/samples/rejected';
import type { ReviewQueue } from '@/lib/samples/review-contract';
import type { PublicDashboard } from '@/lib/stats/contract';
import type { EnaRefusals } from '@/lib/submissions/contract';
import { createProfile, dtolRows, waitFor } from './support/flows';
import type { Harness } from './support/harness';
import {
  decideSamples,
  type RegistrationWorld,
  retryRegistration,
  runRegistrationHere,
  samplesOf,
  startRegistrationWorld,
  uploadPendingSamples,
} from './support/registration-world';
import type { RepositoryServer } from './support/repository-server';

/**
 * ENA's refusal of a registration (issue 61): the samples are `refused`, a state apart from a manager's `rejected`;
 * ENA's message is said once for the registration (GET registrations/refused) and kept in each sample's history,
 * not repeated on each sample; a sample manager's retry sends them on; the statistics count them apart.
 */

let world: RegistrationWorld;
let server: RepositoryServer;
let h: Harness;
let manager: Awaited<ReturnType<Harness['user']>>;
let researcher: Awaited<ReturnType<Harness['user']>>;
let onlooker: Awaited<ReturnType<Harness['user']>>;
let profileId: string;
let offset = 0;
const json = { 'content-type': 'application/json' };
const REFUSAL = 'In sample, alias:"dtol-refused". Sample attribute "collection date" is invalid.';

beforeAll(async () => {
  world = await startRegistrationWorld(['ena']);
  ({ server, h } = world);
  manager = await h.user({ username: 'refusal-manager', memberOf: ['dtol'], managerOf: ['dtol'] });
  researcher = await h.user({ username: 'refusal-researcher', memberOf: ['dtol'] });
  onlooker = await h.user({ username: 'refusal-onlooker', memberOf: ['dtol'] });
  profileId = await createProfile(h, researcher.key, { title: 'Refused at ENA', description: '', type: 'dtol' });
  const share = await h.request(`/api/profiles/${profileId}/shares`, {
    method: 'POST',
    key: researcher.key,
    headers: json,
    body: JSON.stringify({ username: 'refusal-onlooker', role: 'viewer' }),
  });
  expect(share.status, await share.clone().text()).toBeLessThan(300);
}, 120_000);
afterAll(() => world.close());
beforeEach(() => server.faults.clear());

const rowsOf = (ids: string[]) => samplesOf(h, ids);

/** n samples of a fresh manifest of the researcher's, still pending. */
async function pendingSamples(n: number): Promise<string[]> {
  offset += n;
  return uploadPendingSamples(h, researcher.key, profileId, dtolRows(n, offset - n));
}

async function decide(ids: string[], decision: 'accept' | 'reject', reason?: string) {
  const res = await decideSamples(h, manager.key, { svc_ids: ids, decision, ...(reason && { reason }) });
  expect(res.status, await res.clone().text()).toBe(200);
}

const ended = (ids: string[]) =>
  waitFor(
    () => rowsOf(ids),
    (rows) => rows.every((r) => ['accepted', 'refused', 'rejected', 'failed'].includes(r.status)),
    'the registration',
    600,
  );

async function refusals(key: string): Promise<EnaRefusals> {
  const res = await h.request('/api/registrations/refused', { key });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as EnaRefusals;
}

describe('a registration ENA refuses', () => {
  let ids: string[];

  it('leaves its samples refused by ENA, not rejected, with the plain reason on them and ENA’s message in their history', async () => {
    ids = await pendingSamples(2);
    server.faults.errorReceipt(10, [REFUSAL]);
    await decide(ids, 'accept');
    const rows = await ended(ids);
    for (const s of rows) {
      expect(s).toMatchObject({ status: 'refused', biosampleAccession: null, rejectionReason: null, statusDetail: REFUSED_BY_ENA });
      // ENA's message, which names every sample of the document, is not repeated on each sample
      expect(s.statusDetail).not.toContain('collection date');
    }
    const history = await h.database.db
      .select()
      .from(sampleUpdates)
      .where(and(inArray(sampleUpdates.sampleId, ids), inArray(sampleUpdates.field, ['status', ENA_REFUSAL_FIELD])));
    for (const id of ids) {
      const own = history.filter((u) => u.sampleId === id);
      expect(own.some((u) => u.field === 'status' && u.newValue === 'refused')).toBe(true);
      expect(own.find((u) => u.field === ENA_REFUSAL_FIELD)?.newValue).toContain('collection date');
    }
    const [sub] = await h.database.db
      .select()
      .from(submissions)
      .where(eq(submissions.id, (await refusals(manager.key)).data[0]!.submission_id));
    expect(sub).toMatchObject({ kind: 'samples', status: 'rejected' });
    // the uploader's email says there is nothing to upload again, ENA's message last
    const [told] = await h.database.db
      .select()
      .from(emails)
      .where(and(eq(emails.manifestId, rows[0]!.manifestId), eq(emails.kind, 'registration_failed')));
    expect(told!.subject).toBe('[DTOL] ENA refused 2 samples');
    expect(told!.body).toContain('There is nothing for you to upload again: a sample manager of DTOL sends them again');
    expect(told!.body.indexOf("ENA's message:")).toBeGreaterThan(told!.body.indexOf('nothing for you to upload'));
  });

  it('is said once, with ENA’s message, and who can act: the manager retries, the uploader and a viewer have nothing to do', async () => {
    const forManager = await refusals(manager.key);
    expect(forManager.number_found).toBe(1);
    const [one] = forManager.data;
    expect(one).toMatchObject({ profile_id: profileId, tol_project: 'dtol', your_part: 'retry' });
    expect(one!.message).toContain('collection date');
    expect(one!.samples.map((s) => s.svc_id).sort()).toEqual([...ids].sort());
    expect((await refusals(researcher.key)).data.map((r) => r.your_part)).toEqual(['uploader']);
    expect((await refusals(onlooker.key)).data.map((r) => r.your_part)).toEqual(['viewer']);
    // a stranger to the profile and the project sees none of it
    const stranger = await h.user({ username: 'refusal-stranger' });
    expect((await refusals(stranger.key)).number_found).toBe(0);
  });

  it('shows in the review queue as a failed registration the manager can retry', async () => {
    const res = await h.request('/api/sample/review?state=decided&limit=100', { key: manager.key });
    expect(res.status).toBe(200);
    const queue = (await res.json()) as ReviewQueue;
    const mine = queue.data.flatMap((g) => g.samples).filter((s) => ids.includes(s.svc_id));
    expect(mine).toHaveLength(2);
    for (const s of mine) expect(s).toMatchObject({ status: 'refused', registration_failed: true });
    // the group names them for its retry, also when it describes only its first row
    const failed = (q: ReviewQueue) => q.data.flatMap((g) => g.failed_ids).filter((id) => ids.includes(id));
    expect(failed(queue).sort()).toEqual([...ids].sort());
    const first = await h.request('/api/sample/review?state=decided&limit=100&rows=1', { key: manager.key });
    expect(failed((await first.json()) as ReviewQueue).sort()).toEqual([...ids].sort());
  });

  it('is counted apart from a manager’s rejection on the public dashboard and the profile', async () => {
    const rejected = await pendingSamples(1);
    await decide(rejected, 'reject', 'Wrong tube.');
    const dashboard = (await (await h.request('/api/stats/dashboard')).json()) as PublicDashboard;
    const dtol = dashboard.by_project.find((p) => p.project === 'dtol');
    expect(dtol?.by_status.refused).toBe(2);
    expect(dtol?.by_status.rejected).toBe(1);
    const summary = (await (await h.request(`/api/profiles/${profileId}/samples/summary`, { key: researcher.key })).json()) as {
      statuses: { status: string; samples: number }[];
      registration_failed: number;
    };
    expect(summary.statuses).toEqual(
      expect.arrayContaining([
        { status: 'refused', samples: 2 },
        { status: 'rejected', samples: 1 },
      ]),
    );
    expect(summary.registration_failed).toBe(2);
  });

  it('lets nobody but a manager of the project retry it, and the manager’s retry registers the samples', async () => {
    const denied = await retryRegistration(h, researcher.key, ids);
    expect(denied.status).toBe(404);
    const retry = await retryRegistration(h, manager.key, ids);
    expect(retry.status, await retry.clone().text()).toBe(202);
    const rows = await ended(ids);
    for (const s of rows) {
      expect(s.status).toBe('accepted');
      expect(s.biosampleAccession).toMatch(/^SAMEA\d+$/);
      expect(s.statusDetail).toBeNull();
    }
    // moved on: no refusal waits any more
    expect((await refusals(manager.key)).number_found).toBe(0);
  });
});

describe('a registration that gives up after ENA was unreachable', () => {
  let ids: string[];

  it('leaves its samples failed, not rejected, with the reason in their history, listed once for the manager to retry', async () => {
    ids = await pendingSamples(1);
    server.faults.fail(1000, { service: 'ena', status: 503 });
    await decide(ids, 'accept');
    await waitFor(
      () => rowsOf(ids),
      (r) => r[0]!.statusDetail?.startsWith('ENA could not be reached') ?? false,
      'the outage to show',
    );
    const [sub] = await h.database.db
      .select()
      .from(submissions)
      .where(sql`${submissions.sampleIds} @> ${sql.param(ids)}::text[] and ${submissions.status} = 'processing'`);
    // two days of outage, as the clock would have them: the next attempt gives up
    await h.database.db.update(submissions).set({ createdAt: sql`now() - interval '3 days'` }).where(eq(submissions.id, sub!.id));
    await runRegistrationHere(h, sub!.id);
    const [row] = await rowsOf(ids);
    expect(row).toMatchObject({ status: 'failed', rejectionReason: null });
    expect(row!.statusDetail).toMatch(/^ENA could not be reached for two days/);
    const history = await h.database.db
      .select()
      .from(sampleUpdates)
      .where(and(inArray(sampleUpdates.sampleId, ids), eq(sampleUpdates.field, REGISTRATION_FAILURE_FIELD)));
    expect(history[0]?.newValue).toMatch(/^ENA could not be reached for two days/);
    const listed = (await refusals(manager.key)).data.find((r) => r.submission_id === sub!.id);
    expect(listed).toMatchObject({ outcome: 'failed', your_part: 'retry', samples: [expect.objectContaining({ svc_id: ids[0] })] });
    expect((await refusals(researcher.key)).data.find((r) => r.submission_id === sub!.id)?.your_part).toBe('uploader');
    const [told] = await h.database.db
      .select()
      .from(emails)
      .where(and(eq(emails.manifestId, row!.manifestId), eq(emails.kind, 'registration_failed')));
    expect(told!.body).toContain('could not be completed');
    expect(told!.body).toContain('There is nothing for you to upload again');
  });

  it('is not on the researcher’s home as a rejection to correct, and the manager’s retry registers it once ENA is back', async () => {
    const rejected = await recentlyRejected(h.database.db, researcher.user, new Date(Date.now() - 3_600_000));
    expect(rejected.rows.map((r) => r.id)).not.toContain(ids[0]);
    server.faults.clear();
    const retry = await retryRegistration(h, manager.key, ids);
    expect(retry.status, await retry.clone().text()).toBe(202);
    const [done] = await waitFor(
      () => rowsOf(ids),
      (r) => r[0]!.status === 'accepted',
      'the retry',
      600,
    );
    expect(done!.biosampleAccession).toMatch(/^SAMEA\d+$/);
  });
});
