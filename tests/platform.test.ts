import { encode } from 'next-auth/jwt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys } from '@/db/schema';
import { createApiApp } from '@/lib/api/app';
import { newSessionClaims } from '@/lib/auth/sessions';
import { createHarness, type Harness } from './support/harness';

let h: Harness;
let alice: Awaited<ReturnType<Harness['user']>>;

beforeAll(async () => {
  h = await createHarness();
  alice = await h.user({ username: 'alice', email: 'alice@example.org' });
});
afterAll(() => h.close());

const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

async function expectProblem(res: Response, status: number) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  const body = (await res.json()) as Record<string, unknown>;
  expect(body).toMatchObject({ status, type: 'about:blank' });
  expect(typeof body.detail).toBe('string');
  expect(body.message).toBe(body.detail);
  return body;
}

describe('health', () => {
  it('answers ok after a round trip to the database, the queue and the storage', async () => {
    const res = await h.request('/api/health?deep=true');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: 'ok',
      checked_at: expect.any(String),
      database: { ok: true, latency_ms: expect.any(Number), kind: h.database.kind },
      queue: {
        ok: true,
        latency_ms: expect.any(Number),
        waiting: expect.any(Number),
        oldest_waiting_seconds: expect.any(Number),
        active: expect.any(Number),
        dead_letters: 0,
      },
      storage: { ok: true, latency_ms: expect.any(Number), kind: 'local' },
      // read from its last scheduled check, never asked by /api/health itself
      local_contexts: {
        ok: null,
        checked_at: null,
        detail: 'The Local Contexts Hub has not been asked yet (no private sample has been checked).',
      },
      // the same: the daily refresh's last outcome (tests/sample-checklists.test.ts reads it after one)
      ena_checklists: { ok: null, checked_at: null, detail: 'ENA’s checklists have not been read yet.' },
      services: {
        ena: { configured: false, detail: expect.stringContaining('ENA_USERNAME and ENA_PASSWORD are not set') },
        tolid: { configured: false, detail: 'TOLID_TOKEN is not set: samples are registered at ENA without ToLIDs.' },
        zenodo: { configured: false, detail: expect.stringContaining('ZENODO_TOKEN') },
        mail: { configured: false, detail: expect.stringContaining('SMTP_URL') },
      },
    });
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('keeps the queue and storage checks a few seconds, asks the database every time, and checks all now with deep=true', async () => {
    const checkedAt = async (query = '') => {
      const res = await h.request(`/api/health${query}`);
      expect(res.status).toBe(200);
      return ((await res.json()) as { checked_at: string }).checked_at;
    };
    const first = await checkedAt();
    expect(await checkedAt()).toBe(first);
    const deep = await checkedAt('?deep=true');
    expect(Date.parse(deep)).toBeGreaterThanOrEqual(Date.parse(first));
    expect(deep).not.toBe(first);
    // a value it does not know is said, not taken for false
    expect((await h.request('/api/health?deep=maybe')).status).toBe(400);
  });
});

