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
 * "forbidden" nor a hint that it exists), and every admin operation as a non-admin (404).
 */

interface Op {
  method: string;
  path: string;
}

let h: Harness;
let secured: Op[];
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
  const r = await h.user();
  const { key, info } = await createApiKey(h.database.db, r.user.id, 'to revoke');
  expect((await h.request(`/api/account/keys/${info.id}`, { method: 'DELETE', key: r.key })).status).toBeLessThan(300);
  revoked = key;

  const doc = (await (await h.request('/api/openapi.json')).json()) as { paths: Record<string, Record<string, { security?: unknown[] }>> };
  secured = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([, op]) => op.security?.length)
      .map(([method]) => ({ method: method.toUpperCase(), path })),
  );
}, 120_000);
afterAll(() => h.close());

/** The path with the owner's ids, and a body naming the owner's things where the operation takes one. */
function request(op: Op): { url: string; init: RequestInit } {
  const url = op.path
    .replace('{profile_id}', op.path.includes('{schema_name}') || op.path.includes('/files') ? owner.biodataProfileId : owner.profileId)
    .replace('{schema_name}', 'svc_single_cell')
    .replace('{study_id}', STUDY_ID)
    .replace('{report_id}', owner.reportId)
    .replace('{manifest_id}', owner.manifestId)
    .replace('{submission_id}', owner.submissionId)
    .replace('{svc_id}', owner.svcId)
    .replace('{stored_name}', 'permit_20261124.pdf')
    .replace('{file_name}', 'a.txt')
    .replace('{n}', '0')
    .replace('{share_id}', '1')
    .replace('{group_id}', '1')
    .replace('{username}', 'someone')
    .replace('{id}', String(op.path.startsWith('/api/admin/jobs') ? '00000000-0000-4000-8000-000000000000' : owner.keyId));
  if (op.method === 'POST' && (op.path === '/api/manifest/validate/permits' || op.path.endsWith('/studies'))) {
    // multipart operations get a well-formed form, so the owner check is what answers
    const form = new FormData();
    form.set('validation_report_id', owner.reportId);
    form.set('file', new File([new Uint8Array([37, 80, 68, 70, 45])], 'permit.pdf'));
    return {
      url: op.path.endsWith('/studies') ? `${url}?checklist_id=version_dwc_sc_rnaseq` : url,
      init: { method: op.method, body: form },
    };
  }
  // sharing and giving away name a person: a well-formed body, so that the owner check is what answers
  const person = /\/(shares|owner)$/.test(op.path) ? { username: 'someone', ...(op.path.endsWith('/shares') && { role: 'viewer' }) } : null;
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
      (op) => /\{(profile_id|report_id|manifest_id|submission_id|svc_id|id)\}/.test(op.path) || /admin/.test(op.path),
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

  it('lists none of the owner’s things to someone else', async () => {
    const lists = [
      '/api/profiles',
      '/api/manifest/validations',
      `/api/manifest/validations?profile_id=${owner.profileId}`,
      '/api/submissions',
      '/api/sample/pending',
      '/api/account/keys',
    ];
    for (const path of lists) {
      const text = await (await h.request(path, { key: stranger })).text();
      for (const id of [owner.profileId, owner.reportId, owner.submissionId, owner.svcId]) expect(text, path).not.toContain(id);
    }
  });
});
