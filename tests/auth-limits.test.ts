import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, rateLimits } from '@/db/schema';
import { createApiApp } from '@/lib/api/app';
import { CLIENT_ADDRESS_HEADER } from '@/lib/auth/client-address';
import { LIMITS } from '@/lib/auth/limits';
import { createHarness, type Harness } from './support/harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
}, 60_000);
afterAll(() => h.close());

const signIn = (username: string, password: string, client: string, app = h.api) =>
  app.request('/api/apiKey', {
    method: 'POST',
    headers: { 'content-type': 'application/json', [CLIENT_ADDRESS_HEADER]: client },
    body: JSON.stringify({ username, password }),
  });

const withKey = (key: string, client: string) =>
  h.request('/api/account/keys', { headers: { authorization: `token ${key}`, [CLIENT_ADDRESS_HEADER]: client } });

/**
 * `n` wrong passwords for `username` from `client`, sent at once, each answered 401: each costs a scrypt hash (at
 * the cost stored with the account's: low for the harness's accounts, tests/support/harness.ts; OWASP's for an
 * unknown name or a password set through the API, lib/users/passwords.ts), which node computes on its thread pool,
 * four at a time; and the counts they add up to are then also counts of requests that arrived together, as guesses
 * do.
 */
async function failures(n: number, username: string | ((i: number) => string), client: string | ((i: number) => string), app = h.api) {
  const answers = await Promise.all(
    Array.from({ length: n }, (_, i) =>
      signIn(typeof username === 'string' ? username : username(i), 'wrong', typeof client === 'string' ? client : client(i), app),
    ),
  );
  expect(answers.map((a) => a.status)).toEqual(answers.map(() => 401));
}

// dozens of hashes per test, some at OWASP's cost: 32 of those took 120 s on two cores shared with other work (3.7 s a
// hash), hence five minutes
describe('guessing passwords', { timeout: 300_000 }, () => {
  it('locks the account for a client after 10 of its failures, with a clear message and Retry-After; the person elsewhere still signs in', async () => {
    const { user, password } = await h.user({ username: 'locked-out' });
    await failures(LIMITS.accountFailures.points, user.username, '10.0.0.1');
    // the right password too, from that client: the account is locked there, and no hash is computed for it
    const locked = await signIn(user.username, password, '10.0.0.1');
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(800);
    expect(((await locked.json()) as { detail: string }).detail).toMatch(
      /Too many failed sign-ins for this account from this address: it is locked here for 1[45] more minute.*ask an administrator to reset the password/,
    );
    // nobody locks a person out of their own account: from their own address they sign in
    expect((await signIn(user.username, password, '10.0.9.9')).status).toBe(200);
    // another account is not affected
    const other = await h.user();
    expect((await signIn(other.user.username, other.password, '10.0.0.1')).status).toBe(200);
  });

  it('spreads failures over clients without locking the account for a client that did not fail', async () => {
    const { user, password } = await h.user();
    // more than the account's limit in all (an account-wide count would lock it), fewer than it from each client
    const clients = 5;
    await failures(LIMITS.accountFailures.points + clients, user.username, (i) => `10.3.${i % clients}.1`);
    expect((await signIn(user.username, password, '10.3.9.9')).status).toBe(200);
  });

  it('lifts every lock on the account when an administrator sets a new password, as the message says', async () => {
    const { user } = await h.user();
    const admin = await h.user({ isAdmin: true });
    for (const client of ['10.4.0.1', '10.4.0.2']) await failures(LIMITS.accountFailures.points, user.username, client);
    expect((await signIn(user.username, 'wrong', '10.4.0.1')).status).toBe(429);
    const reset = await h.request(`/api/admin/users/${user.id}`, {
      method: 'PATCH',
      key: admin.key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ password: 'a brand new passphrase' }),
    });
    expect(reset.status).toBe(200);
    for (const client of ['10.4.0.1', '10.4.0.2']) expect((await signIn(user.username, 'a brand new passphrase', client)).status).toBe(200);
  });

  it('blocks a client after 30 failures over any accounts; a success first clears the account’s count', async () => {
    const { user, password } = await h.user();
    await failures(5, user.username, '10.1.0.1');
    expect((await signIn(user.username, password, '10.1.0.1')).status).toBe(200);
    // 5 failures were cleared for the account, not for the client: 25 more reach the client's limit
    await failures(LIMITS.clientPasswordFailures.points - 5, (i) => `nobody-${i}`, '10.1.0.1');
    const blocked = await signIn(user.username, password, '10.1.0.1');
    expect(blocked.status).toBe(429);
    expect(((await blocked.json()) as { detail: string }).detail).toMatch(/from this address/);
    expect((await signIn(user.username, password, '10.1.0.2')).status).toBe(200);
  });

  it('counts in the database, so another instance on it sees the same counts', async () => {
    const second = createApiApp(h.deps);
    const { user, password } = await h.user();
    await Promise.all([
      failures(LIMITS.accountFailures.points / 2, user.username, '10.2.0.1'),
      failures(LIMITS.accountFailures.points / 2, user.username, '10.2.0.1', second),
    ]);
    expect((await signIn(user.username, password, '10.2.0.1', second)).status).toBe(429);
  });
});

describe('guessing API keys', () => {
  it('answers 429 with Retry-After after 30 unknown keys from one client, while a valid key from it still works', async () => {
    const { key } = await h.user();
    const client = '10.3.0.1';
    for (let i = 0; i < LIMITS.clientKeyFailures.points; i++) {
      const guess = `rmb_${String(i).padStart(43, 'x')}`;
      expect((await withKey(guess, client)).status).toBe(401);
    }
    const blocked = await withKey(`rmb_${'y'.repeat(43)}`, client);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await withKey(key, client)).status).toBe(200);
    expect((await withKey(`rmb_${'z'.repeat(43)}`, '10.3.0.2')).status).toBe(401);
  });

  it('writes a key’s last use at most once a minute', async () => {
    const { key, user } = await h.user();
    const lastUsed = async () => (await h.database.db.select().from(apiKeys).where(eq(apiKeys.userId, user.id)))[0]!.lastUsedAt;
    expect((await withKey(key, '10.4.0.1')).status).toBe(200);
    const first = await lastUsed();
    expect(first).not.toBeNull();
    for (let i = 0; i < 5; i++) expect((await withKey(key, '10.4.0.1')).status).toBe(200);
    expect((await lastUsed())!.getTime()).toBe(first!.getTime());
  });
});

describe('counts that have ended', () => {
  it('are deleted an hour after they end, when the next failure is counted', async () => {
    // a database handle of its own: the clean-up runs at most every few minutes per handle
    const fresh = await createHarness();
    try {
      const now = Date.now();
      await fresh.database.db.insert(rateLimits).values([
        { key: 'key_client:long-gone', points: 3, expire: new Date(now - 2 * 60 * 60_000) },
        { key: 'key_client:just-ended', points: 3, expire: new Date(now - 10 * 60_000) },
      ]);
      const res = await fresh.request('/api/account/keys', {
        headers: { authorization: 'token not-a-key', [CLIENT_ADDRESS_HEADER]: '10.9.9.9' },
      });
      expect(res.status).toBe(401);
      const keys = (await fresh.database.db.select({ key: rateLimits.key }).from(rateLimits)).map((r) => r.key).sort();
      expect(keys).toEqual(['key_client:10.9.9.9', 'key_client:just-ended']);
    } finally {
      await fresh.close();
    }
  });
});
