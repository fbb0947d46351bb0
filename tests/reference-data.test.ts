import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents } from '@/db/schema';
import { createReferenceCache, REFERENCE_CACHE_SECONDS } from '@/lib/reference/cache';
import type { AssociatedTypeJson, SequencingCentreJson } from '@/lib/reference/contract';
import { associatedTypes } from '@/lib/reference/read';
import { createHarness, type Harness } from './support/harness';
import { expectProblem, jsonBody } from './support/http';

/**
 * The associated types and sequencing centres as reference data an admin edits (issue 59): installed with the lists
 * the service had, changed through the admin API with an audit row each, refused whole when the body is wrong, and
 * seen by another instance within its cache time. tests/reference-approvals.test.ts follows a new type through a
 * profile and its samples' approval.
 */

let h: Harness;
let admin: Awaited<ReturnType<Harness['user']>>;
let someone: Awaited<ReturnType<Harness['user']>>;

beforeAll(async () => {
  h = await createHarness();
  admin = await h.user({ isAdmin: true });
  someone = await h.user({ memberOf: ['erga'] });
}, 60_000);
afterAll(() => h.close());

const send = (method: string, path: string, body: unknown, key = admin.key) => h.request(path, { ...jsonBody(method, body), key });
const list = async <T>(path: string): Promise<T[]> => {
  const res = await h.request(path, { key: admin.key });
  expect(res.status).toBe(200);
  return (await res.json()) as T[];
};
const types = () => list<AssociatedTypeJson>('/api/admin/associated-types');
const centres = () => list<SequencingCentreJson>('/api/admin/sequencing-centres');
const referenceEvents = () =>
  h.database.db
    .select()
    .from(auditEvents)
    .where(inArray(auditEvents.objectType, ['associated_type', 'sequencing_centre']))
    .orderBy(auditEvents.id);

describe('as installed', () => {
  it('holds the lists the service had, in their order, with SANGER’s approval kept on update', async () => {
    const all = await types();
    expect(all.map((t) => t.name)).toEqual([
      'ASG',
      'BGE',
      'BIOBLITZ',
      'CBP',
      'DTOL',
      'DTOL_ENV',
      'ERGA',
      'ERGA_PILOT',
      'ERGA_COMMUNITY',
      'POP_GENOMICS',
      'SANGER',
    ]);
    expect(all.filter((t) => t.approval_required).map((t) => t.name)).toEqual([
      'ASG',
      'BGE',
      'BIOBLITZ',
      'CBP',
      'DTOL',
      'ERGA_PILOT',
      'ERGA_COMMUNITY',
      'POP_GENOMICS',
      'SANGER',
    ]);
    expect(all.filter((t) => !t.approval_required_on_update).map((t) => t.name)).toEqual(['SANGER']);
    expect(all.filter((t) => !t.selectable).map((t) => t.name)).toEqual(['ASG', 'DTOL', 'DTOL_ENV', 'ERGA']);
    const cs = await centres();
    expect(cs).toHaveLength(20);
    expect(cs[0]).toMatchObject({ name: 'UNIBA', label: 'UNIVERSITY OF BARI', approval_required: false, contacts: [], selectable: true });
    expect(cs.filter((c) => c.approval_required).map((c) => c.name)).toEqual(['SANGER']);
    expect(cs.at(-1)?.name).toBe('OTHER');
  });
});

