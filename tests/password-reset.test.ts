import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { emails, users } from '@/db/schema';
import { CLIENT_ADDRESS_HEADER } from '@/lib/auth/client-address';
import { guessLimits, LIMITS } from '@/lib/auth/limits';
import { makeResetToken, RESET_LINK_INVALID } from '@/lib/auth/password-reset';
import { PASSWORD_RESET_SENT } from '@/lib/users/contract';
import { NO_PASSWORD } from '@/lib/users/passwords';
import { waitFor } from './support/flows';
import { createHarness, type Harness } from './support/harness';
import { type MailServer, startMailServer } from './support/repository-server/smtp';

/**
 * The admin's basics for accounts (issue 26, issue 27 item 2): searching users, lifting sign-in locks, and "forgot
 * password" by a one-time emailed link, sent through the real email job to a local SMTP server.
 */

let smtp: MailServer;
let h: Harness;
let admin: Awaited<ReturnType<Harness['user']>>;
const json = { 'content-type': 'application/json' };

beforeAll(async () => {
  smtp = await startMailServer();
  h = await createHarness({ SMTP_URL: smtp.url, NEXTAUTH_URL: 'https://broker.example.org' }, { workers: true });
  admin = await h.user({ username: 'reset-admin', isAdmin: true });
}, 120_000);
afterAll(async () => {
  await h.close();
  await smtp.close();
});
beforeEach(() => smtp.received.splice(0));

const signIn = (username: string, password: string, client = `client-${Math.random()}`) =>
  h.request('/api/apiKey', {
    method: 'POST',
    headers: { ...json, [CLIENT_ADDRESS_HEADER]: client },
    body: JSON.stringify({ username, password }),
  });

const askReset = (login: string, client = `client-${Math.random()}`) =>
  h.request('/api/password-reset', {
    method: 'POST',
    headers: { ...json, [CLIENT_ADDRESS_HEADER]: client },
    body: JSON.stringify({ login }),
  });

const setPassword = (token: string, password: string, client = `client-${Math.random()}`) =>
  h.request('/api/password-reset/confirm', {
    method: 'POST',
    headers: { ...json, [CLIENT_ADDRESS_HEADER]: client },
    body: JSON.stringify({ token, password }),
  });

/**
 * Enough failed sign-ins to lock the account for a client, counted by the limiter itself: each through the API costs a
 * scrypt hash (tests/auth-limits.test.ts does it that way); here only the lock matters.
 */
async function failSignIns(username: string, client: string) {
  for (let i = 0; i < LIMITS.accountFailures.points; i++) await guessLimits(h.database.db).passwordFailed(client, username);
}

const listed = async (query: string) => {
  const res = await h.request(`/api/admin/users?${query}`, { key: admin.key });
  expect(res.status, await res.clone().text()).toBe(200);
  return {
    names: ((await res.json()) as { username: string }[]).map((u) => u.username),
    total: Number(res.headers.get('x-total-count')),
    link: res.headers.get('link'),
  };
};

const linkTo = async (address: string) => {
  const [mail] = await waitFor(
    async () => smtp.received.filter((m) => m.to.includes(address)),
    (list) => list.length > 0,
    `email to ${address}`,
  );
  const token = /\/reset-password\?token=([\w-]+)/.exec(mail!.text)?.[1];
  expect(token, mail!.text).toBeTruthy();
  return { mail: mail!, token: token! };
};

describe('user search', () => {
  beforeAll(async () => {
    await h.user({ username: 'srch_alice', email: 'Alice.Bloggs@Example.org' });
    await h.user({ username: 'srch_bob', email: 'bob@example.org' });
    const carol = await h.user({ username: 'srch_carol' });
    await h.database.db.update(users).set({ fullName: 'Carolina Díaz', orcidId: '0000-0002-1825-0097' }).where(eq(users.id, carol.user.id));
    const dan = await h.user({ username: 'srch_dan' });
    await h.database.db.update(users).set({ fullName: 'Dan, 100% real' }).where(eq(users.id, dan.user.id));
  });

  it('matches a part of the username, email, full name or ORCID iD, in any case', async () => {
    expect((await listed('q=SRCH_')).names).toEqual(['srch_alice', 'srch_bob', 'srch_carol', 'srch_dan']);
    expect((await listed('q=bloggs@EXAMPLE')).names).toEqual(['srch_alice']);
    expect((await listed('q=carolina')).names).toEqual(['srch_carol']);
    expect((await listed('q=1825-0097')).names).toEqual(['srch_carol']);
    expect((await listed('q=%25')).names).toEqual(['srch_dan']);
    // `_` is a letter like any other, not a wildcard
    expect((await listed('q=h_a')).names).toEqual(['srch_alice']);
    expect(await listed('q=nobody-has-this')).toMatchObject({ names: [], total: 0 });
  });

  it('pages the matches with their own total, the next page’s link keeping the search', async () => {
    const first = await listed('q=srch_&limit=2');
    expect(first).toMatchObject({ names: ['srch_alice', 'srch_bob'], total: 4 });
    expect(first.link).toContain('q=srch_');
    expect((await listed('q=srch_&limit=2&offset=2')).names).toEqual(['srch_carol', 'srch_dan']);
    // without q, everyone
    expect((await listed('limit=500')).total).toBeGreaterThanOrEqual(5);
  });

  it('refuses an over-long search with 400 and non-admins with 404', async () => {
    expect((await h.request(`/api/admin/users?q=${'x'.repeat(201)}`, { key: admin.key })).status).toBe(400);
    const plain = await h.user();
    expect((await h.request('/api/admin/users?q=srch', { key: plain.key })).status).toBe(404);
  });
});

