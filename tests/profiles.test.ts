import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profiles } from '@/db/schema';
import type { Profile } from '@/lib/profiles/contract';
import { updateUser } from '@/lib/users/users';
import { createHarness, type Harness } from './support/harness';
import { expectProblem, jsonBody } from './support/http';

let h: Harness;
type U = Awaited<ReturnType<Harness['user']>>;
let alice: U;
let bob: U;
let ergaMember: U;
let tolMember: U;
let admin: U;

beforeAll(async () => {
  h = await createHarness();
  alice = await h.user();
  bob = await h.user();
  ergaMember = await h.user({ memberOf: ['erga'] });
  tolMember = await h.user({ memberOf: ['asg', 'dtol', 'dtolenv'] });
  admin = await h.user({ isAdmin: true });
});
afterAll(() => h.close());

const post = (key: string, body: unknown) => h.request('/api/profiles', { ...jsonBody('POST', body), key });
const put = (key: string, id: string, body: unknown) => h.request(`/api/profiles/${id}`, { ...jsonBody('PUT', body), key });

async function create(key: string, body: Record<string, unknown>): Promise<Profile> {
  const res = await post(key, body);
  expect(res.status, JSON.stringify(await res.clone().json())).toBe(201);
  return (await res.json()) as Profile;
}

