import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { emails, samples, sampleUpdates, serviceChecks } from '@/db/schema';
import { currentDefinition } from '@/lib/manifests';
import { validRows } from './fixtures/manifests/generate';
import { toXlsx } from './fixtures/manifests/workbook';
import { minimalPdf } from './fixtures/pdf';
import { createProfile, waitFor } from './support/flows';
import type { Harness } from './support/harness';
import { expectProblem } from './support/http';
import { decideSamples, type RegistrationWorld, startRegistrationWorld } from './support/registration-world';
import type { RepositoryServer } from './support/repository-server';
import { unschedule } from './support/schedules';

/**
 * The rights hold on ERGA samples under traditional-knowledge rights: such a sample is `private` — never decided,
 * never sent to ENA, embargoed in the public API — until the Local Contexts Hub (a stand-in speaking its HTTP API)
 * says the community made its project public; the hourly `rights.check` job and POST sample/rights/check then make
 * it `pending`, and from there it goes the usual way. An unreachable hub changes nothing and shows on /api/health.
 */

let world: RegistrationWorld;
let server: RepositoryServer;
let h: Harness;
let owner: Awaited<ReturnType<Harness['user']>>;
let manager: Awaited<ReturnType<Harness['user']>>;
let admin: Awaited<ReturnType<Harness['user']>>;
let stranger: Awaited<ReturnType<Harness['user']>>;
let profileId: string;
let offset = 0;
const json = { 'content-type': 'application/json' };
const erga = currentDefinition('erga');

beforeAll(async () => {
  world = await startRegistrationWorld(['ena', 'localContexts']);
  ({ server, h } = world);
  // the file runs the rights check itself and counts what it asked the hub: the workers' clock (:23) must not ask too
  await unschedule(h.database.db, 'rights.check');
  owner = await h.user({ memberOf: ['erga'] });
  manager = await h.user({ email: 'erga.manager@example.org', memberOf: ['erga'], managerOf: ['erga'] });
  admin = await h.user({ isAdmin: true });
  stranger = await h.user({ memberOf: ['erga', 'dtol'], managerOf: ['dtol'] });
  profileId = await createProfile(h, owner.key, {
    title: 'Sámi reindeer lichens',
    description: '',
    type: 'erga',
    associated_type: ['BGE'],
    sequencing_centre: ['CNAG'],
  });
}, 120_000);
afterAll(() => world.close());
beforeEach(() => server.faults.clear());

/** n ERGA samples naming the hub project, validated, their permit uploaded, confirmed: what a submitter does. */
async function privateSamples(
  n: number,
  projectId: string,
): Promise<{ manifestId: string; ids: string[]; rows: Record<string, string>[] }> {
  const rows = validRows(erga, n + offset)
    .slice(offset)
    .map((r) => ({
      ...r,
      ASSOCIATED_TRADITIONAL_KNOWLEDGE_OR_BIOCULTURAL_RIGHTS_APPLICABLE: 'Y',
      INDIGENOUS_RIGHTS_DEF: 'Lichens gathered on Sámi reindeer pasture with the siida’s consent',
      ASSOCIATED_TRADITIONAL_KNOWLEDGE_OR_BIOCULTURAL_PROJECT_ID: projectId,
      ASSOCIATED_TRADITIONAL_KNOWLEDGE_CONTACT: 'siida@example.org',
    }));
  offset += n;
  return { ...(await confirmErga(rows)), rows };
}

