import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { emails, samples, users } from '@/db/schema';
import { awaitingWords } from '@/lib/approvals/words';
import { parseConfig } from '@/lib/config';
import { mailContext } from '@/lib/mail/outbox';
import { currentDefinition } from '@/lib/manifests';
import type { PendingSamples } from '@/lib/samples/contract';
import { countAwaitingReview } from '@/lib/samples/decision';
import { awaitingTolids } from '@/lib/samples/rejected';
import { remindApprovers } from '@/lib/samples/reminders';
import type { ReviewQueue } from '@/lib/samples/review-contract';
import { validRows } from './fixtures/manifests/generate';
import { createProfile, uploadManifest } from './support/flows';
import type { Harness } from './support/harness';
import { type RegistrationWorld, startRegistrationWorld } from './support/registration-world';
import type { RepositoryServer } from './support/repository-server';

/**
 * Approval by associated type (docs/tol-manifests.md §3.2): a sample waits until an approver of each of its types that
 * needs approval has accepted it; each approver sees what waits for their types, is reminded of what waited too long,
 * and hears when a sample they approve is refused downstream.
 */

let world: RegistrationWorld;
let server: RepositoryServer;
let h: Harness;
type User = Awaited<ReturnType<Harness['user']>>;
let uploader: User;
let ergaManager: User;
let bge: User;
let community: User;
let sanger: User;
let silentBge: User;
let dtolManager: User;
let ergaProfile: string;
let sangerProfile: string;
let offset = 0;
const json = { 'content-type': 'application/json' };

beforeAll(async () => {
  // a ToLID service and no Webin account: approved samples wait for a ToLID, then for ENA
  world = await startRegistrationWorld(['tolid'], { workers: false });
  ({ server, h } = world);
  uploader = await h.user({ username: 'beetle-collector', email: 'collector@example.org', memberOf: ['erga', 'dtol'] });
  ergaManager = await h.user({ username: 'erga-lead', email: 'erga.lead@example.org', memberOf: ['erga'], managerOf: ['erga'] });
  bge = await h.user({ username: 'bge-approver', email: 'bge@example.org', approverOf: ['BGE'] });
  community = await h.user({ username: 'community-approver', email: 'community@example.org', approverOf: ['ERGA_COMMUNITY'] });
  sanger = await h.user({ username: 'sanger-approver', email: 'sanger@example.org', approverOf: ['SANGER'] });
  // an approver without an address: never emailed
  silentBge = await h.user({ username: 'bge-no-mail', approverOf: ['BGE'] });
  dtolManager = await h.user({ username: 'dtol-lead', email: 'dtol.lead@example.org', memberOf: ['dtol'], managerOf: ['dtol'] });
  ergaProfile = await createProfile(h, uploader.key, {
    title: 'Pyrenean beetles',
    description: '',
    type: 'erga',
    associated_type: ['BGE', 'ERGA_COMMUNITY'],
    sequencing_centre: ['CNAG'],
  });
  sangerProfile = await createProfile(h, uploader.key, {
    title: 'Alpine beetles',
    description: '',
    type: 'erga',
    associated_type: ['BGE', 'ERGA_COMMUNITY'],
    sequencing_centre: ['SANGER'],
  });
}, 120_000);
afterAll(() => world?.close());
beforeEach(() => server.tolid.approveAll());

/** ERGA rows that name no permit, so the manifest confirms without PDFs. */
const ergaRows = (n: number) => {
  const rows = validRows(currentDefinition('erga'), n + offset)
    .slice(offset)
    .map((r) => ({
      ...r,
      SAMPLING_PERMITS_REQUIRED: 'N',
      SAMPLING_PERMITS_DEF: 'NOT_APPLICABLE',
      SAMPLING_PERMITS_FILENAME: 'NOT_APPLICABLE',
    }));
  offset += n;
  return rows;
};

async function confirmed(profileId: string, rows: Record<string, string>[]) {
  const { manifest_id } = await uploadManifest(h, uploader.key, profileId, rows, { validateHere: true });
  const stored = await h.database.db
    .select({ id: samples.id })
    .from(samples)
    .where(eq(samples.manifestId, manifest_id))
    .orderBy(samples.tubeOrWellId);
  return { manifestId: manifest_id, ids: stored.map((s) => s.id) };
}

const decide = (key: string, body: unknown) =>
  h.request('/api/sample/decision', { method: 'POST', key, headers: json, body: JSON.stringify(body) });
