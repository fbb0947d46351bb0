import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declaredPolicies } from '@/lib/api/policy';
import { REQUEST_LIMITS, requestLimits } from '@/lib/auth/request-limits';
import { createProfile } from './support/flows';
import { createHarness, type Harness } from './support/harness';

/**
 * Every operation of the OpenAPI document says who may call it and how large a body it takes, and is held to it: a
 * body one byte over its limit is refused 413 before anything reads it (by its Content-Length, or counted as it
 * streams when it has none), and a body at the limit is not.
 */

interface Operation {
  method: string;
  path: string;
  role: unknown;
  maxBytes: unknown;
  rateLimit: unknown;
}

let h: Harness;
let admin: string;
let profileId: string;
let operations: Operation[];

beforeAll(async () => {
  // small upload limits keep the bodies sent here small; the limits are read from the document either way
  h = await createHarness({ UPLOAD_MAX_BYTES: String(256 * 1024) });
  const a = await h.user({ isAdmin: true, memberOf: ['dtol'] });
  admin = a.key;
  profileId = await createProfile(h, admin, { title: 'Policy walk', description: '', type: 'dtol' });
  const doc = (await (await h.request('/api/openapi.json')).json()) as {
    paths: Record<string, Record<string, Record<string, unknown>>>;
  };
  operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      role: op['x-required-role'],
      maxBytes: op['x-body-max-bytes'],
      rateLimit: op['x-rate-limit'],
    })),
  );
}, 120_000);
afterAll(() => h.close());

// values each path parameter's pattern takes, so that the router reaches the operation
const PARAMS: Record<string, () => string> = {
  profile_id: () => profileId,
  manifest_id: () => '0123456789abcdef01234567',
  report_id: () => '0123456789abcdef01234567',
  svc_id: () => '0123456789abcdef01234567',
  submission_id: () => '0123456789abcdef01234567',
};
const urlOf = (path: string) => path.replace(/\{(\w+)\}/g, (_m, name: string) => PARAMS[name]?.() ?? 'x1');

const send = (op: Operation, bytes: number, streamed = false) => {
  const body = new Uint8Array(bytes);
  return h.request(urlOf(op.path), {
    method: op.method,
    key: admin,
    headers: { 'content-type': 'application/octet-stream' },
    body: streamed
      ? new ReadableStream({
          start(controller) {
            controller.enqueue(body);
            controller.close();
          },
        })
      : body,
    ...(streamed && { duplex: 'half' }),
  });
};

describe('route policy', () => {
  it('documents who may call every operation, and how large a body each takes', () => {
    expect(operations.length).toBeGreaterThan(100);
    for (const op of operations) {
      expect(op.role, `${op.method} ${op.path}`).toMatch(
        /^(anyone|signed-in|admin|admin-or-scraper|sample manager \(.+\)|profile (viewer|contributor|owner)( of .+)?)$/,
      );
      if (op.method !== 'GET') expect(op.maxBytes, `${op.method} ${op.path}`).toSatisfy((v) => v === 'streamed' || Number.isInteger(v));
    }
    // an operation on one profile's thing says whose role it needs: `signed-in` is for the caller's own things
    const onAThing = operations.filter((o) => /\{(profile_id|manifest_id|report_id|svc_id|image_id|submission_id)\}/.test(o.path));
    expect(onAThing.filter((o) => o.role === 'signed-in').map((o) => `${o.method} ${o.path}`)).toEqual([]);
    // and every declared policy is an operation of the document or one of the docs' own pages
    const documented = new Set(operations.map((o) => `${o.method} ${o.path.replace(/^\/api/, '')}`));
    const undocumented = [...declaredPolicies().keys()].filter((k) => !documented.has(k));
    expect(undocumented.sort()).toEqual(['GET /', 'GET /docs', 'GET /docs/assets/{file}', 'GET /openapi.json']);
  });

  it('refuses a body one byte over each operation’s limit with 413, and takes one at the limit', async () => {
    const bounded = operations.filter((o) => Number.isInteger(o.maxBytes));
    expect(bounded.length).toBeGreaterThan(40);
    for (const op of bounded) {
      const max = op.maxBytes as number;
      const name = `${op.method} ${op.path} (${max} bytes)`;
      const over = await send(op, max + 1);
      expect(over.status, `${name}: ${await over.clone().text()}`).toBe(413);
      expect((await over.json()).detail).toBeTruthy();
      const streamedOver = await send(op, max + 1, true);
      expect(streamedOver.status, `${name}, streamed`).toBe(413);
      const atLimit = await send(op, max);
      expect(atLimit.status, `${name} at the limit: ${await atLimit.clone().text()}`).not.toBe(413);
    }
  }, 300_000);

  it('counts the uploads of each caller, answering 429 with Retry-After past the limit, and nobody else', async () => {
    const limited = operations.filter((o) => o.rateLimit);
    expect(limited.map((o) => `${o.method} ${o.path}`)).toContain('POST /api/manifest/validate');
    const caller = await h.user({ memberOf: ['dtol'] });
    const own = await createProfile(h, caller.key, { title: 'Busy uploader', description: '', type: 'dtol' });
    const upload = () =>
      h.request(`/api/profiles/${own}/samples`, {
        method: 'POST',
        key: caller.key,
        headers: { 'content-type': 'application/octet-stream' },
        body: 'not a sheet',
      });
    expect((await upload()).status).not.toBe(429);
    // the rest of the caller's allowance, spent as their earlier requests would have
    const limits = requestLimits(h.database.db);
    for (let i = 1; i < REQUEST_LIMITS.uploads.points; i++) await limits.consume('uploads', `user:${caller.user.id}`);
    const refused = await upload();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await refused.json()).detail).toMatch(/try again in \d+ seconds/);
    // another caller is not slowed
    const other = await h.user({ memberOf: ['dtol'] });
    const theirs = await createProfile(h, other.key, { title: 'Quiet uploader', description: '', type: 'dtol' });
    const res = await h.request(`/api/profiles/${theirs}/samples`, { method: 'POST', key: other.key, body: 'not a sheet' });
    expect(res.status).not.toBe(429);
  }, 120_000);
});