async function confirmErga(rows: Record<string, string>[]): Promise<{ manifestId: string; ids: string[] }> {
  const fd = new FormData();
  fd.set('profile_id', profileId);
  fd.set(
    'file',
    new File(
      [
        new Uint8Array(
          await toXlsx(
            erga.fields.map((f) => f.name),
            rows,
            { typed: true },
          ),
        ),
      ],
      'erga_tk.xlsx',
    ),
  );
  const res = await h.request('/api/manifest/validate', { method: 'POST', key: owner.key, body: fd });
  expect(res.status).toBe(202);
  const { report_id } = (await res.json()) as { report_id: string };
  const report = await waitFor(
    async () =>
      (await (await h.request(`/api/manifest/validate/report/${report_id}`, { key: owner.key })).json()) as {
        status: string;
        errors: unknown[];
        permits: { filename: string; received: boolean }[];
      },
    (r) => r.status === 'complete' || r.status === 'failed',
    'the validation report',
  );
  expect(report.errors).toEqual([]);
  const missing = report.permits.filter((p) => !p.received);
  if (missing.length) {
    const permits = new FormData();
    permits.set('validation_report_id', report_id);
    for (const p of missing)
      permits.append('file', new File([new Uint8Array(minimalPdf(p.filename))], p.filename, { type: 'application/pdf' }));
    expect((await h.request('/api/manifest/validate/permits', { method: 'POST', key: owner.key, body: permits })).status).toBe(200);
  }
  const confirmed = await h.request('/api/manifest/validate/confirm', {
    method: 'POST',
    key: owner.key,
    headers: json,
    body: JSON.stringify({ validation_report_id: report_id }),
  });
  expect(confirmed.status, await confirmed.clone().text()).toBe(200);
  const { manifest_id } = (await confirmed.json()) as { manifest_id: string };
  const ids = (await h.database.db.select({ id: samples.id }).from(samples).where(eq(samples.manifestId, manifest_id))).map((r) => r.id);
  return { manifestId: manifest_id, ids };
}

const rowsOf = (ids: string[]) => h.database.db.select().from(samples).where(inArray(samples.id, ids));
const statuses = async (ids: string[]) => (await rowsOf(ids)).map((r) => r.status);

const decide = (ids: string[], decision: 'accept' | 'reject', key = manager.key) =>
  decideSamples(h, key, { svc_ids: ids, decision, ...(decision === 'reject' ? { reason: 'no' } : {}) });

interface Checked {
  data: {
    svc_id: string;
    status: string;
    project_id: string | null;
    outcome: string;
    project_privacy: string | null;
    detail: string;
    rights_checked_at: string | null;
    rights_cleared_at: string | null;
  }[];
  hub: { ok: boolean | null; detail: string; checked_at: string | null };
}
const checkNow = (body: unknown, key = manager.key) =>
  h.request('/api/sample/rights/check', { method: 'POST', key, headers: json, body: JSON.stringify(body) });

/** The samples' last answer made a day and an hour old, so the hourly check takes them again. */
const ageChecks = (ids: string[]) =>
  h.database.db.update(samples).set({ rightsCheckedAt: sql`now() - interval '25 hours'` }).where(inArray(samples.id, ids));

const sentToEna = (id: string) => server.requests.some((r) => r.service === 'ena' && r.body.includes(id));

async function publicRecord(id: string): Promise<Record<string, string>> {
  const res = await h.request(`/api/sample/svc_id/${id}`);
  expect(res.status).toBe(200);
  const body = (await res.json()) as { data: Record<string, string>[] };
  expect(body.data).toHaveLength(1);
  return body.data[0]!;
}