const get = async <T>(path: string, key: string) => {
  const res = await h.request(path, { key });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as T;
};
const row = async (id: string) => (await h.database.db.select().from(samples).where(eq(samples.id, id)))[0]!;
const pendingIds = async (u: User) => (await get<PendingSamples>('/api/sample/pending', u.key)).data.map((s) => s.svc_id);

describe('approval by associated type', () => {
  let ids: string[];

  it('keeps a BGE and ERGA_COMMUNITY sample pending after the ERGA_COMMUNITY approver alone accepts it, saying what it awaits', async () => {
    let manifestId: string;
    ({ ids, manifestId } = await confirmed(ergaProfile, ergaRows(2)));
    const [a] = ids;
    // the manager of ERGA and the approvers of the profile's two types hear of the new samples, one email each
    const announced = await h.database.db
      .select()
      .from(emails)
      .where(and(eq(emails.manifestId, manifestId), eq(emails.kind, 'manifest_confirmed')));
    const byId = (x: number, y: number) => x - y;
    expect(announced.map((e) => e.userIds).sort()).toEqual(
      [[ergaManager.user.id], [bge.user.id], [community.user.id], [silentBge.user.id]].sort(),
    );
    expect(announced.flatMap((e) => e.userIds).sort(byId)).toEqual(
      [ergaManager.user.id, bge.user.id, community.user.id, silentBge.user.id].sort(byId),
    );
    // both approvers see it waiting for them; the manager of ERGA approves neither type, so nothing waits for them
    expect(await pendingIds(bge)).toEqual(expect.arrayContaining(ids));
    expect(await pendingIds(community)).toEqual(expect.arrayContaining(ids));
    expect(await pendingIds(ergaManager)).toEqual([]);
    expect(await pendingIds(sanger)).toEqual([]);

    const res = await decide(community.key, { svc_ids: [a], decision: 'accept' });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toMatchObject({ accepted: [a], registrations: [] });
    const stored = await row(a!);
    expect(stored.status).toBe('pending');
    expect(Object.keys(stored.approvals)).toEqual(['ERGA_COMMUNITY']);
    expect(stored.approvals.ERGA_COMMUNITY?.user_id).toBe(community.user.id);

    // no longer waiting for the ERGA_COMMUNITY approver; still for the BGE approver, who sees who approved what
    expect(await pendingIds(community)).not.toContain(a);
    const forBge = await get<PendingSamples>('/api/sample/pending', bge.key);
    expect(forBge.data.find((s) => s.svc_id === a)).toMatchObject({
      status: 'pending',
      approvals: [{ associated_type: 'ERGA_COMMUNITY', user_id: community.user.id, approved_by: 'community-approver' }],
      waiting_for: ['BGE'],
      waiting_for_you: ['BGE'],
    });
    expect(forBge.data.find((s) => s.svc_id === ids[1])).toMatchObject({ approvals: [], waiting_for: ['BGE', 'ERGA_COMMUNITY'] });
    // the home page counts the same samples
    expect(await countAwaitingReview(h.database.db, bge.user)).toBe(forBge.number_found);
    expect(await countAwaitingReview(h.database.db, community.user)).toBe(
      (await get<PendingSamples>('/api/sample/pending', community.key)).number_found,
    );

    // the review queue says the same, and the ERGA_COMMUNITY approver follows it among what they decided
    const queue = await get<ReviewQueue>('/api/sample/review', bge.key);
    const shown = queue.data.flatMap((g) => g.samples).find((s) => s.svc_id === a);
    expect(shown).toMatchObject({ waiting_for: ['BGE'], waiting_for_you: ['BGE'], approvals: [{ approved_by: 'community-approver' }] });
    const decided = await get<ReviewQueue>('/api/sample/review?state=decided', community.key);
    expect(decided.data.flatMap((g) => g.samples).find((s) => s.svc_id === a)).toMatchObject({
      status: 'pending',
      decided_by: 'community-approver',
      waiting_for: ['BGE'],
      waiting_for_you: [],
    });
    // and the uploader reads which approval is missing
    const told = await h.database.db
      .select()
      .from(emails)
      .where(and(eq(emails.kind, 'samples_accepted'), sql`${uploader.user.id} = any(${emails.userIds})`));
    expect(told.at(-1)?.body).toContain('still needs the approval of the approvers of BGE');
  });

  it('refuses an accept that records nothing: 409 naming what the sample awaits, 404 for one who decides nothing on it', async () => {
    const [a] = ids;
    const again = await decide(community.key, { svc_ids: [a], decision: 'accept' });
    expect(again.status).toBe(409);
    const detail = ((await again.json()) as { detail: string }).detail;
    expect(detail).toContain(`${a} awaits BGE`);
    expect(detail).toContain('ERGA_COMMUNITY approved by community-approver');
    // the project's manager decides on it but approves neither type
    const manager = await decide(ergaManager.key, { svc_ids: [a], decision: 'accept' });
    expect(manager.status).toBe(409);
    expect(((await manager.json()) as { detail: string }).detail).toContain('awaits BGE');
    // approvers of a type it does not carry, and managers of another project, are told what an unknown id is told
    expect((await decide(sanger.key, { svc_ids: [a], decision: 'accept' })).status).toBe(404);
    expect((await decide(dtolManager.key, { svc_ids: [a], decision: 'reject', reason: 'no' })).status).toBe(404);
    expect((await row(a!)).status).toBe('pending');
    // who decides on it reads its permits (the review queue links them); an approver of another type does not
    expect((await h.request(`/api/sample/${a}/permits`, { key: bge.key })).status).toBe(200);
    expect((await h.request(`/api/sample/${a}/permits`, { key: sanger.key })).status).toBe(404);
  });

  it('sends the sample on when the BGE approver accepts: its last required approval', async () => {
    const [a] = ids;
    const res = await decide(bge.key, { svc_ids: [a], decision: 'accept' });
    expect(res.status, await res.clone().text()).toBe(200);
    const stored = await row(a!);
    // a ToLID service is configured: the specimen's ToLID comes first
    expect(stored.status).toBe('awaiting_tolid');
    expect(Object.keys(stored.approvals).sort()).toEqual(['BGE', 'ERGA_COMMUNITY']);
    await h.jobs['tolids.request']({ sampleIds: [a!] });
    // no Webin account: it waits for ENA
    expect((await row(a!)).status).toBe('awaiting_ena');
    expect(await pendingIds(bge)).not.toContain(a);
  });

  it('lets the project’s manager reject, clearing the approvals given', async () => {
    const [, b] = ids;
    expect((await decide(community.key, { svc_ids: [b], decision: 'accept' })).status).toBe(200);
    const res = await decide(ergaManager.key, { svc_ids: [b], decision: 'reject', reason: 'Wrong tissue' });
    expect(res.status).toBe(200);
    expect(await row(b!)).toMatchObject({ status: 'rejected', approvals: {}, rejectionReason: 'Wrong tissue' });
    // accepted again, it waits for every approval afresh instead of staying rejected
    expect((await decide(bge.key, { svc_ids: [b], decision: 'accept' })).status).toBe(200);
    expect(await row(b!)).toMatchObject({ status: 'pending', rejectionReason: null });
    expect(Object.keys((await row(b!)).approvals)).toEqual(['BGE']);
  });

  it('keeps DTOL working with the manager role alone: the project’s manager approves its own type', async () => {
    const dtolProfile = await createProfile(h, uploader.key, { title: 'Moths', description: '', type: 'dtol' });
    const { ids: dtolIds } = await confirmed(dtolProfile, validRows(currentDefinition('dtol'), 1));
    expect(await pendingIds(dtolManager)).toEqual(dtolIds);
    expect((await decide(dtolManager.key, { svc_ids: dtolIds, decision: 'accept' })).status).toBe(200);
    const stored = await row(dtolIds[0]!);
    expect(stored.status).toBe('awaiting_tolid');
    expect(stored.approvals.DTOL?.user_id).toBe(dtolManager.user.id);
  });
});

