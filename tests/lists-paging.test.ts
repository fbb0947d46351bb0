import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentDefinition } from '@/lib/manifests';
import { validRows } from './fixtures/manifests/generate';
import { toXlsx } from './fixtures/manifests/workbook';
import { createProfile as createStudyProfile } from './fixtures/studies/api';
import { uploadFiles } from './fixtures/studies/data-files';
import { createProfile } from './support/flows';
import { createHarness, type Harness } from './support/harness';

// no taxonomy service: every report fails or waits, which is all these lists need
let h: Harness;
let key: string;
let adminKey: string;
const profileIds: string[] = [];
const reportIds: string[] = [];

beforeAll(async () => {
  h = await createHarness();
  key = (await h.user({ memberOf: ['dtol'] })).key;
  adminKey = (await h.user({ isAdmin: true })).key;
  for (let i = 0; i < 5; i++) profileIds.push(await createProfile(h, key, { title: `Paged ${i}`, description: '', type: 'dtol' }));
  const dtol = currentDefinition('dtol');
  const bytes = new Uint8Array(
    await toXlsx(
      dtol.fields.map((f) => f.name),
      validRows(dtol, 3),
    ),
  );
  for (let i = 0; i < 3; i++) {
    const fd = new FormData();
    fd.set('profile_id', profileIds[0]!);
    fd.set('file', new File([bytes], `m${i}.xlsx`));
    const res = await h.request('/api/manifest/validate', { method: 'POST', key, body: fd });
    reportIds.push(((await res.json()) as { report_id: string }).report_id);
  }
}, 60_000);
afterAll(() => h.close());

const idsOf = async (res: Response, field: string) => ((await res.json()) as Record<string, unknown>[]).map((r) => r[field]);

describe('lists whose body is an array', () => {
  it('page with limit and offset, tell the true total in X-Total-Count and the next page in Link', async () => {
    const first = await h.request('/api/profiles?limit=2', { key });
    expect(first.status).toBe(200);
    expect(first.headers.get('x-total-count')).toBe('5');
    expect(first.headers.get('link')).toBe('</api/profiles?limit=2&offset=2>; rel="next"');
    const page1 = await idsOf(first, 'id');
    const page2 = await idsOf(await h.request('/api/profiles?limit=2&offset=2', { key }), 'id');
    const last = await h.request('/api/profiles?limit=2&offset=4', { key });
    expect(last.headers.get('link')).toBeNull();
    const page3 = await idsOf(last, 'id');
    expect(new Set([...page1, ...page2, ...page3])).toEqual(new Set(profileIds));

    for (const path of ['/api/account/keys', '/api/manifest/validations']) {
      const res = await h.request(`${path}?limit=1`, { key });
      expect(res.status, path).toBe(200);
      expect(Number(res.headers.get('x-total-count')), path).toBeGreaterThanOrEqual(1);
    }
    const users = await h.request('/api/admin/users?limit=1', { key: adminKey });
    expect(users.headers.get('x-total-count')).toBe('2');
    expect(await users.json()).toHaveLength(1);
  });

  it('page a profile’s data files and studies the same way', async () => {
    const biodata = await createStudyProfile(h, key, 'Paged files');
    await uploadFiles(h, key, biodata, new Map(['c.fastq.gz', 'a.fastq.gz', 'b.fastq.gz'].map((n) => [n, Buffer.from(n)])));
    const first = await h.request(`/api/profiles/${biodata}/files?limit=2`, { key });
    expect(first.headers.get('x-total-count')).toBe('3');
    expect(first.headers.get('link')).toBe(`</api/profiles/${biodata}/files?limit=2&offset=2>; rel="next"`);
    const second = await h.request(`/api/profiles/${biodata}/files?limit=2&offset=2`, { key });
    expect([...(await idsOf(first, 'file_name')), ...(await idsOf(second, 'file_name'))]).toEqual([
      'a.fastq.gz',
      'b.fastq.gz',
      'c.fastq.gz',
    ]);
    const studies = await h.request(`/api/profiles/${biodata}/schema/svc_single_cell/studies?limit=5`, { key });
    expect(studies.status).toBe(200);
    expect(studies.headers.get('x-total-count')).toBe('0');
    expect(await studies.json()).toEqual([]);
  });

  it('refuse a page size out of range with 400', async () => {
    for (const q of ['limit=0', 'limit=1001', 'offset=-1', 'limit=abc']) {
      expect((await h.request(`/api/profiles?${q}`, { key })).status, q).toBe(400);
    }
  });
});

describe('validation reports', () => {
  it('are listed newest first without their error lists, paged, with the first messages as `content`', async () => {
    const res = await h.request('/api/manifest/validations?limit=2', { key });
    expect(res.headers.get('x-total-count')).toBe('3');
    const body = (await res.json()) as Record<string, unknown>[];
    expect(body.map((r) => r.report_id)).toEqual([reportIds[2], reportIds[1]]);
    for (const r of body) {
      expect(r).not.toHaveProperty('errors');
      expect(r).not.toHaveProperty('warnings');
      expect(typeof r.content).toBe('string');
    }
  });

  it('have a small status to poll: state, progress and counts only', async () => {
    const res = await h.request(`/api/manifest/validate/report/${reportIds[0]}/status`, { key });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(
      [
        'confirmed_manifest_id',
        'failure',
        'file_name',
        'finished',
        'manifest_type',
        'progress',
        'report_id',
        'status',
        'summary',
        'version',
      ].sort(),
    );
    expect(body).toMatchObject({ report_id: reportIds[0], status: 'pending', file_name: 'm0.xlsx', manifest_type: 'DTOL' });
    // someone else's, and a malformed id, are the same 404
    const other = (await h.user()).key;
    expect((await h.request(`/api/manifest/validate/report/${reportIds[0]}/status`, { key: other })).status).toBe(404);
    expect((await h.request('/api/manifest/validate/report/not-an-id/status', { key })).status).toBe(404);
  });
});