describe('a private ERGA sample waits for its rights', () => {
  const project = randomUUID();
  let manifestId = '';
  let ids: string[] = [];

  it('is stored private, and neither accepted nor rejected: 409 with the reason in words', async () => {
    server.localContexts.setProject(project, 'Private');
    ({ manifestId, ids } = await privateSamples(2, project));
    expect(await statuses(ids)).toEqual(['private', 'private']);

    for (const decision of ['accept', 'reject'] as const) {
      const body = await expectProblem(await decide(ids, decision), 409);
      expect(body.detail).toContain(
        `${ids[0]} is private: its traditional-knowledge project ${project} is not public at the Local Contexts Hub yet; its rights must be cleared before it can be decided`,
      );
      // an admin, who decides on every sample, is held back alike
      expect((await decide(ids, decision, admin.key)).status).toBe(409);
    }
    expect(await statuses(ids)).toEqual(['private', 'private']);
  });

  it('is not sent to ENA by a retry or the registration sweep, and the public API shows it only as embargoed', async () => {
    const retry = await h.request('/api/sample/register', {
      method: 'POST',
      key: manager.key,
      headers: json,
      body: JSON.stringify({ svc_ids: ids }),
    });
    expect((await expectProblem(retry, 409)).detail).toContain(`${ids[0]} is private`);
    await h.jobs['registrations.sweep']();
    expect(await statuses(ids)).toEqual(['private', 'private']);
    expect(ids.some(sentToEna)).toBe(false);

    expect(await publicRecord(ids[0]!)).toEqual({ status: 'embargoed' });
    const manifest = (await (await h.request(`/api/manifest/${manifestId}`)).json()) as { data: Record<string, string>[] };
    expect(manifest.data).toEqual([{ status: 'embargoed' }, { status: 'embargoed' }]);
    const csv = await (await h.request(`/api/manifest/${manifestId}?return_type=csv`)).text();
    expect(csv).not.toContain(ids[0]);
  });

  it('is listed apart for its managers, with its hub project, and not among the samples awaiting a decision', async () => {
    const list = (await (await h.request('/api/sample/private?limit=100', { key: manager.key })).json()) as {
      number_found: number;
      data: { svc_id: string; project_id: string; project_url: string; rights_checked_at: string | null }[];
    };
    const mine = list.data.filter((s) => ids.includes(s.svc_id));
    expect(mine).toHaveLength(2);
    expect(mine[0]).toMatchObject({
      project_id: project,
      project_url: `${server.url}/localcontexts/projects/${project}`,
      rights_checked_at: null,
    });
    // the stranger manages no ERGA sample: nothing private of them
    const theirs = (await (await h.request('/api/sample/private', { key: stranger.key })).json()) as { number_found: number };
    expect(theirs.number_found).toBe(0);
    const review = (await (await h.request('/api/sample/review?state=awaiting&limit=100', { key: manager.key })).json()) as {
      data: { samples: { svc_id: string }[] }[];
    };
    expect(review.data.flatMap((g) => g.samples.map((s) => s.svc_id)).filter((id) => ids.includes(id))).toEqual([]);
  });

  it('stays private while the hub holds its project as Private; the hourly check asks once per project and once a day', async () => {
    const asked = server.localContexts.asked.length;
    await h.jobs['rights.check']();
    expect(server.localContexts.asked.slice(asked)).toEqual([project]);
    const rows = await rowsOf(ids);
    for (const r of rows) {
      expect(r.status).toBe('private');
      expect(r.rightsCheckedAt).not.toBeNull();
      expect(r.rightsClearedAt).toBeNull();
      expect(r.statusDetail).toContain(`${project} is Private at the Local Contexts Hub`);
    }
    // looked up within the day: not asked again
    await h.jobs['rights.check']();
    expect(server.localContexts.asked.length).toBe(asked + 1);
  });

  it('becomes pending once the hub shows the project public: audited, its managers emailed, and the public API serves it', async () => {
    server.localContexts.setProject(project, 'Public');
    await ageChecks(ids);
    await h.jobs['rights.check']();
    const rows = await rowsOf(ids);
    for (const r of rows) {
      expect(r).toMatchObject({ status: 'pending', statusDetail: null });
      expect(r.rightsClearedAt).not.toBeNull();
    }
    const audit = await h.database.db
      .select()
      .from(sampleUpdates)
      .where(and(inArray(sampleUpdates.sampleId, ids), eq(sampleUpdates.field, 'status')));
    expect(audit.map((a) => [a.updateType, a.oldValue, a.newValue, a.actorId])).toEqual([
      ['system', 'private', 'pending', null],
      ['system', 'private', 'pending', null],
    ]);
    const mail = await h.database.db.select().from(emails).where(eq(emails.manifestId, manifestId));
    const cleared = mail.filter((m) => m.body.includes('Local Contexts Hub'));
    expect(cleared.map((m) => m.to)).toEqual([['erga.manager@example.org']]);
    expect(cleared[0]!.subject).toBe(`[ERGA] 2 new samples from ${owner.user.username} await review`);
    expect(cleared[0]!.body).toContain(project);

    const record = await publicRecord(ids[0]!);
    expect(record).toMatchObject({ svc_id: ids[0], status: 'pending', tol_project: 'ERGA' });
    const manifest = (await (await h.request(`/api/manifest/${manifestId}`)).json()) as { data: Record<string, string>[] };
    expect(manifest.data.map((r) => r.svc_id).sort()).toEqual([...ids].sort());
  });

  it('can then be approved, and goes to ENA', async () => {
    const res = await decide(ids, 'accept', admin.key);
    expect(res.status, await res.clone().text()).toBe(200);
    const done = await waitFor(
      () => rowsOf(ids),
      (rows) => rows.every((r) => r.status === 'accepted' || r.status === 'rejected'),
      'the registration',
      600,
    );
    expect(done.map((r) => r.status)).toEqual(['accepted', 'accepted']);
    expect(ids.every(sentToEna)).toBe(true);
  });

  it('stays cleared when a re-upload changes another field, and is private again when its project id changes', async () => {
    const { ids: two, rows } = await privateSamples(2, project);
    // the hub already says this project is public: the next check clears them
    await h.jobs['rights.check']();
    expect(await statuses(two)).toEqual(['pending', 'pending']);

    const other = rows.map((r, i) => (i === 0 ? { ...r, IDENTIFIED_BY: 'Teuvo Ahti' } : r));
    await confirmErga(other);
    const [first] = await rowsOf([two[0]!]);
    expect(first).toMatchObject({ status: 'pending' });
    expect(first!.rightsClearedAt).not.toBeNull();

    const moved = randomUUID();
    server.localContexts.setProject(moved, 'Contributor');
    await confirmErga(other.map((r, i) => (i === 1 ? { ...r, ASSOCIATED_TRADITIONAL_KNOWLEDGE_OR_BIOCULTURAL_PROJECT_ID: moved } : r)));
    const [second] = await rowsOf([two[1]!]);
    expect(second).toMatchObject({ status: 'private', rightsClearedAt: null, rightsCheckedAt: null });
    expect(await publicRecord(two[1]!)).toEqual({ status: 'embargoed' });
    expect(await publicRecord(two[0]!)).toMatchObject({ svc_id: two[0] });
  });
});

