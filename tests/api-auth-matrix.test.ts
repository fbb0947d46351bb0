import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, samples, submissions } from '@/db/schema';
import { createApiKey } from '@/lib/auth/api-keys';
import { fakeTaxonomy } from './fixtures/manifests/taxa';
import { bytesOf, createProfile as createStudyProfile, definition, registerSamples, SAMPLES, studiesApi } from './fixtures/studies/api';
import { withDataFiles } from './fixtures/studies/data-files';
import { fillTemplate, fixtureComponents, workbookBytes } from './fixtures/studies/fill';
import { createProfile, dtolRows, uploadManifest } from './support/flows';
import { createHarness, type Harness } from './support/harness';

/**
 * Every operation that needs a caller, from the OpenAPI document, against every way of not being that caller: no
 * key, a malformed header, an unknown key, a revoked key (401 each, with WWW-Authenticate); and, signed in as someone
 * else, every operation on one user's profile, report, submission, sample, permits, key and study (404: neither
 * "forbidden" nor a hint that it exists), and every admin operation as a non-admin (404). Then every operation of the
 * document as each of seven people: the owner, a contributor and a viewer the profiles are shared with, a member of a
 * group they are shared with and a former member, a stranger, an admin (lib/profiles/access.ts).
 */

interface Op {
  method: string;
  path: string;
}

let h: Harness;
let secured: Op[];
let everyOperation: Op[];
const owner = {
  key: '',
  userId: 0,
  profileId: '',
  biodataProfileId: '',
  reportId: '',
  manifestId: '',
  submissionId: '',
  svcId: '',
  keyId: 0,
};
const STUDY_ID = 'OWNERSTUDY1';
let stranger: string;
let revoked: string;

beforeAll(async () => {
  // a Webin account configured (never reached): `sample/register` gets as far as the samples' owner
  h = await createHarness({ ENA_USERNAME: 'Webin-0', ENA_PASSWORD: 'unused' }, { taxonomy: fakeTaxonomy() });
  const a = await h.user({ memberOf: ['dtol'] });
  owner.key = a.key;
  owner.userId = a.user.id;
  owner.profileId = await createProfile(h, a.key, { title: 'Owner’s moths', description: '', type: 'dtol' });
  const confirmed = await uploadManifest(h, a.key, owner.profileId, dtolRows(1), { validateHere: true });
  const [sample] = await h.database.db.select().from(samples).where(eq(samples.manifestId, confirmed.manifest_id));
  owner.svcId = sample!.id;
  owner.manifestId = confirmed.manifest_id;
  const reports = (await (await h.request('/api/manifest/validations', { key: a.key })).json()) as { report_id: string }[];
  owner.reportId = reports[0]!.report_id;
  const [sub] = await h.database.db
    .insert(submissions)
    .values({
      kind: 'samples',
      repository: 'ena',
      profileId: owner.profileId,
      sampleIds: [owner.svcId],
      createdBy: a.user.id,
      status: 'accepted',
    })
    .returning();
  owner.submissionId = sub!.id;
  // a real study of the owner's, so that the study operations find something to refuse
  owner.biodataProfileId = await createStudyProfile(h, a.key, 'Owner’s atlas');
  await registerSamples(h, owner.biodataProfileId);
  const api = studiesApi(h, a.key, owner.biodataProfileId);
  const def = await definition(h, 'svc_single_cell', 'version_dwc_sc_rnaseq');
  const made = await withDataFiles(h, a.key, owner.biodataProfileId, def, fixtureComponents(def, { studyId: STUDY_ID, samples: SAMPLES }));
  const template = await bytesOf(await api.template('svc_single_cell', 'version_dwc_sc_rnaseq'));
  const uploaded = await api.upload(
    'svc_single_cell',
    'version_dwc_sc_rnaseq',
    await workbookBytes(await fillTemplate(template, def, made.components)),
  );
  expect(uploaded.status, await uploaded.clone().text()).toBe(200);
  const [k] = await h.database.db.select().from(apiKeys).where(eq(apiKeys.userId, a.user.id));
  owner.keyId = k!.id;

  // another member of the same project, who manages nothing
  stranger = (await h.user({ memberOf: ['dtol'] })).key;
  await sharePersonas(a.key);
  const r = await h.user();
  const { key, info } = await createApiKey(h.database.db, r.user.id, 'to revoke');
  expect((await h.request(`/api/account/keys/${info.id}`, { method: 'DELETE', key: r.key })).status).toBeLessThan(300);
  revoked = key;

  const doc = (await (await h.request('/api/openapi.json')).json()) as { paths: Record<string, Record<string, { security?: unknown[] }>> };
  everyOperation = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.keys(methods).map((method) => ({ method: method.toUpperCase(), path })),
  );
  secured = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([, op]) => op.security?.length)
      .map(([method]) => ({ method: method.toUpperCase(), path })),
  );
}, 120_000);
afterAll(() => h.close());

