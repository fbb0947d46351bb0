import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pagePolicy } from '@/lib/security-headers';
import { createHarness, type Harness } from './support/harness';

/**
 * Every API answer carries the security headers (lib/security-headers.ts): never framed, never sniffed as another
 * type, no full referrer, HSTS when served over HTTPS. The portal's pages carry the same with a nonce policy
 * (proxy.ts; e2e/platform.spec.ts reads them from the running portal).
 */

let h: Harness;
let https: Harness;
let key: string;

beforeAll(async () => {
  h = await createHarness();
  https = await createHarness({ NEXTAUTH_URL: 'https://broker.example.org' });
  key = (await h.user()).key;
});
afterAll(async () => {
  await h?.close();
  await https?.close();
});

const expectSafe = (res: Response) => {
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('x-frame-options')).toBe('DENY');
  expect(res.headers.get('referrer-policy')).toBe('same-origin');
  expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
};

describe('every API answer', () => {
  it.each([
    ['a JSON answer', '/api/health', 200],
    ['a CSV answer', '/api/manifest?return_type=csv', 200],
    ['a problem', '/api/profiles/000000000000000000000000', 401],
    ['an unknown path', '/api/nowhere', 404],
    ['a refused URL', '/api/sample/%00', 400],
    ['the docs page', '/api/docs', 200],
  ])('carries the security headers: %s', async (_what, path, status) => {
    const res = await h.request(path);
    expect(res.status).toBe(status);
    expectSafe(res);
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });

  it('runs nothing as a document, except the docs page its own scripts', async () => {
    expect((await h.request('/api/health')).headers.get('content-security-policy')).toBe(
      "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    );
    expect((await h.request('/api/docs')).headers.get('content-security-policy')).toMatch(/^default-src 'none'; script-src 'self';/);
  });

  it('says HSTS when the service is served over HTTPS', async () => {
    const res = await https.request('/api/health');
    expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    expectSafe(res);
  });

  it('carries them on an authenticated answer too', async () => {
    expectSafe(await h.request('/api/account', { key }));
  });
});

describe('a page’s policy', () => {
  it('runs only the scripts carrying the request’s nonce, and upgrades requests over HTTPS', () => {
    expect(pagePolicy('bm9uY2U=', { https: false })).toBe(
      "default-src 'self'; script-src 'self' 'nonce-bm9uY2U=' 'strict-dynamic'; style-src 'self' 'unsafe-inline'; " +
        "img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; " +
        "form-action 'self'; frame-ancestors 'none'",
    );
    expect(pagePolicy('x', { https: true })).toMatch(/; upgrade-insecure-requests$/);
  });
});