describe('the admin API', () => {
  it('is an admin’s only: anyone else is told 404, no key 401', async () => {
    for (const path of ['/api/admin/associated-types', '/api/admin/sequencing-centres']) {
      await expectProblem(await h.request(path, { key: someone.key }), 404);
      await expectProblem(await h.request(path), 401);
      await expectProblem(await send('POST', path, { name: 'NOPE', label: 'Nope' }, someone.key), 404);
    }
    await expectProblem(await send('PATCH', '/api/admin/associated-types/BGE', { selectable: false }, someone.key), 404);
    await expectProblem(await send('PATCH', '/api/admin/sequencing-centres/EI', { selectable: false }, someone.key), 404);
    expect((await types()).find((t) => t.name === 'BGE')?.selectable).toBe(true);
  });

  it('refuses a wrong body with 400 problem+json naming the field, a taken name with 409, an unknown one with 404, and changes nothing', async () => {
    const before = { types: await types(), centres: await centres(), events: (await referenceEvents()).length };
    const bad: [string, string, unknown, number, string | null][] = [
      ['POST', '/api/admin/associated-types', { name: 'NEW_ONE' }, 400, 'label'],
      ['POST', '/api/admin/associated-types', { name: 'new one', label: 'New' }, 400, 'name'],
      ['POST', '/api/admin/associated-types', { name: 'NEW_ONE', label: 'New', approvalRequired: true }, 400, null],
      ['POST', '/api/admin/associated-types', { name: 'NEW_ONE', label: 'New', selectable: 'yes' }, 400, 'selectable'],
      ['POST', '/api/admin/associated-types', { name: 'BGE', label: 'Another BGE' }, 409, null],
      ['PATCH', '/api/admin/associated-types/BGE', {}, 400, null],
      ['PATCH', '/api/admin/associated-types/BGE', { label: '' }, 400, 'label'],
      ['PATCH', '/api/admin/associated-types/BGE', { name: 'BGE2' }, 400, null],
      ['PATCH', '/api/admin/associated-types/NO_SUCH_TYPE', { selectable: false }, 404, null],
      [
        'POST',
        '/api/admin/sequencing-centres',
        { name: 'NEWLAB', label: 'New lab', contacts: [{ name: 'Jo', email: 'not an address' }] },
        400,
        'contacts',
      ],
      // a centre that needs approval needs the associated type of its name, whose approvers approve it
      ['POST', '/api/admin/sequencing-centres', { name: 'NEWLAB', label: 'New lab', approval_required: true }, 400, 'approval_required'],
      ['POST', '/api/admin/sequencing-centres', { name: 'EI', label: 'Earlham again' }, 409, null],
      ['PATCH', '/api/admin/sequencing-centres/EI', { approval_required: true }, 400, 'approval_required'],
      ['PATCH', '/api/admin/sequencing-centres/NOWHERE', { label: 'Nowhere' }, 404, null],
    ];
    for (const [method, path, body, status, field] of bad) {
      const problem = await expectProblem(await send(method, path, body), status);
      if (field)
        expect(
          (problem.errors as { path: string }[]).map((e) => e.path.split('.')[0]),
          `${method} ${path}`,
        ).toContain(field);
    }
    // a type is never deleted, only retired: there is no DELETE
    expect((await h.request('/api/admin/associated-types/BGE', { method: 'DELETE', key: admin.key })).status).toBe(405);
    expect({ types: await types(), centres: await centres(), events: (await referenceEvents()).length }).toEqual(before);
  });

  it('adds and changes types and centres, each change an audit row saying what it was', async () => {
    const added = await send('POST', '/api/admin/associated-types', { name: 'MOSS_PROJECT', label: 'Moss genomes (MOSS_PROJECT)' });
    expect(added.status).toBe(201);
    expect(await added.json()).toMatchObject({
      name: 'MOSS_PROJECT',
      label: 'Moss genomes (MOSS_PROJECT)',
      approval_required: false,
      approval_required_on_update: true,
      selectable: true,
      acceptance_text: '',
    });
    const changed = await send('PATCH', '/api/admin/associated-types/moss_project', { label: 'Moss Genomes', acceptance_text: 'Thanks.' });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toMatchObject({ name: 'MOSS_PROJECT', label: 'Moss Genomes', acceptance_text: 'Thanks.' });
    // the same values again change nothing, and record nothing
    expect((await send('PATCH', '/api/admin/associated-types/MOSS_PROJECT', { label: 'Moss Genomes' })).status).toBe(200);
    expect((await types()).at(-1)?.name).toBe('MOSS_PROJECT');

    const contacts = [{ name: 'Ana Lab', email: 'ana@example.org', role: 'sample manager' }];
    const centre = await send('POST', '/api/admin/sequencing-centres', { name: 'MOSSLAB', label: 'MOSS LAB, OSLO', contacts });
    expect(centre.status).toBe(201);
    expect(await centre.json()).toMatchObject({ name: 'MOSSLAB', contacts, selectable: true, approval_required: false });
    expect((await send('PATCH', '/api/admin/sequencing-centres/MOSSLAB', { selectable: false })).status).toBe(200);
    expect((await centres()).find((c) => c.name === 'MOSSLAB')).toMatchObject({ selectable: false, contacts });

    const events = (await referenceEvents()).map((e) => ({
      actor: e.actorId,
      action: e.action,
      type: e.objectType,
      id: e.objectId,
      detail: e.detail,
    }));
    expect(events).toEqual([
      {
        actor: admin.user.id,
        action: 'create',
        type: 'associated_type',
        id: 'MOSS_PROJECT',
        detail: expect.objectContaining({ label: 'Moss genomes (MOSS_PROJECT)', approval_required: 'false', selectable: 'true' }),
      },
      {
        actor: admin.user.id,
        action: 'update',
        type: 'associated_type',
        id: 'MOSS_PROJECT',
        detail: { label: 'Moss Genomes', label_was: 'Moss genomes (MOSS_PROJECT)', acceptance_text: 'Thanks.', acceptance_text_was: '' },
      },
      {
        actor: admin.user.id,
        action: 'create',
        type: 'sequencing_centre',
        id: 'MOSSLAB',
        detail: expect.objectContaining({ label: 'MOSS LAB, OSLO' }),
      },
      {
        actor: admin.user.id,
        action: 'update',
        type: 'sequencing_centre',
        id: 'MOSSLAB',
        detail: { selectable: 'false', selectable_was: 'true' },
      },
    ]);
  });
});

describe('the lists each instance keeps', () => {
  it('are read again at once where a change is made, and within the cache time by another instance', async () => {
    const db = h.database.db;
    // another instance: its own copy over the same database, on a clock of its own
    let now = 0;
    const other = createReferenceCache(db, { now: () => now });
    const labelThere = async () => (await other.read()).associatedTypes.find((t) => t.name === 'CBP')?.label;
    const labelHere = async () => (await associatedTypes(db)).find((t) => t.name === 'CBP')?.label;
    const was = await labelThere();
    expect(await labelHere()).toBe(was);

    expect((await send('PATCH', '/api/admin/associated-types/CBP', { label: 'Catalan Biogenome Project (CBP)' })).status).toBe(200);
    expect(await labelHere()).toBe('Catalan Biogenome Project (CBP)');
    now += (REFERENCE_CACHE_SECONDS - 1) * 1000;
    expect(await labelThere()).toBe(was);
    now += 1000;
    expect(await labelThere()).toBe('Catalan Biogenome Project (CBP)');
    const [event] = await db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.objectType, 'associated_type'), eq(auditEvents.objectId, 'CBP')));
    expect(event?.detail).toMatchObject({ label_was: was });
  });
});
