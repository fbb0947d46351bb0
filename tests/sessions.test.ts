import { encode } from 'next-auth/jwt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authSettings, buildAuthOptions } from '@/lib/auth/session';
import { newSessionClaims, SESSION_ABSOLUTE_SECONDS } from '@/lib/auth/sessions';
import { AuthBrowser } from './support/auth-browser';
import { waitFor } from './support/flows';
import { createHarness, type Harness } from './support/harness';
import { expectProblem } from './support/http';
import { type MailServer, startMailServer } from './support/repository-server/smtp';

/**
 * Portal sessions the service can end (lib/auth/sessions.ts): a stolen copy of a session cookie stops working when
 * its owner signs out, signs out everywhere or gets a new password, and no session outlives its absolute lifetime.
 * And a change made with the session cookie must come from the portal's own pages (the Origin a browser sends).
 */

const BASE = 'http://localhost:3998';
let h: Harness;
let mail: MailServer;
let previousUrl: string | undefined;

beforeAll(async () => {
  mail = await startMailServer();
  h = await createHarness({ NEXTAUTH_URL: BASE, SMTP_URL: mail.url }, { workers: true });
  previousUrl = process.env.NEXTAUTH_URL;
  process.env.NEXTAUTH_URL = BASE;
});
afterAll(async () => {
  process.env.NEXTAUTH_URL = previousUrl;
  await h?.close();
  await mail?.close();
});

const browser = () => new AuthBrowser(BASE, (cookie) => buildAuthOptions(async () => h.database.db, authSettings(h.config), cookie));

/** A person signed in with their password in a browser, and what a thief copied of its cookie. */
async function signedIn() {
  const person = await h.user({ email: `person-${Math.random().toString(36).slice(2)}@example.org` });
  const b = browser();
  expect(await b.signInWithPassword(person.user.username, person.password)).toBe(`${BASE}/`);
  const stolen = b.cookieHeader() ?? '';
  expect(stolen).toContain('next-auth.session-token');
  return { person, b, stolen };
}

const asCookie = (cookie: string) => h.request('/api/account', { headers: { cookie } });

describe('a stolen session cookie', () => {
  it('works while the session lasts, for the API and the portal', async () => {
    const { person, b, stolen } = await signedIn();
    const res = await asCookie(stolen);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { username: string }).username).toBe(person.user.username);
    expect((await b.session())?.userId).toBe(String(person.user.id));
  });

  it('stops working when its owner signs out in their browser', async () => {
    const { b, stolen } = await signedIn();
    await b.signOut();
    expect(b.cookieHeader() ?? '').not.toContain('session-token');
    await expectProblem(await asCookie(stolen), 401);
    const thief = browser();
    for (const part of stolen.split('; '))
      thief.cookies.set(part.slice(0, part.indexOf('=')), decodeURIComponent(part.slice(part.indexOf('=') + 1)));
    // next-auth's own session answer neither shows nor extends it, and clears the thief's cookie
    expect(await thief.session()).toBeNull();
    expect(thief.cookieHeader() ?? '').not.toContain('session-token');
  });

  it('stops working when its owner signs out everywhere, with their other sessions; API keys stay', async () => {
    const { person, stolen } = await signedIn();
    const other = browser();
    await other.signInWithPassword(person.user.username, person.password);
    const ended = await h.request('/api/account/sessions', { method: 'DELETE', key: person.key });
    expect(ended.status).toBe(204);
    await expectProblem(await asCookie(stolen), 401);
    expect(await other.session()).toBeNull();
    expect((await h.request('/api/account', { key: person.key })).status).toBe(200);
    // signing in again starts a session that counts
    const again = browser();
    await again.signInWithPassword(person.user.username, person.password);
    expect((await asCookie(again.cookieHeader() ?? '')).status).toBe(200);
  });

  it('stops working when an administrator sets a new password', async () => {
    const { person, stolen } = await signedIn();
    const admin = await h.user({ isAdmin: true });
    const set = await h.request(`/api/admin/users/${person.user.id}`, {
      method: 'PATCH',
      key: admin.key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ password: 'a brand new passphrase' }),
    });
    expect(set.status).toBe(200);
    await expectProblem(await asCookie(stolen), 401);
  });

  it('stops working when its owner sets a new password from a reset link', async () => {
    const { person, stolen } = await signedIn();
    const asked = await h.request('/api/password-reset', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: person.user.username }),
    });
    expect(asked.status).toBe(202);
    const [message] = await waitFor(
      async () => mail.received.filter((m) => m.to.includes(person.user.email)),
      (list) => list.length > 0,
      'the reset link',
    );
    const token = /\/reset-password\?token=([\w-]+)/.exec(message?.text ?? '')?.[1];
    expect(token).toBeDefined();
    const reset = await h.request('/api/password-reset/confirm', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, password: 'another new passphrase' }),
    });
    expect(reset.status).toBe(200);
    await expectProblem(await asCookie(stolen), 401);
  });

  it('never outlives its absolute lifetime, however it is used', async () => {
    const person = await h.user();
    const claims = await newSessionClaims(h.database.db, person.user.id, new Date(Date.now() - (SESSION_ABSOLUTE_SECONDS + 60) * 1000));
    const token = await encode({ token: { ...claims, sub: String(person.user.id) }, secret: h.config.authSecret });
    await expectProblem(await asCookie(`next-auth.session-token=${token}`), 401);
    // one made before sessions could end (no claims of its own) counts no more
    const old = await encode({ token: { sub: String(person.user.id) }, secret: h.config.authSecret });
    await expectProblem(await asCookie(`next-auth.session-token=${old}`), 401);
  });
});

describe('a change made with the session cookie', () => {
  const post = (cookie: string, headers: Record<string, string>) =>
    h.request('/api/account/keys', {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ name: 'made in the portal' }),
    });

  it('is taken from the portal’s own pages: its Origin is the service’s, or the browser says same-origin', async () => {
    const { stolen } = await signedIn();
    expect((await post(stolen, { origin: BASE })).status).toBe(201);
    expect((await post(stolen, { 'sec-fetch-site': 'same-origin' })).status).toBe(201);
    // the host the request was sent to, when the service is reached by another name than NEXTAUTH_URL
    expect((await post(stolen, { origin: 'http://broker.internal:3998', host: 'broker.internal:3998' })).status).toBe(201);
  });

  it.each([
    ['another site', { origin: 'https://evil.example' }],
    ['a sibling subdomain', { origin: 'http://evil.localhost:3998' }],
    ['a sandboxed frame', { origin: 'null' }],
    ['another site, without Origin', { 'sec-fetch-site': 'cross-site' }],
    ['a client that says nothing of where it comes from', {}],
  ])('is refused (403) from %s, and changes nothing', async (_from, headers) => {
    const { person, stolen } = await signedIn();
    const before = ((await (await h.request('/api/account/keys', { key: person.key })).json()) as unknown[]).length;
    const body = await expectProblem(await post(stolen, headers), 403);
    expect(body.detail).toMatch(/must come from the portal’s own pages/);
    expect(((await (await h.request('/api/account/keys', { key: person.key })).json()) as unknown[]).length).toBe(before);
    // reading with it is not a change
    expect((await asCookie(stolen)).status).toBe(200);
  });

  it('is not asked of a script sending an API key', async () => {
    const person = await h.user();
    const res = await h.request('/api/account/keys', { method: 'POST', key: person.key, headers: { origin: 'https://evil.example' } });
    expect(res.status).toBe(201);
  });
});