describe('an updated manifest', () => {
  it('clears the approvals of every type but SANGER when a sample really changes', async () => {
    const rows = ergaRows(1);
    const { ids } = await confirmed(sangerProfile, rows);
    const [a] = ids;
    expect((await row(a!)).associatedTolProjects.sort()).toEqual(['BGE', 'ERGA_COMMUNITY', 'SANGER']);
    expect((await decide(sanger.key, { svc_ids: [a], decision: 'accept' })).status).toBe(200);
    expect((await decide(community.key, { svc_ids: [a], decision: 'accept' })).status).toBe(200);
    expect(Object.keys((await row(a!)).approvals).sort()).toEqual(['ERGA_COMMUNITY', 'SANGER']);

    const changed = rows.map((r) => ({ ...r, IDENTIFIED_BY: 'Ana Identifier' }));
    const updated = await uploadManifest(h, uploader.key, sangerProfile, changed, { validateHere: true });
    expect(updated).toMatchObject({ created: 0, updated: 1 });
    const after = await row(a!);
    expect(after.status).toBe('pending');
    expect(Object.keys(after.approvals)).toEqual(['SANGER']);
    const forCommunity = await get<PendingSamples>('/api/sample/pending', community.key);
    expect(forCommunity.data.find((s) => s.svc_id === a)).toMatchObject({
      approvals: [{ associated_type: 'SANGER', approved_by: 'sanger-approver' }],
      waiting_for: ['BGE', 'ERGA_COMMUNITY'],
      waiting_for_you: ['ERGA_COMMUNITY'],
    });
    expect(await pendingIds(sanger)).not.toContain(a);
  });
});