describe('POST apiKey', () => {
  it('returns a new key for form-encoded credentials, with and without the trailing slash', async () => {
    for (const path of ['/api/apiKey', '/api/apiKey/']) {
      const res = await h.request(path, form({ username: 'alice', password: alice.password }));
      expect(res.status).toBe(200);
      const body = (await res.json()) as { token: string; user_id: number; email: string };
      expect(body.token).toMatch(/^rmb_[A-Za-z0-9_-]{43}$/);
      expect(body).toMatchObject({ user_id: alice.user.id, email: 'alice@example.org' });
      const health = await h.request('/api/account', { key: body.token });
      expect(health.status).toBe(200);
    }
  });

  it('accepts JSON and multipart bodies, and gives a different key each call', async () => {
    const json = await h.request('/api/apiKey', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'alice', password: alice.password }),
    });
    const fd = new FormData();
    fd.set('username', 'alice');
    fd.set('password', alice.password);
    const multipart = await h.request('/api/apiKey', { method: 'POST', body: fd });
    expect(json.status).toBe(200);
    expect(multipart.status).toBe(200);
    const [a, b] = [(await json.json()) as { token: string }, (await multipart.json()) as { token: string }];
    expect(a.token).not.toBe(b.token);
  });

  it('refuses wrong credentials with 401 and a problem body', async () => {
    const wrong = await h.request('/api/apiKey', form({ username: 'alice', password: 'not-her-password' }));
    const body = await expectProblem(wrong, 401);
    expect(body.detail).toBe('Unable to log in with provided credentials.');
    const unknown = await h.request('/api/apiKey', form({ username: 'nobody', password: 'whatever1' }));
    await expectProblem(unknown, 401);
  });

  it('answers 400 naming the missing field', async () => {
    const body = await expectProblem(await h.request('/api/apiKey', form({ username: 'alice' })), 400);
    expect(body.errors).toEqual([{ path: 'password', message: 'This field is required.' }]);
  });

  it('answers 405 to GET', async () => {
    const res = await h.request('/api/apiKey');
    await expectProblem(res, 405);
    expect(res.headers.get('allow')).toContain('POST');
  });

  it('stores only a hash of the key', async () => {
    const { token } = (await (await h.request('/api/apiKey', form({ username: 'alice', password: alice.password }))).json()) as {
      token: string;
    };
    const rows = await h.database.db.select().from(apiKeys);
    expect(rows.some((r) => r.keyHash.includes(token) || token.includes(r.keyHash))).toBe(false);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.keyHash))).toBe(true);
  });
});

describe('API-key auth', () => {
  it('accepts token (any case), Bearer, the doubled form and a bare key', async () => {
    for (const value of [
      `token ${alice.key}`,
      `Token ${alice.key}`,
      `TOKEN ${alice.key}`,
      `Bearer ${alice.key}`,
      `token Token ${alice.key}`,
      alice.key,
    ]) {
      const res = await h.request('/api/account', { headers: { authorization: value } });
      expect(res.status, value).toBe(200);
      expect(((await res.json()) as { username: string }).username).toBe('alice');
    }
  });

  it.each([
    ['missing', undefined, 'Authentication credentials were not provided.'],
    ['another scheme', 'Basic YWxpY2U6cHc=', 'Authentication credentials were not provided.'],
    ['keyword only', 'token', 'Invalid token header. No credentials provided.'],
    ['spaces in key', 'token abc def', 'Invalid token header. Token string should not contain spaces.'],
    ['unknown key', `token rmb_${'x'.repeat(43)}`, 'Invalid token.'],
    ['garbage', 'token not-a-key', 'Invalid token.'],
  ])('refuses a %s key with 401 and WWW-Authenticate: Token', async (_name, value, detail) => {
    const res = await h.request('/api/account', { headers: value ? { authorization: value } : {} });
    const body = await expectProblem(res, 401);
    expect(res.headers.get('www-authenticate')).toBe('Token');
    expect(body.detail).toBe(detail);
  });

  it('refuses a revoked key', async () => {
    const created = await h.request('/api/account/keys', {
      method: 'POST',
      key: alice.key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'laptop' }),
    });
    expect(created.status).toBe(201);
    const { key, id, name } = (await created.json()) as { key: string; id: number; name: string };
    expect(name).toBe('laptop');
    expect((await h.request('/api/account', { key })).status).toBe(200);

    const listed = (await (await h.request('/api/account/keys', { key: alice.key })).json()) as Array<{
      id: number;
      prefix: string;
      last_used: string | null;
    }>;
    const mine = listed.find((k) => k.id === id);
    expect(mine?.prefix).toBe(key.slice(0, 10));
    expect(mine?.last_used).not.toBeNull();
    expect(JSON.stringify(listed)).not.toContain(key);

    const revoked = await h.request(`/api/account/keys/${id}`, { method: 'DELETE', key: alice.key });
    expect(revoked.status).toBe(200);
    expect(((await revoked.json()) as { revoked: string | null }).revoked).not.toBeNull();
    await expectProblem(await h.request('/api/account', { key }), 401);
  });

  it('does not let a user revoke another user’s key (404)', async () => {
    const bob = await h.user();
    const keys = (await (await h.request('/api/account/keys', { key: bob.key })).json()) as Array<{ id: number }>;
    const res = await h.request(`/api/account/keys/${keys[0]!.id}`, { method: 'DELETE', key: alice.key });
    await expectProblem(res, 404);
    expect((await h.request('/api/account', { key: bob.key })).status).toBe(200);
  });

  it('accepts the portal’s next-auth session cookie', async () => {
    const claims = await newSessionClaims(h.database.db, alice.user.id);
    const token = await encode({ token: { ...claims, sub: String(alice.user.id), name: 'alice' }, secret: h.config.authSecret });
    const res = await h.request('/api/account', { headers: { cookie: `next-auth.session-token=${token}` } });
    expect(res.status).toBe(200);
    const forged = await encode({ token: { ...claims, sub: String(alice.user.id) }, secret: 'another-secret' });
    await expectProblem(await h.request('/api/account', { headers: { cookie: `next-auth.session-token=${forged}` } }), 401);
  });
});