/**
 * What an operation needs of its caller. view, contribute, own: that role on the owner's profile
 * (lib/profiles/access.ts); admin: an administrator; mine: to be the owner as a person (their key); group: to own
 * the group (or be an admin);
 * manager: to decide on the project's samples (no persona here does); open: any signed-in caller, or anyone
 * (every persona then gets the same answer).
 */
type Need = 'view' | 'contribute' | 'own' | 'admin' | 'mine' | 'group' | 'manager' | 'open';

function needOf({ method, path }: Op): Need | undefined {
  // the query API and the signed upload URLs (their signature is the credential) answer whoever asks alike
  if (!secured.some((o) => o.method === method && o.path === path)) return 'open';
  if (path.startsWith('/api/admin') || path === '/api/metrics') return 'admin';
  if (path.startsWith('/api/account/keys/{id}')) return 'mine';
  if (path.startsWith('/api/groups/{group_id}')) return 'group';
  if (path.endsWith('/action/accession')) return 'view';
  if (['/api/sample/decision', '/api/sample/register', '/api/sample/rights/check'].includes(path)) return 'manager';
  if (/^\/api\/profiles\/\{profile_id\}(\/shares(\/\{share_id\})?|\/owner)?$/.test(path) && method !== 'GET') return 'own';
  if (/\/files\/presignedurls$/.test(path)) return 'contribute';
  if (
    /\{(profile_id|report_id|submission_id|svc_id|manifest_id)\}/.test(path) &&
    secured.some((o) => o.method === method && o.path === path)
  )
    return method === 'GET' ? 'view' : 'contribute';
  if (['/api/manifest/validate', '/api/manifest/validate/confirm', '/api/manifest/validate/permits'].includes(path)) return 'contribute';
  if (path === '/api/manifest/validate/report') return 'view';
  if (!/\{(profile_id|report_id|submission_id|manifest_id|id|group_id|share_id)\}/.test(path)) return 'open';
  return undefined;
}

/** Whether a persona may do what the operation needs. */
function allowed(persona: Persona, need: Need): boolean {
  if (need === 'open') return true;
  if (need === 'mine') return persona === 'owner';
  if (persona === 'admin') return true;
  if (need === 'admin' || need === 'manager') return false;
  if (need === 'group') return persona === 'owner';
  const role = { owner: 2, contributor: 1, 'group member': 1, viewer: 0 }[persona as string];
  return role !== undefined && role >= { view: 0, contribute: 1, own: 2 }[need];
}

/** A persona that sees the profile but may not do this with it: told so (403); one that cannot see it: 404. */
const sees = (persona: Persona) => ['owner', 'contributor', 'group member', 'viewer', 'admin'].includes(persona);

type Persona = 'owner' | 'contributor' | 'viewer' | 'group member' | 'former member' | 'stranger' | 'admin';
const personas = {} as Record<Persona, string>;
let ownersGroup = 0;
// the group's share of the DTOL profile: no persona's own (a person may end their own share)
let groupShare = 0;
const json = { 'content-type': 'application/json' };

/**
 * The owner shares both profiles with a contributor and a viewer, and as contributor with a group that has one member
 * and had another (removed); a group of the owner's with no one else in it stands for `{group_id}`.
 */
async function sharePersonas(ownerKey: string) {
  const post = async (key: string, path: string, body: unknown) => {
    const res = await h.request(path, { method: 'POST', key, headers: json, body: JSON.stringify(body) });
    expect(res.status, `${path}: ${await res.clone().text()}`).toBeLessThan(300);
    return (await res.json()) as { id: number };
  };
  const person = async () => h.user({ memberOf: ['dtol'] });
  const [contributor, viewer, member, former] = [await person(), await person(), await person(), await person()];
  const group = await post(ownerKey, '/api/groups', { name: 'Matrix lab' });
  for (const p of [member, former]) await post(ownerKey, `/api/groups/${group.id}/members`, { username: p.user.username });
  for (const profile of [owner.biodataProfileId, owner.profileId]) {
    await post(ownerKey, `/api/profiles/${profile}/shares`, { username: contributor.user.username, role: 'contributor' });
    await post(ownerKey, `/api/profiles/${profile}/shares`, { username: viewer.user.username, role: 'viewer' });
    groupShare = (await post(ownerKey, `/api/profiles/${profile}/shares`, { group_id: group.id, role: 'contributor' })).id;
  }
  const left = await h.request(`/api/groups/${group.id}/members/${former.user.username}`, { method: 'DELETE', key: ownerKey });
  expect(left.status).toBe(204);
  ownersGroup = (await post(ownerKey, '/api/groups', { name: 'Matrix owner only' })).id;
  Object.assign(personas, {
    owner: ownerKey,
    contributor: contributor.key,
    viewer: viewer.key,
    'group member': member.key,
    'former member': former.key,
    stranger: (await person()).key,
    admin: (await h.user({ isAdmin: true })).key,
  });
}