describe('reminders', () => {
  const reminders = () => h.database.db.select().from(emails).where(eq(emails.kind, 'approval_reminder'));

  it('sends each approver one digest of the samples that waited for them longer than REMINDER_DAYS, once per interval', async () => {
    expect(h.config.REMINDER_DAYS).toBe(14);
    const { ids } = await confirmed(ergaProfile, ergaRows(2));
    // nothing has waited long enough yet
    await h.jobs['approvals.remind']();
    expect(await reminders()).toEqual([]);

    const old = sql`now() - interval '15 days'`;
    await h.database.db.update(samples).set({ timeCreated: old, timeUpdated: old }).where(inArray(samples.id, ids));
    await h.jobs['approvals.remind']();
    await h.jobs['approvals.remind']();
    const sent = await reminders();
    const to = (u: User) => sent.filter((e) => e.userIds.includes(u.user.id));
    // BGE and ERGA_COMMUNITY approvers: one each, listing both samples
    for (const u of [bge, community]) {
      expect(to(u)).toHaveLength(1);
      expect(to(u)[0]!.to).toEqual([u.user.email]);
      for (const id of ids) expect(to(u)[0]!.body).toContain(id);
      expect(to(u)[0]!.body).toContain('/manifests/review');
    }
    expect(to(bge)[0]!.body).toContain('awaits your approval for BGE');
    // nobody else: the manager of ERGA approves neither type, the SANGER approver has none of these, the silent one has no address
    expect(to(ergaManager)).toEqual([]);
    expect(to(sanger)).toEqual([]);
    expect(to(silentBge)).toEqual([]);
    expect(sent).toHaveLength(2);
    const [reminded] = await h.database.db.select().from(users).where(eq(users.id, bge.user.id));
    expect(reminded!.approvalRemindedAt).not.toBeNull();

    // a reminder older than the interval lets the next digest through
    await h.database.db.update(users).set({ approvalRemindedAt: sql`now() - interval '15 days'` }).where(eq(users.id, bge.user.id));
    await h.jobs['approvals.remind']();
    expect((await reminders()).filter((e) => e.userIds.includes(bge.user.id))).toHaveLength(2);
  });

  it('sends none with REMINDER_DAYS=0', async () => {
    const off = parseConfig({ REMINDER_DAYS: '0', DATA_DIR: h.config.dataDir, NEXTAUTH_SECRET: 'x' });
    expect(off.REMINDER_DAYS).toBe(0);
    await h.database.db.update(users).set({ approvalRemindedAt: null });
    const before = (await reminders()).length;
    expect(await remindApprovers({ db: h.database.db, mail: mailContext(off, h.deps.jobs), days: off.REMINDER_DAYS })).toBe(0);
    expect(await reminders()).toHaveLength(before);
    expect(() => parseConfig({ REMINDER_DAYS: '-1', DATA_DIR: h.config.dataDir, NEXTAUTH_SECRET: 'x' })).toThrow(/REMINDER_DAYS/);
  });
});

