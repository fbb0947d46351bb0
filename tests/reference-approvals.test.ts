import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { samples } from '@/db/schema';
import { currentDefinition } from '@/lib/manifests';
import type { Profile, ProfileOptions } from '@/lib/profiles/contract';
import type { PendingSamples } from '@/lib/samples/contract';
import { validRows } from './fixtures/manifests/generate';
import { fakeTaxonomy } from './fixtures/manifests/taxa';
import { createProfile, uploadManifest } from './support/flows';
import { createHarness, type Harness } from './support/harness';
import { expectProblem, jsonBody } from './support/http';

/**
 * A sub-project an admin adds (issue 59) is a sub-project like those the service came with: ERGA profiles pick it,
 * its samples wait for its approvers, a changed re-upload asks for its approval again unless the admin said not to,
 * and once retired it is offered no more while the profiles and samples that have it stay valid.
 */

type User = Awaited<ReturnType<Harness['user']>>;
let h: Harness;
let admin: User;
let uploader: User;
let kelpApprover: User;
let bgeApprover: User;
let profileId: string;
let offset = 0;

beforeAll(async () => {
  h = await createHarness({}, { taxonomy: fakeTaxonomy() });
  admin = await h.user({ isAdmin: true });
  uploader = await h.user({ memberOf: ['erga'] });
  bgeApprover = await h.user({ approverOf: ['BGE'] });
}, 60_000);
afterAll(() => h.close());

const send = (method: string, path: string, body: unknown, key = admin.key) => h.request(path, { ...jsonBody(method, body), key });
const options = async () => (await (await h.request('/api/profiles/options', { key: uploader.key })).json()) as ProfileOptions;
const pendingIds = async (u: User) =>
  ((await (await h.request('/api/sample/pending', { key: u.key })).json()) as PendingSamples).data.map((s) => s.svc_id);
const row = async (id: string) => (await h.database.db.select().from(samples).where(eq(samples.id, id)))[0]!;
const decide = (u: User, ids: string[]) => send('POST', '/api/sample/decision', { svc_ids: ids, decision: 'accept' }, u.key);

/** ERGA rows naming no permit, new specimens each time. */
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

async function confirmed(rows: Record<string, string>[]) {
  const { manifest_id } = await uploadManifest(h, uploader.key, profileId, rows, { validateHere: true });
  const stored = await h.database.db
    .select({ id: samples.id })
    .from(samples)
    .where(eq(samples.manifestId, manifest_id))
    .orderBy(samples.tubeOrWellId);
  return stored.map((s) => s.id);
}