/** The path with the owner's ids, and a body naming the owner's things where the operation takes one. */
function request(op: Op): { url: string; init: RequestInit } {
  const url = op.path
    .replace(
      '{profile_id}',
      op.path.includes('{schema_name}') || op.path.includes('/files') || /\/samples(\/template)?$/.test(op.path)
        ? owner.biodataProfileId
        : owner.profileId,
    )
    .replace('{schema_name}', 'svc_single_cell')
    .replace('{study_id}', STUDY_ID)
    .replace('{report_id}', owner.reportId)
    .replace('{manifest_id}', owner.manifestId)
    .replace('{submission_id}', owner.submissionId)
    .replace('{svc_id}', owner.svcId)
    .replace('{stored_name}', 'permit_20261124.pdf')
    .replace('{file_name}', 'a.txt')
    .replace('{n}', '0')
    .replace('{share_id}', String(groupShare || 1))
    .replace('{group_id}', String(ownersGroup || 1))
    .replace('{username}', 'someone')
    .replace('{id}', String(op.path.startsWith('/api/admin/jobs') ? '00000000-0000-4000-8000-000000000000' : owner.keyId));
  if (op.path.endsWith('/samples/template')) return { url: `${url}?checklist_id=COPO_DWC`, init: { method: op.method } };
  if (
    (op.method === 'POST' && ['/api/manifest/validate', '/api/manifest/validate/permits'].includes(op.path)) ||
    (op.method === 'POST' && (op.path.endsWith('/studies') || op.path.endsWith('/samples')))
  ) {
    // multipart operations get a well-formed form, so the owner check is what answers
    const form = new FormData();
    form.set('profile_id', owner.profileId);
    form.set('validation_report_id', owner.reportId);
    form.set('checklist_id', 'COPO_DWC');
    form.set('file', new File([new Uint8Array([37, 80, 68, 70, 45])], 'permit.pdf'));
    return {
      url: op.path.endsWith('/studies') ? `${url}?checklist_id=version_dwc_sc_rnaseq` : url,
      init: { method: op.method, body: form },
    };
  }
  // sharing and giving away name a person: a well-formed body, so that the owner check is what answers
  const person = /\/(shares|owner|members)$/.test(op.path)
    ? { username: 'someone', ...(op.path.endsWith('/shares') && { role: 'viewer' }) }
    : null;
  const body = person ?? {
    validation_report_id: owner.reportId,
    svc_ids: [owner.svcId],
    decision: 'accept',
    profile_id: owner.profileId,
    file_names: ['a.txt'],
  };
  const withBody = !['GET', 'DELETE', 'HEAD'].includes(op.method);
  // the query a well-formed request carries, so that the owner check is what answers
  const query =
    op.path.includes('/files/presignedurls') && op.method === 'GET'
      ? '?file_names=a.txt'
      : op.path.endsWith('/action/publish')
        ? '?repository=ena'
        : '';
  return {
    url: `${url}${query}`,
    init: { method: op.method, ...(withBody && { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }) },
  };
}

const CREDENTIALS: [string, Record<string, string>][] = [
  ['no key', {}],
  ['a malformed header', { authorization: 'token' }],
  ['a key of the wrong form', { authorization: 'token not-a-key at all' }],
  ['an unknown key', { authorization: `token rmb_${'Q'.repeat(43)}` }],
];