describe('POST profiles', () => {
  it('creates a biodata profile for anyone and returns the whole record', async () => {
    const before = Date.now();
    const p = await create(alice.key, { title: 'Cells 1', description: 'single-cell atlas', type: 'BioData' });
    expect(p.id).toMatch(/^[0-9a-f]{24}$/);
    expect(p).toMatchObject({
      title: 'Cells 1',
      description: 'single-cell atlas',
      type: 'biodata',
      associated_type: [],
      sequencing_centre: [],
    });
    expect(Date.parse(p.date_created)).toBeGreaterThanOrEqual(before - 1000);
    expect(p.date_modified).toBe(p.date_created);
  });

  it.each([
    ['no type', { title: 't-none', description: '' }, 'Missing required field: Type type'],
    [
      'an unknown type',
      { title: 't-x', description: '', type: 'plants' },
      "Invalid value for 'type'. Must be one of: asg, dtol, dtolenv, erga or biodata",
    ],
    [
      'the legacy genomics type',
      { title: 't-g', description: '', type: 'genomics' },
      "Invalid value for 'type'. Must be one of: asg, dtol, dtolenv, erga or biodata",
    ],
    ['no title', { description: 'd', type: 'biodata' }, 'Missing required field: Title title'],
    ['a blank title', { title: '   ', description: 'd', type: 'biodata' }, 'Missing required field: Title title'],
  ])('refuses %s with 400', async (_name, body, detail) => {
    const res = await post(alice.key, body);
    expect((await expectProblem(res, 400)).detail).toBe(detail);
  });

  it('keeps ENA locus-tag prefixes, upper-cased, and refuses one ENA would not take', async () => {
    const p = await create(alice.key, { title: 'Annotated', description: '', type: 'biodata', ena_locus_tags: 'bn123, ABCD' });
    expect(p.ena_locus_tags).toEqual(['BN123', 'ABCD']);
    const bad = await expectProblem(await post(alice.key, { title: 'Bad tags', type: 'biodata', ena_locus_tags: ['1AB'] }), 400);
    expect(bad.detail).toContain("Invalid value '1AB'");
    // an update without them keeps them; an empty value clears them
    const kept = (await (await put(alice.key, p.id, { title: 'Annotated', type: 'biodata' })).json()) as Profile;
    expect(kept.ena_locus_tags).toEqual(['BN123', 'ABCD']);
    const cleared = (await (await put(alice.key, p.id, { type: 'biodata', ena_locus_tags: '' })).json()) as Profile;
    expect(cleared.ena_locus_tags).toEqual([]);
  });

  it('refuses a malformed body with 400', async () => {
    await expectProblem(await post(alice.key, { title: 5, type: 'biodata' }), 400);
    await expectProblem(await post(alice.key, ['biodata']), 400);
  });

  it('refuses a Tree of Life type to a user who is not a member of the project (403)', async () => {
    for (const type of ['asg', 'dtol', 'dtolenv', 'erga']) {
      const body = await expectProblem(await post(alice.key, { title: `tol ${type}`, description: '', type }), 403);
      expect(body.detail).toContain(`not a member of the ${type.toUpperCase()} project`);
    }
    const rows = await h.database.db.select().from(profiles).where(eq(profiles.ownerId, alice.user.id));
    expect(rows.every((r) => r.type === 'biodata')).toBe(true);
  });

  it('gives asg, dtol and dtolenv profiles their fixed associated type', async () => {
    const asg = await create(tolMember.key, { title: 'Sym', description: '', type: 'asg' });
    const dtol = await create(tolMember.key, { title: 'Moths', description: '', type: 'DTOL', associated_type: ['DTOL'] });
    const env = await create(tolMember.key, { title: 'Soil', description: '', type: 'dtolenv' });
    expect([asg.associated_type, dtol.associated_type, env.associated_type]).toEqual([['ASG'], ['DTOL'], ['DTOL_ENV']]);
    const wrong = await post(tolMember.key, { title: 'Moths 2', description: '', type: 'dtol', associated_type: ['BGE'] });
    expect((await expectProblem(wrong, 400)).errors).toEqual([
      { path: 'associated_type', message: 'The associated type of dtol profiles is DTOL; BGE is not allowed' },
    ]);
    await expectProblem(await post(tolMember.key, { title: 'M3', type: 'dtol', sequencing_centre: ['EI'] }), 400);
  });

  it('lets ERGA profiles choose associated types and centres, adding SANGER when that centre is chosen', async () => {
    const p = await create(ergaMember.key, {
      title: 'Alpine plants',
      description: 'ERGA pilot',
      type: 'erga',
      associated_type: ['erga_pilot', 'BGE'],
      sequencing_centre: ['SANGER INSTITUTE', 'ei'],
    });
    expect(p.associated_type).toEqual(['BGE', 'ERGA_PILOT', 'SANGER']);
    expect(p.sequencing_centre).toEqual(['EI', 'SANGER']);
    const labelWithComma = await create(ergaMember.key, {
      title: 'Helsinki',
      description: '',
      type: 'erga',
      associated_type: 'POP_GENOMICS',
      sequencing_centre: ['DNA SEQUENCING AND GENOMICS LABORATORY, HELSINKI GENOMICS CORE FACILITY'],
    });
    expect(labelWithComma).toMatchObject({ associated_type: ['POP_GENOMICS'], sequencing_centre: ['BIDGEN'] });
  });

  it('validates ERGA choices', async () => {
    const bad = await post(ergaMember.key, {
      title: 'bad erga',
      type: 'erga',
      associated_type: ['DTOL'],
      sequencing_centre: ['Nowhere Lab'],
    });
    const body = await expectProblem(bad, 400);
    expect((body.errors as Array<{ path: string }>).map((e) => e.path).sort()).toEqual(['associated_type', 'sequencing_centre']);
    const missing = await expectProblem(await post(ergaMember.key, { title: 'bare erga', type: 'erga' }), 400);
    expect(missing.detail).toContain('sequencing_centre');
    expect(missing.detail).toContain('associated_type');
  });

  it('refuses a duplicate title of the same owner with 409, but not another user’s', async () => {
    await create(alice.key, { title: 'Shared name', description: '', type: 'biodata' });
    const dup = await expectProblem(await post(alice.key, { title: 'Shared name', description: 'x', type: 'biodata' }), 409);
    expect(dup.detail).toBe('Record already exist with title: Shared name');
    await create(bob.key, { title: 'Shared name', description: '', type: 'biodata' });
  });

  it('needs an API key', async () => {
    await expectProblem(await h.request('/api/profiles', jsonBody('POST', { title: 'a', type: 'biodata' })), 401);
    await expectProblem(await h.request('/api/profiles'), 401);
  });
});