describe('a new associated type', () => {
  it('cannot have approvers before it exists', async () => {
    const refused = await send('POST', '/api/admin/users', { username: 'early-kelp', password: 'early-kelp-pw', approver_of: ['KELP'] });
    expect(((await expectProblem(refused, 400)).errors as { path: string }[])[0]?.path).toMatch(/^approver_of/);
  });

  it('added by an admin, is offered on a new ERGA profile, and its samples wait for its approvers', async () => {
    const added = await send('POST', '/api/admin/associated-types', {
      name: 'KELP',
      label: 'Kelp Forest Genomes (KELP)',
      approval_required: true,
    });
    expect(added.status, await added.clone().text()).toBe(201);
    kelpApprover = await h.user({ approverOf: ['KELP'] });
    expect((await options()).associated_types.find((a) => a.name === 'KELP')).toEqual({
      name: 'KELP',
      label: 'Kelp Forest Genomes (KELP)',
      approval_required: true,
      selectable: true,
    });

    profileId = await createProfile(h, uploader.key, {
      title: 'Kelp forests',
      description: '',
      type: 'erga',
      associated_type: ['KELP', 'BGE'],
      sequencing_centre: ['CNAG'],
    });
    const ids = await confirmed(ergaRows(2));
    expect((await row(ids[0]!)).associatedTolProjects).toEqual(['BGE', 'KELP']);
    expect(await pendingIds(kelpApprover)).toEqual(expect.arrayContaining(ids));
    expect(await pendingIds(bgeApprover)).toEqual(expect.arrayContaining(ids));

    const [a] = ids;
    expect((await decide(kelpApprover, [a!])).status).toBe(200);
    expect(Object.keys((await row(a!)).approvals)).toEqual(['KELP']);
    expect((await row(a!)).status).toBe('pending');
    expect(await pendingIds(kelpApprover)).not.toContain(a);
    // its last approval, BGE's, sends it on
    expect((await decide(bgeApprover, [a!])).status).toBe(200);
    expect((await row(a!)).status).not.toBe('pending');
  });

  it('asks for its approval again after a changed re-upload, unless the admin says it is kept', async () => {
    const rows = ergaRows(1);
    const [a] = await confirmed(rows);
    expect((await decide(kelpApprover, [a!])).status).toBe(200);
    await confirmed(rows.map((r) => ({ ...r, IDENTIFIED_BY: 'Ana Identifier' })));
    expect((await row(a!)).approvals).toEqual({});

    expect((await send('PATCH', '/api/admin/associated-types/KELP', { approval_required_on_update: false })).status).toBe(200);
    expect((await decide(kelpApprover, [a!])).status).toBe(200);
    await confirmed(rows.map((r) => ({ ...r, IDENTIFIED_BY: 'Bo Identifier' })));
    expect(Object.keys((await row(a!)).approvals)).toEqual(['KELP']);
    expect(await pendingIds(kelpApprover)).not.toContain(a);
    expect(await pendingIds(bgeApprover)).toContain(a);
  });

  it('retired, is offered no more, while the profiles and samples that have it stay valid', async () => {
    const waiting = (await pendingIds(kelpApprover)).filter(Boolean);
    expect(waiting.length).toBeGreaterThan(0);
    expect((await send('PATCH', '/api/admin/associated-types/KELP', { selectable: false })).status).toBe(200);
    expect((await options()).associated_types.find((a) => a.name === 'KELP')?.selectable).toBe(false);

    // not for a new profile
    const fresh = await send(
      'POST',
      '/api/profiles',
      { title: 'More kelp', description: '', type: 'erga', associated_type: ['KELP'], sequencing_centre: ['CNAG'] },
      uploader.key,
    );
    expect(((await expectProblem(fresh, 400)).errors as { path: string }[]).map((e) => e.path)).toContain('associated_type');
    // nor added to a profile that does not have it
    const other = await createProfile(h, uploader.key, {
      title: 'Seagrass',
      description: '',
      type: 'erga',
      associated_type: ['BGE'],
      sequencing_centre: ['CNAG'],
    });
    await expectProblem(await send('PUT', `/api/profiles/${other}`, { type: 'erga', associated_type: ['BGE', 'KELP'] }, uploader.key), 400);

    // the profile that has it keeps it, renamed or sent again as it is
    const renamed = await send('PUT', `/api/profiles/${profileId}`, { type: 'erga', title: 'Kelp forests of Norway' }, uploader.key);
    expect(renamed.status).toBe(200);
    expect(((await renamed.json()) as Profile).associated_type).toEqual(['BGE', 'KELP']);
    const again = await send('PUT', `/api/profiles/${profileId}`, { type: 'erga', associated_type: ['KELP', 'BGE'] }, uploader.key);
    expect(again.status, await again.clone().text()).toBe(200);
    // its samples still wait for its approvers, and a new manifest of the profile carries it
    expect(await pendingIds(kelpApprover)).toEqual(waiting);
    const [b] = await confirmed(ergaRows(1));
    expect((await row(b!)).associatedTolProjects).toEqual(['BGE', 'KELP']);
    expect(await pendingIds(kelpApprover)).toContain(b);
  });

  it('works the same way for a retired sequencing centre', async () => {
    expect((await send('PATCH', '/api/admin/sequencing-centres/CNAG', { selectable: false })).status).toBe(200);
    expect((await options()).sequencing_centres.find((c) => c.name === 'CNAG')?.selectable).toBe(false);
    const fresh = await send(
      'POST',
      '/api/profiles',
      { title: 'Retired centre', description: '', type: 'erga', associated_type: ['BGE'], sequencing_centre: ['CNAG'] },
      uploader.key,
    );
    expect(((await expectProblem(fresh, 400)).errors as { path: string }[]).map((e) => e.path)).toContain('sequencing_centre');
    const kept = await send('PUT', `/api/profiles/${profileId}`, { type: 'erga', sequencing_centre: ['CNAG'] }, uploader.key);
    expect(kept.status, await kept.clone().text()).toBe(200);
    expect(((await kept.json()) as Profile).sequencing_centre).toEqual(['CNAG']);
    // the query API still finds its samples by it
    expect((await h.request('/api/sample/sequencing_centre?sequencing_centre=CNAG')).status).toBe(200);
  });
});