// each wrong or right password costs a scrypt hash: at OWASP's cost (lib/users/passwords.ts) once a password was set
// through the API, at the low cost of the harness's accounts before (tests/support/harness.ts)
describe('unlocking an account', { timeout: 120_000 }, () => {
  it('shows a locked account as locked, and Unlock lifts every lock without changing the password', async () => {
    const { user, password } = await h.user({ username: 'unlock-me' });
    await failSignIns(user.username, '10.1.0.1');
    await failSignIns(user.username, '10.1.0.2');
    for (const client of ['10.1.0.1', '10.1.0.2']) expect((await signIn(user.username, password, client)).status).toBe(429);
    const before = (await (await h.request('/api/admin/users?q=unlock-me', { key: admin.key })).json()) as {
      locked_until: string | null;
    }[];
    expect(Date.parse(before[0]!.locked_until!)).toBeGreaterThan(Date.now() + 10 * 60_000);

    const plain = await h.user();
    expect((await h.request(`/api/admin/users/${user.id}/unlock`, { method: 'POST', key: plain.key })).status).toBe(404);
    expect((await h.request('/api/admin/users/999999/unlock', { method: 'POST', key: admin.key })).status).toBe(404);
    const res = await h.request(`/api/admin/users/${user.id}/unlock`, { method: 'POST', key: admin.key });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: user.id, username: 'unlock-me' });

    for (const client of ['10.1.0.1', '10.1.0.2']) expect((await signIn(user.username, password, client)).status).toBe(200);
    const after = (await (await h.request('/api/admin/users?q=unlock-me', { key: admin.key })).json()) as { locked_until: string | null }[];
    expect(after[0]!.locked_until).toBeNull();
  });
});