describe('errors and logs', () => {
  it('turns a thrown error into a 500 problem without internals, and logs it with the request id', async () => {
    // a second app on the same dependencies, with one extra route that fails the way a bug would
    const app = createApiApp(h.deps);
    app.get('/test-only/boom', () => {
      throw new Error('database password is hunter2');
    });
    const res = await app.request('/api/test-only/boom', { headers: { 'x-request-id': 'req-boom-1' } });
    const body = await expectProblem(res, 500);
    const text = JSON.stringify(body);
    expect(text).not.toContain('hunter2');
    expect(text).not.toMatch(/at .*\.ts/);
    expect(body.request_id).toBe('req-boom-1');
    const lines = h.logs.filter((l) => l.request_id === 'req-boom-1');
    expect(lines.find((l) => l.msg === 'request')).toMatchObject({ status: 500, method: 'GET' });
    expect(lines.find((l) => l.msg === 'unhandled error')).toBeDefined();
  });

  it('writes one JSON log line per request with id, route, status, user and duration', async () => {
    await h.request('/api/account', { key: alice.key, headers: { 'x-request-id': 'req-log-1' } });
    const lines = h.logs.filter((l) => l.request_id === 'req-log-1');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ msg: 'request', status: 200, user: 'alice', path: '/api/account' });
    expect(typeof lines[0]!.duration_ms).toBe('number');
    expect(JSON.stringify(h.logs)).not.toContain(alice.key);
  });

  it('answers unknown paths with a 404 problem', async () => {
    await expectProblem(await h.request('/api/no/such/thing'), 404);
  });
});

describe('OpenAPI', () => {
  it('serves a valid OpenAPI 3.x document listing apiKey', async () => {
    const res = await h.request('/api/openapi.json');
    expect(res.status).toBe(200);
    const doc = (await res.json()) as {
      openapi: string;
      paths: Record<string, Record<string, { security?: unknown[] }>>;
      components: { securitySchemes: Record<string, unknown> };
    };
    expect(doc.openapi).toMatch(/^3\.\d+\.\d+$/);
    expect(doc.paths['/api/apiKey']?.post).toBeDefined();
    expect(doc.paths['/api/health']?.get).toBeDefined();
    expect(doc.paths['/api/account/keys']?.get?.security).toEqual([{ Token: [] }]);
    expect(doc.components.securitySchemes.Token).toBeDefined();
  });

  it('renders the docs page from local assets', async () => {
    const page = await h.request('/api/docs');
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).not.toMatch(/https?:\/\/(?!localhost)/);
    // no inline script: the page's policy runs only its own files
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self';");
    expect(html).not.toMatch(/<script>/);
    const init = await h.request('/api/docs/assets/init.js');
    expect(await init.text()).toContain('/api/openapi.json');
    const js = await h.request('/api/docs/assets/swagger-ui-bundle.js');
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toContain('javascript');
  });
});
