import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, emails, samples } from '@/db/schema';
import { fakeTaxonomy } from './fixtures/manifests/taxa';
import { createProfile, dtolRows, uploadManifest } from './support/flows';
import { createHarness, type Harness } from './support/harness';

/**
 * A lab working together: the owner shares a DTOL profile with a contributor, a viewer and a group; the contributor
 * uploads and confirms a manifest; the viewer reads everything and is refused every write (403); a removed share or
 * membership ends access at once; a stranger is told nothing exists (404); shared people receive the profile's
 * emails; ownership moves, audited.
 */

type Person = Awaited<ReturnType<Harness['user']>>;
let h: Harness;
let owner: Person;
let contributor: Person;
let viewer: Person;
let member: Person;
let stranger: Person;
let admin: Person;
let manager: Person;
let profileId: string;
let offset = 0;
const json = { 'content-type': 'application/json' };

const call = (key: string, method: string, path: string, body?: unknown) =>
  h.request(path, { method, key, ...(body !== undefined && { headers: json, body: JSON.stringify(body) }) });

beforeAll(async () => {
  h = await createHarness({}, { taxonomy: fakeTaxonomy() });
  owner = await h.user({ memberOf: ['dtol'], email: 'owner@example.org' });
  contributor = await h.user({ memberOf: ['dtol'], email: 'contributor@example.org' });
  viewer = await h.user({ memberOf: ['dtol'], email: 'viewer@example.org' });
  member = await h.user({ memberOf: ['dtol'], email: 'member@example.org' });
  stranger = await h.user({ memberOf: ['dtol'] });
  admin = await h.user({ isAdmin: true });
  manager = await h.user({ memberOf: ['dtol'], managerOf: ['dtol'] });
  profileId = await createProfile(h, owner.key, { title: 'Lab moths', description: '', type: 'dtol' });
}, 120_000);
afterAll(() => h.close());

const rows = (n: number) => {
  const r = dtolRows(n, offset);
  offset += n;
  return r;
};

async function share(body: Record<string, unknown>, key = owner.key) {
  const res = await call(key, 'POST', `/api/profiles/${profileId}/shares`, body);
  return { status: res.status, body: (await res.json()) as { id: number; role: string; detail?: string } };
}