describe('POST sample/rights/check', () => {
  it('asks the hub at once and answers each sample’s status and what the hub said', async () => {
    const project = randomUUID();
    server.localContexts.setProject(project, 'Contributor');
    const { ids } = await privateSamples(1, project);
    const [id] = ids as [string];

    const first = await checkNow({ svc_ids: [id.toUpperCase()] });
    expect(first.status).toBe(200);
    const waiting = (await first.json()) as Checked;
    expect(waiting.data).toEqual([
      expect.objectContaining({
        svc_id: id,
        status: 'private',
        project_id: project,
        outcome: 'not_public',
        project_privacy: 'Contributor',
      }),
    ]);
    expect(waiting.data[0]!.rights_checked_at).not.toBeNull();
    expect(waiting.hub.ok).toBe(true);

    server.localContexts.setProject(project, 'Public');
    const cleared = (await (await checkNow({ svc_ids: [id] })).json()) as Checked;
    expect(cleared.data[0]).toMatchObject({ status: 'pending', outcome: 'cleared', project_privacy: 'Public' });
    expect(cleared.data[0]!.rights_cleared_at).not.toBeNull();
    expect((await decide([id], 'accept', admin.key)).status).toBe(200);

    // nothing left to check: answered as it is, without asking the hub
    const asked = server.localContexts.asked.length;
    const again = (await (await checkNow({ svc_ids: [id] })).json()) as Checked;
    expect(again.data[0]).toMatchObject({ outcome: 'not_private', project_privacy: null });
    expect(server.localContexts.asked.length).toBe(asked);
    // the accepted sample goes on to ENA in the background: wait for it, so that its changes do not land in the
    // middle of the next test's upload to the same profile (whose confirmation would then ask for a new validation)
    const [settled] = await waitFor(
      () => rowsOf([id]),
      (rows) => rows.every((r) => r.status === 'accepted' || r.status === 'rejected'),
      'the registration',
      600,
    );
    expect(settled!.status).toBe('accepted');
  });

  it('says so when the hub does not know the project; the sample stays private and never reaches ENA', async () => {
    const { ids } = await privateSamples(1, randomUUID());
    const answer = (await (await checkNow({ svc_ids: ids })).json()) as Checked;
    expect(answer.data[0]).toMatchObject({ status: 'private', outcome: 'unknown_project' });
    expect(answer.data[0]!.detail).toContain('does not know');
    await h.jobs['registrations.sweep']();
    expect(sentToEna(ids[0]!)).toBe(false);
  });

  it('answers 404 for samples the caller does not manage, as for unknown ones, and 400 for bad bodies', async () => {
    const project = randomUUID();
    server.localContexts.setProject(project, 'Public');
    const { ids } = await privateSamples(1, project);
    const asked = server.localContexts.asked.length;
    const notYours = await expectProblem(await checkNow({ svc_ids: ids }, stranger.key), 404);
    const unknown = await expectProblem(await checkNow({ svc_ids: ['0123456789abcdef01234567'] }, stranger.key), 404);
    expect(notYours.detail).toBe(`No sample you may decide with svc_id ${ids[0]}`);
    expect(unknown.detail).toBe('No sample you may decide with svc_id 0123456789abcdef01234567');
    expect(server.localContexts.asked.length).toBe(asked);
    expect(await statuses(ids)).toEqual(['private']);

    const tooMany = Array.from({ length: 501 }, (_, i) => i.toString(16).padStart(24, '0'));
    for (const body of [{}, { svc_ids: [] }, { svc_ids: ['not-an-id'] }, { svc_ids: ids[0] }, { svc_ids: tooMany }]) {
      const res = await checkNow(body);
      expect(res.status, JSON.stringify(body).slice(0, 40)).toBe(400);
    }
    const notJson = await h.request('/api/sample/rights/check', { method: 'POST', key: manager.key, headers: json, body: '{"svc_ids": [' });
    expect(notJson.status).toBe(400);
    expect(
      (await h.request('/api/sample/rights/check', { method: 'POST', headers: json, body: JSON.stringify({ svc_ids: ids }) })).status,
    ).toBe(401);
  });
});