// each wrong or right password costs a scrypt hash: at OWASP's cost (lib/users/passwords.ts) once a password was set
// through the API, at the low cost of the harness's accounts before (tests/support/harness.ts)
describe('forgot password', { timeout: 120_000 }, () => {
  it('emails a one-time link that sets a new password and lifts the locks; the old password stops working', async () => {
    const { user, password } = await h.user({ username: 'forgetful', email: 'forgetful@example.org' });
    await failSignIns(user.username, '10.2.0.1');
    expect((await signIn(user.username, password, '10.2.0.1')).status).toBe(429);

    const asked = await askReset('forgetful');
    expect(asked.status).toBe(202);
    expect(await asked.json()).toEqual({ detail: PASSWORD_RESET_SENT });
    const { mail, token } = await linkTo('forgetful@example.org');
    expect(mail.subject).toBe('Set a new password for the Research Metadata Broker');
    expect(mail.text).toContain('https://broker.example.org/reset-password?token=');
    expect(mail.text).toContain('forgetful');
    // the SMTP server has the message before the email job records it as sent: wait for the record to settle
    const [recorded] = await waitFor(
      () => h.database.db.select().from(emails).where(eq(emails.kind, 'password_reset')),
      (rows) => rows[0]?.status !== 'queued',
      'the reset email recorded as settled',
    );
    expect(recorded).toMatchObject({ status: 'sent', userIds: [user.id] });
    // once sent, the record keeps the message but not the link: it is a credential until it is used
    expect(recorded!.body).toContain('forgetful');
    expect(recorded!.body).not.toContain(token);
    expect(recorded!.body).toContain('token=(removed once the email was settled)');

    const set = await setPassword(token, 'a brand new password');
    expect(set.status, await set.clone().text()).toBe(200);
    expect(((await set.json()) as { detail: string }).detail).toContain('forgetful');
    expect((await signIn('forgetful', 'a brand new password', '10.2.0.1')).status).toBe(200);
    expect((await signIn('forgetful', password)).status).toBe(401);

    // once: the password it was made for is gone
    const again = await setPassword(token, 'yet another password');
    expect(again.status).toBe(400);
    expect(again.headers.get('content-type')).toContain('application/problem+json');
    expect(await again.json()).toMatchObject({ detail: RESET_LINK_INVALID, errors: [{ path: 'token' }] });
    expect((await signIn('forgetful', 'yet another password')).status).toBe(401);
  });

  it('finds the account by its email address in any case', async () => {
    await h.user({ username: 'by-address', email: 'Mixed.Case@example.org' });
    expect((await askReset('mixed.case@EXAMPLE.org')).status).toBe(202);
    const { token } = await linkTo('Mixed.Case@example.org');
    expect((await setPassword(token, 'set by address link')).status).toBe(200);
    expect((await signIn('by-address', 'set by address link')).status).toBe(200);
  });

  it('answers alike whether or not an account matches, and emails only active accounts with a password and an address', async () => {
    const gone = await h.user({ username: 'gone-away', email: 'gone@example.org' });
    await h.database.db.update(users).set({ isActive: false }).where(eq(users.id, gone.user.id));
    const orcidOnly = await h.user({ username: 'orcid-only', email: 'orcid-only@example.org' });
    await h.database.db.update(users).set({ passwordHash: NO_PASSWORD }).where(eq(users.id, orcidOnly.user.id));
    await h.user({ username: 'no-address' });
    const answers = [];
    for (const login of ['no-such-user', 'nobody@example.org', 'gone-away', 'orcid-only', 'no-address']) {
      const res = await askReset(login);
      answers.push({ status: res.status, body: await res.text() });
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]).toEqual({ status: 202, body: JSON.stringify({ detail: PASSWORD_RESET_SENT }) });
    await new Promise((r) => setTimeout(r, 1500));
    expect(smtp.received).toEqual([]);
  });

  it('refuses a link that has expired, was altered or was made for another password, with 400 and no change', async () => {
    const { user, password } = await h.user({ username: 'expiring', email: 'expiring@example.org' });
    const [row] = await h.database.db.select().from(users).where(eq(users.id, user.id));
    const secret = h.config.authSecret;
    const old = makeResetToken(secret, row!, new Date(Date.now() - 61 * 60_000));
    const good = makeResetToken(secret, row!);
    const altered = `${good.slice(0, -2)}${good.endsWith('AA') ? 'BB' : 'AA'}`;
    const otherUser = good.replace(/^\d+-/, `${admin.user.id}-`);
    const wrongSecret = makeResetToken('another secret', row!);
    for (const token of [old, altered, otherUser, wrongSecret, 'not-a-token']) {
      const res = await setPassword(token, 'should not be set');
      expect(res.status, token).toBe(400);
      expect(((await res.json()) as { detail: string }).detail).toBe(RESET_LINK_INVALID);
    }
    // a new email address ends the links sent to the old one
    await h.database.db.update(users).set({ email: 'moved@example.org' }).where(eq(users.id, user.id));
    expect((await setPassword(good, 'should not be set')).status).toBe(400);
    expect((await signIn('expiring', password)).status).toBe(200);
  });

  it('refuses a short password (the API’s minimum) without spending the link', async () => {
    await h.user({ username: 'short-one', email: 'short@example.org' });
    await askReset('short-one');
    const { token } = await linkTo('short@example.org');
    const short = await setPassword(token, 'short');
    expect(short.status).toBe(400);
    expect(await short.json()).toMatchObject({ errors: [{ path: 'password' }] });
    expect((await setPassword(token, 'long enough now')).status).toBe(200);
  });

  it('limits requests per name (known or not, alike) and per client, and bad links per client, with 429 and Retry-After', async () => {
    await h.user({ username: 'often', email: 'often@example.org' });
    for (const login of ['often', 'never-existed']) {
      for (let i = 0; i < LIMITS.resetRequestsByLogin.points; i++) expect((await askReset(login)).status).toBe(202);
      const refused = await askReset(login);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    for (let i = 0; i < LIMITS.resetRequestsByClient.points; i++) expect((await askReset(`name-${i}`, '10.3.0.1')).status).toBe(202);
    expect((await askReset('name-last', '10.3.0.1')).status).toBe(429);

    for (let i = 0; i < LIMITS.resetTokenFailures.points; i++)
      expect((await setPassword(`1-zzzz-${'A'.repeat(43)}`, 'whatever password', '10.3.0.2')).status).toBe(400);
    expect((await setPassword(`1-zzzz-${'A'.repeat(43)}`, 'whatever password', '10.3.0.2')).status).toBe(429);
  });

  it('validates the bodies with problem+json', async () => {
    const none = await h.request('/api/password-reset', { method: 'POST', headers: json, body: '{}' });
    expect(none.status).toBe(400);
    expect(none.headers.get('content-type')).toContain('application/problem+json');
    expect(
      (await h.request('/api/password-reset/confirm', { method: 'POST', headers: json, body: '{"password":"long enough"}' })).status,
    ).toBe(400);
  });
});

describe('forgot password without an SMTP server', () => {
  it('is not offered: 404 in words, for every name alike', async () => {
    const bare = await createHarness();
    try {
      await bare.user({ username: 'someone', email: 'someone@example.org' });
      for (const login of ['someone', 'nobody']) {
        const res = await bare.request('/api/password-reset', { method: 'POST', headers: json, body: JSON.stringify({ login }) });
        expect(res.status).toBe(404);
        expect(((await res.json()) as { detail: string }).detail).toMatch(/sends no email.*administrator/);
      }
    } finally {
      await bare.close();
    }
  }, 60_000);
});