describe('sharing a profile with people', () => {
  it('lets only the owner share, refuses unknown people and non-members of the project, and changes a role in place', async () => {
    expect((await share({ username: contributor.user.username, role: 'contributor' })).status).toBe(201);
    const v = await share({ username: viewer.user.username, role: 'contributor' });
    expect(v.status).toBe(201);
    const again = await share({ username: viewer.user.username, role: 'viewer' });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: v.body.id, role: 'viewer' });

    expect((await share({ username: 'nobody-at-all', role: 'viewer' })).status).toBe(400);
    const outsider = await h.user({ memberOf: ['erga'] });
    const refused = await share({ username: outsider.user.username, role: 'viewer' });
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toMatch(/not a member of the DTOL project/);
    expect((await share({ username: owner.user.username, role: 'viewer' })).status).toBe(400);
    expect((await share({ username: stranger.user.username, role: 'owner' })).status).toBe(400);
    // a contributor sees the profile but may not share it; a stranger is told it does not exist
    expect((await share({ username: stranger.user.username, role: 'viewer' }, contributor.key)).status).toBe(403);
    expect((await share({ username: stranger.user.username, role: 'viewer' }, stranger.key)).status).toBe(404);

    const listed = (await (await call(viewer.key, 'GET', `/api/profiles/${profileId}/shares`)).json()) as {
      username: string;
      role: string;
    }[];
    expect(listed.map((s) => [s.username, s.role]).sort()).toEqual(
      [
        [contributor.user.username, 'contributor'],
        [viewer.user.username, 'viewer'],
      ].sort(),
    );
  });

  it('lists the profile to those it is shared with, with their role and its owner', async () => {
    for (const [p, role] of [
      [contributor, 'contributor'],
      [viewer, 'viewer'],
      [owner, 'owner'],
      [admin, 'admin'],
    ] as const) {
      const list = (await (await call(p.key, 'GET', '/api/profiles')).json()) as { id: string; role: string; owner: string }[];
      expect(
        list.find((x) => x.id === profileId),
        p.user.username,
      ).toMatchObject({ role, owner: owner.user.username });
    }
    const theirs = (await (await call(stranger.key, 'GET', '/api/profiles')).json()) as { id: string }[];
    expect(theirs.map((x) => x.id)).not.toContain(profileId);
    expect((await call(stranger.key, 'GET', `/api/profiles/${profileId}`)).status).toBe(404);
  });

  it('lets a contributor upload and confirm a manifest, which the viewer and the owner then read', async () => {
    const confirmed = await uploadManifest(h, contributor.key, profileId, rows(2), { validateHere: true });
    expect(confirmed.created).toBe(2);
    for (const p of [viewer, owner]) {
      const reports = (await (await call(p.key, 'GET', `/api/manifest/validations?profile_id=${profileId}`)).json()) as unknown[];
      expect(reports.length, p.user.username).toBe(1);
    }
    expect(await (await call(stranger.key, 'GET', `/api/manifest/validations?profile_id=${profileId}`)).json()).toEqual([]);
  });

  it('refuses every write to a viewer with 403, saying why, and changes nothing', async () => {
    const before = await h.database.db.select({ id: samples.id }).from(samples).where(eq(samples.profileId, profileId));
    const form = new FormData();
    form.set('profile_id', profileId);
    form.set('file', new File([new Uint8Array([1, 2, 3])], 'manifest.xlsx'));
    const upload = await h.request('/api/manifest/validate', { method: 'POST', key: viewer.key, body: form });
    expect(upload.status).toBe(403);
    expect(((await upload.json()) as { detail: string }).detail).toMatch(/viewer/);
    expect((await call(viewer.key, 'PUT', `/api/profiles/${profileId}`, { type: 'dtol', title: 'Mine now' })).status).toBe(403);
    expect((await call(viewer.key, 'DELETE', `/api/profiles/${profileId}`)).status).toBe(403);
    expect((await call(viewer.key, 'DELETE', `/api/sample/${before[0]!.id}`)).status).toBe(403);
    expect((await call(viewer.key, 'GET', `/api/profiles/${profileId}/files/presignedurls?file_names=a.txt`)).status).toBe(403);
    const after = await h.database.db.select({ id: samples.id }).from(samples).where(eq(samples.profileId, profileId));
    expect(after).toEqual(before);
  });

  it('tells shared people what became of the samples', async () => {
    const [sample] = await h.database.db.select({ id: samples.id }).from(samples).where(eq(samples.profileId, profileId));
    const res = await call(manager.key, 'POST', '/api/sample/decision', {
      svc_ids: [sample!.id],
      decision: 'reject',
      reason: 'Wrong tube',
    });
    expect(res.status).toBe(200);
    const [mail] = await h.database.db
      .select()
      .from(emails)
      .where(and(eq(emails.kind, 'samples_rejected'), eq(emails.profileId, profileId)));
    expect(mail?.to.sort()).toEqual(['contributor@example.org', 'owner@example.org', 'viewer@example.org']);
  });

  it('ends a share at once, and lets a person leave a profile', async () => {
    const list = (await (await call(owner.key, 'GET', `/api/profiles/${profileId}/shares`)).json()) as { id: number; username: string }[];
    const theViewer = list.find((s) => s.username === viewer.user.username)!;
    expect((await call(contributor.key, 'DELETE', `/api/profiles/${profileId}/shares/${theViewer.id}`)).status).toBe(403);
    expect((await call(owner.key, 'DELETE', `/api/profiles/${profileId}/shares/${theViewer.id}`)).status).toBe(204);
    expect((await call(viewer.key, 'GET', `/api/profiles/${profileId}`)).status).toBe(404);
    expect(await (await call(viewer.key, 'GET', `/api/manifest/validations?profile_id=${profileId}`)).json()).toEqual([]);
    // the viewer, shared again, leaves of their own accord
    const again = await share({ username: viewer.user.username, role: 'viewer' });
    expect((await call(viewer.key, 'DELETE', `/api/profiles/${profileId}/shares/${again.body.id}`)).status).toBe(204);
    expect((await call(viewer.key, 'GET', `/api/profiles/${profileId}`)).status).toBe(404);
    const events = await h.database.db.select().from(auditEvents).where(eq(auditEvents.profileId, profileId));
    expect(events.map((e) => e.action)).toEqual(expect.arrayContaining(['share', 'unshare']));
  });
});

describe('groups', () => {
  let groupId: number;

  it('are made by anyone and filled by their owner; members see them, strangers do not', async () => {
    const made = await call(owner.key, 'POST', '/api/groups', { name: 'Darwin lab' });
    expect(made.status).toBe(201);
    groupId = ((await made.json()) as { id: number }).id;
    expect((await call(owner.key, 'POST', '/api/groups', { name: 'Darwin lab' })).status).toBe(409);
    expect((await call(owner.key, 'POST', '/api/groups', { name: '  ' })).status).toBe(400);
    const added = await call(owner.key, 'POST', `/api/groups/${groupId}/members`, { username: member.user.username });
    expect(added.status).toBe(200);
    expect(((await added.json()) as { members: string[] }).members.sort()).toEqual([member.user.username, owner.user.username].sort());
    expect((await call(member.key, 'GET', `/api/groups/${groupId}`)).status).toBe(200);
    expect((await call(member.key, 'POST', `/api/groups/${groupId}/members`, { username: stranger.user.username })).status).toBe(403);
    expect((await call(stranger.key, 'GET', `/api/groups/${groupId}`)).status).toBe(404);
    expect((await call(stranger.key, 'POST', `/api/groups/${groupId}/members`, { username: stranger.user.username })).status).toBe(404);
    expect((await call(owner.key, 'DELETE', `/api/groups/${groupId}/members/${owner.user.username}`)).status).toBe(409);
  });

  it('share a profile with whoever is a member at the time', async () => {
    expect((await share({ group_id: groupId, role: 'contributor' })).status).toBe(201);
    const got = await call(member.key, 'GET', `/api/profiles/${profileId}`);
    expect(got.status).toBe(200);
    expect(((await got.json()) as { role: string }).role).toBe('contributor');
    // a stranger cannot share with a group they are not in
    const other = await call(stranger.key, 'POST', `/api/profiles/${profileId}/shares`, { group_id: groupId, role: 'viewer' });
    expect(other.status).toBe(404);

    const late = await h.user({ memberOf: ['dtol'] });
    expect((await call(late.key, 'GET', `/api/profiles/${profileId}`)).status).toBe(404);
    await call(owner.key, 'POST', `/api/groups/${groupId}/members`, { username: late.user.username });
    expect((await call(late.key, 'GET', `/api/profiles/${profileId}`)).status).toBe(200);

    expect((await call(owner.key, 'DELETE', `/api/groups/${groupId}/members/${member.user.username}`)).status).toBe(204);
    expect((await call(member.key, 'GET', `/api/profiles/${profileId}`)).status).toBe(404);
    // a member may leave
    expect((await call(late.key, 'DELETE', `/api/groups/${groupId}/members/${late.user.username}`)).status).toBe(204);
    expect((await call(late.key, 'GET', `/api/profiles/${profileId}`)).status).toBe(404);
  });
});