describe('an unreachable hub', () => {
  it('changes nothing, ends the job normally, and shows on /api/health until it answers again', async () => {
    const project = randomUUID();
    server.localContexts.setProject(project, 'Public');
    const { ids } = await privateSamples(1, project);
    server.faults.fail(100, { service: 'localcontexts', status: 503, body: 'maintenance' });

    await h.jobs['rights.check']();
    const [row] = await rowsOf(ids);
    expect(row).toMatchObject({ status: 'private', rightsCheckedAt: null, rightsClearedAt: null });
    expect(h.logs.some((l) => l.msg === 'rights check: the Local Contexts Hub did not answer')).toBe(true);

    const health = (await (await h.request('/api/health?deep=true')).json()) as { status: string; local_contexts: Checked['hub'] };
    expect(health.local_contexts.ok).toBe(false);
    expect(health.local_contexts.detail).toContain('503');
    expect(health.local_contexts.checked_at).not.toBeNull();
    expect(health.status).toBe('ok');

    const now = (await (await checkNow({ svc_ids: ids })).json()) as Checked;
    expect(now.data[0]).toMatchObject({ status: 'private', outcome: 'hub_unreachable', rights_checked_at: null });
    expect(now.hub.ok).toBe(false);
    expect(await publicRecord(ids[0]!)).toEqual({ status: 'embargoed' });

    server.faults.clear();
    await h.jobs['rights.check']();
    expect(await statuses(ids)).toEqual(['pending']);
    const [check] = await h.database.db.select().from(serviceChecks).where(eq(serviceChecks.service, 'local_contexts'));
    expect(check).toMatchObject({ ok: true });
    expect(((await (await h.request('/api/health?deep=true')).json()) as { local_contexts: Checked['hub'] }).local_contexts.ok).toBe(true);
  });
});