describe('a ToLID rejection', () => {
  it('tells the approvers of the sample, with the reason, as well as the uploader', async () => {
    const { ids, manifestId } = await confirmed(ergaProfile, ergaRows(1));
    const [a] = ids;
    const sample = await row(a!);
    const reason = 'Taxon 7227 is not a species we assign ToLIDs to.';
    server.tolid.setOutcome(sample.specimenId!, { status: 'rejected', reason });
    expect((await decide(community.key, { svc_ids: [a], decision: 'accept' })).status).toBe(200);
    expect((await decide(bge.key, { svc_ids: [a], decision: 'accept' })).status).toBe(200);
    expect((await row(a!)).status).toBe('awaiting_tolid');
    await h.jobs['tolids.request']({ sampleIds: [a!] });
    expect((await row(a!)).status).toBe('rejected');

    const told = await h.database.db
      .select()
      .from(emails)
      .where(and(eq(emails.manifestId, manifestId), eq(emails.kind, 'registration_failed')));
    const recipients = told.flatMap((e) => e.userIds).sort((x, y) => x - y);
    // the uploader, the two who approved it, and the other BGE approver (no address: recorded, not addressed)
    expect(recipients).toEqual([uploader.user.id, bge.user.id, community.user.id, silentBge.user.id].sort((x, y) => x - y));
    for (const e of told) expect(e.body).toContain(reason);
    const toBge = told.find((e) => e.userIds.includes(bge.user.id));
    expect(toBge?.to).toEqual(['bge@example.org']);
    expect(toBge?.body).toContain(a);
    // the manager of ERGA approves neither type: not told
    expect(recipients).not.toContain(ergaManager.user.id);
  });
});

describe('what a pending sample is said to wait for', () => {
  const inQueue = async (key: string, id: string, state: 'awaiting' | 'decided') =>
    (await get<ReviewQueue>(`/api/sample/review?state=${state}&limit=100`, key)).data
      .flatMap((g) => g.samples)
      .find((s) => s.svc_id === id);

  it('tells the one whose accept gives every awaited approval that it does, and says nothing is awaited once it has', async () => {
    const both = await h.user({ username: 'community-and-sanger', approverOf: ['ERGA_COMMUNITY', 'SANGER'] });
    const profile = await createProfile(h, uploader.key, {
      title: 'Sanger beetles',
      description: '',
      type: 'erga',
      associated_type: ['ERGA_COMMUNITY'],
      sequencing_centre: ['SANGER'],
    });
    const { ids, manifestId } = await confirmed(profile, ergaRows(2));
    const [a, b] = ids;
    const before = await inQueue(both.key, a!, 'awaiting');
    expect(before).toMatchObject({
      status: 'pending',
      waiting_for: ['ERGA_COMMUNITY', 'SANGER'],
      waiting_for_you: ['ERGA_COMMUNITY', 'SANGER'],
    });
    expect(awaitingWords(before!.waiting_for, before!.waiting_for_you)).toBe(
      'your accept approves ERGA_COMMUNITY and SANGER, its last approvals',
    );
    // the ERGA_COMMUNITY approver alone reads that SANGER's approval follows theirs
    const forCommunity = await inQueue(community.key, b!, 'awaiting');
    expect(awaitingWords(forCommunity!.waiting_for, forCommunity!.waiting_for_you)).toBe(
      'your accept approves ERGA_COMMUNITY; it then needs the approval of SANGER',
    );

    expect((await decide(both.key, { svc_ids: [a], decision: 'accept' })).status).toBe(200);
    expect(Object.keys((await row(a!)).approvals).sort()).toEqual(['ERGA_COMMUNITY', 'SANGER']);
    const after = await inQueue(both.key, a!, 'decided');
    expect(after?.status).not.toBe('pending');
    expect(after).toMatchObject({ waiting_for: [], waiting_for_you: [] });
    expect(awaitingWords(after!.waiting_for, after!.waiting_for_you)).toBeNull();
    // approved, it waits for its ToLID: the uploader's home page lists it by manifest; another member's does not
    expect((await row(a!)).status).toBe('awaiting_tolid');
    const tolids = await awaitingTolids(h.database.db, uploader.user);
    expect(tolids.find((t) => t.manifestId === manifestId)).toMatchObject({ samples: 1, profileTitle: 'Sanger beetles' });
    const stranger = await h.user({ memberOf: ['erga'] });
    expect(await awaitingTolids(h.database.db, stranger.user)).toEqual([]);

    // after the ERGA_COMMUNITY approver's accept, the one approval missing is named, to them and to the uploader's reviewers
    expect((await decide(community.key, { svc_ids: [b], decision: 'accept' })).status).toBe(200);
    const decided = await inQueue(community.key, b!, 'decided');
    expect(decided).toMatchObject({ status: 'pending', waiting_for: ['SANGER'], waiting_for_you: [] });
    expect(awaitingWords(decided!.waiting_for, decided!.waiting_for_you)).toBe('still needs the approval of SANGER');
    const forBoth = await inQueue(both.key, b!, 'awaiting');
    expect(awaitingWords(forBoth!.waiting_for, forBoth!.waiting_for_you)).toBe('your accept approves SANGER, its last approval');
  });
});