describe('GET profiles', () => {
  it('lists only the caller’s profiles, most recently changed first', async () => {
    const res = await h.request('/api/profiles', { key: bob.key });
    expect(res.status).toBe(200);
    const mine = (await res.json()) as Profile[];
    expect(mine.map((p) => p.title)).toEqual(['Shared name']);
    const a = await create(bob.key, { title: 'Newer', description: '', type: 'biodata' });
    const again = (await (await h.request('/api/profiles', { key: bob.key })).json()) as Profile[];
    expect(again.map((p) => p.id)[0]).toBe(a.id);
  });

  it('answers an empty list to a user with no profiles', async () => {
    const nobody = await h.user();
    expect(await (await h.request('/api/profiles', { key: nobody.key })).json()).toEqual([]);
  });

  it('shows an admin every profile, and lets the admin read any of them', async () => {
    const all = (await (await h.request('/api/profiles', { key: admin.key })).json()) as Profile[];
    const owners = await h.database.db.select({ id: profiles.id }).from(profiles);
    expect(all.map((p) => p.id).sort()).toEqual(owners.map((o) => o.id).sort());
    const alices = all.find((p) => p.title === 'Cells 1')!;
    expect((await h.request(`/api/profiles/${alices.id}`, { key: admin.key })).status).toBe(200);
  });

  it('reads one profile of the caller', async () => {
    const p = await create(alice.key, { title: 'Readable', description: 'r', type: 'biodata' });
    const res = await h.request(`/api/profiles/${p.id}`, { key: alice.key });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(p);
    expect((await h.request(`/api/profiles/${p.id}/`, { key: alice.key })).status).toBe(200);
  });

  it('answers 404 with the same body for an unknown id and for another user’s profile', async () => {
    const bobs = await create(bob.key, { title: 'Bob private', description: '', type: 'biodata' });
    const unknown = '0123456789abcdef01234567';
    const strip = ({ request_id: _r, ...rest }: Record<string, unknown>) => rest;
    for (const method of ['GET', 'PUT'] as const) {
      const init = method === 'PUT' ? jsonBody('PUT', { title: 'stolen', type: 'biodata' }) : {};
      const foreign = await expectProblem(await h.request(`/api/profiles/${bobs.id}`, { ...init, key: alice.key }), 404);
      const missing = await expectProblem(await h.request(`/api/profiles/${unknown}`, { ...init, key: alice.key }), 404);
      expect(strip(foreign)).toEqual(strip(missing));
      expect(foreign.detail).toBe('Profile not found');
    }
    const [row] = await h.database.db.select().from(profiles).where(eq(profiles.id, bobs.id));
    expect(row!.title).toBe('Bob private');
  });

  it('does not take a malformed id, or the literal sub-paths, for a profile id', async () => {
    await expectProblem(await h.request('/api/profiles/NOT-AN-ID', { key: alice.key }), 404);
    await expectProblem(await h.request('/api/profiles/0123456789ABCDEF01234567', { key: alice.key }), 404);
    expect((await h.request('/api/profiles/types', { key: alice.key })).status).toBe(200);
    const res = await h.request('/api/profiles/types', { ...jsonBody('PUT', {}), key: alice.key });
    await expectProblem(res, 405);
  });

  it('refuses an owner who is no longer a member of the profile’s project (403)', async () => {
    const member = await h.user({ memberOf: ['dtol'] });
    const p = await create(member.key, { title: 'Was mine', description: '', type: 'dtol' });
    await updateUser(h.database.db, member.user.id, { memberOf: [] });
    await expectProblem(await h.request(`/api/profiles/${p.id}`, { key: member.key }), 403);
  });
});