describe('the admin’s view', () => {
  it('shows each user’s groups and the profiles shared with them, directly or through a group', async () => {
    const res = await call(admin.key, 'GET', '/api/admin/users?limit=100');
    expect(res.status).toBe(200);
    const list = (await res.json()) as {
      username: string;
      groups: string[];
      shared_profiles: { title: string; role: string; via: string | null }[];
    }[];
    const of = (p: Person) => list.find((u) => u.username === p.user.username);
    expect(of(owner)?.groups).toEqual(['Darwin lab']);
    expect(of(contributor)?.shared_profiles).toEqual([{ id: profileId, title: 'Lab moths', role: 'contributor', via: null }]);
    expect(of(owner)?.shared_profiles).toEqual([{ id: profileId, title: 'Lab moths', role: 'contributor', via: 'Darwin lab' }]);
    expect(of(stranger)).toMatchObject({ groups: [], shared_profiles: [] });
  });
});

describe('giving a profile to another owner', () => {
  it('is the owner’s or an admin’s, checks the new owner, keeps the former one as asked, and is audited', async () => {
    const next = contributor;
    expect((await call(next.key, 'PUT', `/api/profiles/${profileId}/owner`, { username: next.user.username })).status).toBe(403);
    expect((await call(stranger.key, 'PUT', `/api/profiles/${profileId}/owner`, { username: stranger.user.username })).status).toBe(404);
    const outsider = await h.user({ memberOf: ['asg'] });
    expect((await call(owner.key, 'PUT', `/api/profiles/${profileId}/owner`, { username: outsider.user.username })).status).toBe(400);
    // the new owner has a profile of the same title already: 409, nothing changed
    const clash = await createProfile(h, next.key, { title: 'Lab moths', description: '', type: 'dtol' });
    expect((await call(owner.key, 'PUT', `/api/profiles/${profileId}/owner`, { username: next.user.username })).status).toBe(409);
    await call(next.key, 'PUT', `/api/profiles/${clash}`, { type: 'dtol', title: 'My own moths' });

    const moved = await call(admin.key, 'PUT', `/api/profiles/${profileId}/owner`, {
      username: next.user.username,
      former_owner_role: 'viewer',
    });
    expect(moved.status).toBe(200);
    expect(await moved.json()).toMatchObject({ owner: next.user.username, former_owner: owner.user.username, former_owner_role: 'viewer' });
    // the former owner keeps a viewer's share, but is also in the Darwin lab group, shared as contributor: the
    // stronger of the two counts
    const asFormer = (await (await call(owner.key, 'GET', `/api/profiles/${profileId}`)).json()) as { role: string; owner: string };
    expect(asFormer).toMatchObject({ role: 'contributor', owner: next.user.username });
    const formerShare = (await (await call(next.key, 'GET', `/api/profiles/${profileId}/shares`)).json()) as {
      username: string | null;
      role: string;
    }[];
    expect(formerShare.find((s) => s.username === owner.user.username)?.role).toBe('viewer');
    const asNew = (await (await call(next.key, 'GET', `/api/profiles/${profileId}`)).json()) as { role: string };
    expect(asNew.role).toBe('owner');
    // the new owner's own share is gone: they own it
    const shares = (await (await call(next.key, 'GET', `/api/profiles/${profileId}/shares`)).json()) as { username: string | null }[];
    expect(shares.map((s) => s.username)).not.toContain(next.user.username);
    const [event] = await h.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.profileId, profileId), eq(auditEvents.action, 'transfer')));
    expect(event).toMatchObject({ actorId: admin.user.id, detail: { from: owner.user.username, to: next.user.username } });
  });
});