describe('the authorisation matrix', () => {
  it('answers 401 to every secured operation without a valid key', async () => {
    expect(secured.length).toBeGreaterThan(35);
    const violations: string[] = [];
    let cells = 0;
    for (const op of secured) {
      const { url, init } = request(op);
      for (const [what, headers] of [
        ...CREDENTIALS,
        ['a revoked key', { authorization: `token ${revoked}` }] as [string, Record<string, string>],
      ]) {
        const res = await h.request(url, { ...init, headers: { ...(init.headers as Record<string, string>), ...headers } });
        cells += 1;
        if (res.status !== 401 || !res.headers.get('www-authenticate'))
          violations.push(`${op.method} ${op.path} with ${what}: ${res.status}`);
      }
    }
    expect(violations).toEqual([]);
    expect(cells).toBe(secured.length * 5);
  });

  it('lets the owner read their study, so that the refusals below are about the caller', async () => {
    const own = await h.request(`/api/profiles/${owner.biodataProfileId}/schema/svc_single_cell/studies/${STUDY_ID}?return_type=jsonld`, {
      key: owner.key,
    });
    expect(own.status).toBe(200);
  });

  it('answers 404 to someone else on the owner’s things, and to a non-admin on admin operations', async () => {
    const violations: string[] = [];
    const owned = secured.filter(
      (op) => /\{(profile_id|report_id|manifest_id|submission_id|svc_id|id)\}/.test(op.path) || /admin|metrics/.test(op.path),
    );
    const byBody = secured.filter((op) =>
      [
        '/api/manifest/validate/report',
        '/api/manifest/validate/confirm',
        '/api/manifest/validate/permits',
        '/api/sample/decision',
        '/api/sample/register',
      ].includes(op.path),
    );
    for (const op of [...owned, ...byBody]) {
      const { url, init } = request(op);
      const res = await h.request(url, { ...init, key: stranger });
      if (res.status !== 404) violations.push(`${op.method} ${op.path}: ${res.status} ${(await res.text()).slice(0, 120)}`);
    }
    expect(violations).toEqual([]);
    expect(owned.length + byBody.length).toBeGreaterThan(25);
  });

  it('answers owner, contributor, viewer, group member, former member, stranger and admin as their role allows, on every operation', async () => {
    const unclassified = everyOperation.filter((op) => !needOf(op));
    expect(unclassified, 'operations with no rule in needOf').toEqual([]);
    const violations: string[] = [];
    const order: Persona[] = ['stranger', 'former member', 'viewer', 'contributor', 'group member', 'admin', 'owner'];
    // refusals first (they change nothing), then what is allowed, removals last, the owner last of all: a 404 of an
    // allowed caller is right only when the owner, asking the same, gets it too (a file that is not there)
    // (the owner's own key is revoked last of all)
    // (ending shares and groups after the other removals, so that each persona still has their access for those)
    const rank = (op: Op) =>
      op.path === '/api/account/keys/{id}'
        ? 3
        : /\/(shares|groups)\//.test(op.path) && op.method === 'DELETE'
          ? 2
          : Number(op.method === 'DELETE');
    const ops = [...everyOperation].sort((x, y) => rank(x) - rank(y));
    const cells: { op: Op; persona: Persona; need: Need }[] = [];
    for (const refusing of [true, false])
      for (const op of ops)
        for (const persona of order) {
          const need = needOf(op) as Need;
          if (allowed(persona, need) !== refusing) cells.push({ op, persona, need });
        }
    const ownerStatus = new Map<string, number>();
    const allowedStatus: { cell: (typeof cells)[number]; status: number; text: string }[] = [];
    for (const cell of cells) {
      const { url, init } = request(cell.op);
      const res = await h.request(url, { ...init, key: personas[cell.persona] });
      const text = (await res.text()).slice(0, 140);
      const where = `${cell.persona} ${cell.op.method} ${cell.op.path}: ${res.status} ${text}`;
      if (res.status >= 500) violations.push(where);
      else if (!allowed(cell.persona, cell.need)) {
        const expected = ['view', 'contribute', 'own'].includes(cell.need) && sees(cell.persona) ? 403 : 404;
        if (res.status !== expected) violations.push(`${where} (expected ${expected})`);
      } else {
        if ([401, 403].includes(res.status) && cell.need !== 'open') violations.push(where);
        if (cell.persona === 'owner') ownerStatus.set(`${cell.op.method} ${cell.op.path}`, res.status);
        allowedStatus.push({ cell, status: res.status, text });
      }
    }
    for (const { cell, status, text } of allowedStatus) {
      const key = `${cell.op.method} ${cell.op.path}`;
      const owners = ownerStatus.get(key);
      // an open operation answers everyone alike; elsewhere a 404 is right only when the owner gets it too (an admin
      // alone may do admin operations: an unknown id is their 404)
      if ((cell.need === 'open' && status !== owners) || (status === 404 && owners !== undefined && owners !== 404))
        violations.push(`${cell.persona} ${key}: ${status} where the owner got ${owners}: ${text}`);
    }
    expect(violations).toEqual([]);
    expect(cells.length).toBe(everyOperation.length * order.length);
  });

  it('lists none of the owner’s things to someone else', async () => {
    const lists = [
      '/api/profiles',
      '/api/manifest/validations',
      `/api/manifest/validations?profile_id=${owner.profileId}`,
      '/api/submissions',
      '/api/registrations/refused',
      '/api/sample/pending',
      '/api/account/keys',
    ];
    for (const path of lists) {
      const text = await (await h.request(path, { key: stranger })).text();
      for (const id of [owner.profileId, owner.reportId, owner.submissionId, owner.svcId]) expect(text, path).not.toContain(id);
    }
  });
});