describe('PUT profiles/{profile_id}', () => {
  it('updates title and description and moves date_modified', async () => {
    const p = await create(alice.key, { title: 'Draft', description: 'old', type: 'biodata' });
    await new Promise((r) => setTimeout(r, 5));
    const res = await put(alice.key, p.id, { title: 'Final', description: 'new', type: 'biodata' });
    expect(res.status).toBe(200);
    const u = (await res.json()) as Profile;
    expect(u).toMatchObject({ id: p.id, title: 'Final', description: 'new', type: 'biodata', date_created: p.date_created });
    expect(Date.parse(u.date_modified)).toBeGreaterThan(Date.parse(p.date_modified));
    const same = await put(alice.key, p.id, { title: 'Final', type: 'BIODATA' });
    expect(((await same.json()) as Profile).description).toBe('new');
  });

  it('refuses a type change with 400 (docs/api-behaviour.md §3.2.4) and leaves the profile unchanged', async () => {
    const p = await create(tolMember.key, { title: 'Fixed type', description: 'keep', type: 'dtol' });
    const [before] = await h.database.db.select().from(profiles).where(eq(profiles.id, p.id));
    for (const type of ['asg', 'biodata', 'erga', 'plants']) {
      const res = await put(tolMember.key, p.id, { title: 'Changed', description: 'changed', type });
      expect((await expectProblem(res, 400)).detail).toBe('It is not possible to modify the profile type');
    }
    const [after] = await h.database.db.select().from(profiles).where(eq(profiles.id, p.id));
    expect(after).toEqual(before);
  });

  it('needs the type to be resent', async () => {
    const p = await create(alice.key, { title: 'Typeless update', description: '', type: 'biodata' });
    expect((await expectProblem(await put(alice.key, p.id, { title: 'x' }), 400)).detail).toBe('Missing required field: Type type');
  });

  it('refuses a title the owner already uses (409)', async () => {
    const p = await create(alice.key, { title: 'Second', description: '', type: 'biodata' });
    const res = await put(alice.key, p.id, { title: 'Shared name', type: 'biodata' });
    expect((await expectProblem(res, 409)).detail).toBe('Record already exist with title: Shared name');
  });

  it('updates ERGA associated types and centres, keeping what is not sent', async () => {
    const p = await create(ergaMember.key, {
      title: 'Erga update',
      description: '',
      type: 'erga',
      associated_type: ['BGE'],
      sequencing_centre: ['EI'],
    });
    const u1 = (await (await put(ergaMember.key, p.id, { type: 'erga', sequencing_centre: ['SANGER'] })).json()) as Profile;
    expect(u1).toMatchObject({ associated_type: ['BGE', 'SANGER'], sequencing_centre: ['SANGER'] });
    const u2 = (await (await put(ergaMember.key, p.id, { type: 'erga', associated_type: ['CBP'] })).json()) as Profile;
    expect(u2).toMatchObject({ associated_type: ['CBP', 'SANGER'], sequencing_centre: ['SANGER'] });
    await expectProblem(await put(ergaMember.key, p.id, { type: 'erga', sequencing_centre: ['NOPE'] }), 400);
  });

  it('lets an admin update another user’s profile, keeping the owner', async () => {
    const p = await create(bob.key, { title: 'Admin edits', description: '', type: 'biodata' });
    expect((await put(admin.key, p.id, { description: 'fixed by admin', type: 'biodata' })).status).toBe(200);
    const [row] = await h.database.db.select().from(profiles).where(eq(profiles.id, p.id));
    expect(row).toMatchObject({ ownerId: bob.user.id, description: 'fixed by admin' });
  });
});

describe('profile reference lists', () => {
  it('lists creatable types with whether the caller may use each', async () => {
    const forAlice = (await (await h.request('/api/profiles/types', { key: alice.key })).json()) as Array<{
      type: string;
      allowed: boolean;
      tol: boolean;
      associated_type: string[];
    }>;
    expect(forAlice.map((t) => t.type)).toEqual(['asg', 'dtol', 'dtolenv', 'erga', 'biodata']);
    expect(forAlice.filter((t) => t.allowed).map((t) => t.type)).toEqual(['biodata']);
    expect(forAlice.find((t) => t.type === 'dtolenv')).toMatchObject({ tol: true, associated_type: ['DTOL_ENV'] });
    const forErga = (await (await h.request('/api/profiles/types', { key: ergaMember.key })).json()) as typeof forAlice;
    expect(forErga.filter((t) => t.allowed).map((t) => t.type)).toEqual(['erga', 'biodata']);
    await expectProblem(await h.request('/api/profiles/types'), 401);
  });

  it('lists associated types and sequencing centres', async () => {
    const res = await h.request('/api/profiles/options', { key: alice.key });
    const body = (await res.json()) as {
      associated_types: Array<{ name: string; selectable: boolean }>;
      sequencing_centres: Array<{ name: string; label: string; approval_required: boolean }>;
    };
    expect(body.associated_types.filter((a) => a.selectable).map((a) => a.name)).toEqual([
      'BGE',
      'BIOBLITZ',
      'CBP',
      'ERGA_PILOT',
      'ERGA_COMMUNITY',
      'POP_GENOMICS',
      'SANGER',
    ]);
    expect(body.sequencing_centres).toHaveLength(20);
    expect(body.sequencing_centres.filter((c) => c.approval_required).map((c) => c.name)).toEqual(['SANGER']);
    expect(body.sequencing_centres.find((c) => c.name === 'EI')?.label).toBe('EARLHAM INSTITUTE');
  });

  it('documents the profile routes with plain path parameters', async () => {
    const doc = (await (await h.request('/api/openapi.json')).json()) as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(doc.paths['/api/profiles/{profile_id}'] ?? {}).sort()).toEqual(['delete', 'get', 'put']);
    expect(doc.paths['/api/profiles/{profile_id}/files/presignedurls']).toHaveProperty('post');
    expect(doc.paths['/api/uploads/{profile_id}/{file_name}']).toHaveProperty('put');
    expect(Object.keys(doc.paths).some((p) => p.includes(':') || p.includes('{['))).toBe(false);
  });
});
