import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '@/db/schema';
import { authSettings, buildAuthOptions, signedInUser } from '@/lib/auth/session';
import type { Config } from '@/lib/config';
import { usernameBase } from '@/lib/users/orcid';
import { ORCID_REFUSALS, orcidRefusalText } from '@/lib/users/orcid-words';
import { authenticate, getUser, updateUser } from '@/lib/users/users';
import { AuthBrowser } from './support/auth-browser';
import { createHarness, type Harness } from './support/harness';
import { type OidcServer, startOidcServer } from './support/oidc-server';

// ORCID's own example iDs: valid check digits
const JOSIAH = '0000-0002-1825-0097';
const SOFIA = '0000-0001-5109-3700';
const ANA = '0000-0002-1694-233X';
const LINKER = '0000-0003-1415-9269';
const LATE = '0000-0002-9079-593X';

const BASE = 'http://localhost:3999';
let h: Harness;
let oidc: OidcServer;
let previousUrl: string | undefined;

beforeAll(async () => {
  oidc = await startOidcServer(`${BASE}/api/auth/callback/orcid`);
  h = await createHarness({
    NEXTAUTH_URL: BASE,
    ORCID_CLIENT_ID: oidc.clientId,
    ORCID_CLIENT_SECRET: oidc.clientSecret,
    ORCID_ISSUER: oidc.issuer,
    SELF_REGISTRATION: 'true',
  });
  // next-auth v4 reads the broker's URL from the environment, as lib/server/auth-options.ts sets it
  previousUrl = process.env.NEXTAUTH_URL;
  process.env.NEXTAUTH_URL = BASE;
  oidc.people.set(JOSIAH, { given_name: 'Josiah', family_name: 'Carberry' });
  oidc.people.set(SOFIA, { name: 'Sofía Núñez' });
  oidc.people.set(ANA, { given_name: 'Josiah', family_name: 'Carberry' });
  oidc.people.set(LINKER, { given_name: 'Lin', family_name: 'Ker' });
  oidc.people.set(LATE, {});
});
afterAll(async () => {
  process.env.NEXTAUTH_URL = previousUrl;
  await h?.close();
  await oidc?.close();
});

/** A browser at the broker configured as `cfg` (the harness's settings, or a variation of them). */
const browser = (cfg: Config = h.config) =>
  new AuthBrowser(BASE, (cookie) => buildAuthOptions(async () => h.database.db, authSettings(cfg), cookie));

const userByOrcid = async (orcidId: string) => {
  const [row] = await h.database.db.select({ id: users.id }).from(users).where(eq(users.orcidId, orcidId));
  return row ? getUser(h.database.db, row.id) : null;
};

describe('signing in with ORCID, self-registration on', () => {
  it('makes an account for a new person: their iD and name, no project, no rights, no usable password; the session works', async () => {
    const b = browser();
    expect(await b.signInWithOrcid(JOSIAH)).toBe(`${BASE}/`);
    const user = await userByOrcid(JOSIAH);
    expect(user).toMatchObject({
      username: 'josiah.carberry',
      fullName: 'Josiah Carberry',
      orcidId: JOSIAH,
      isAdmin: false,
      isActive: true,
      memberOf: [],
      managerOf: [],
      approverOf: [],
    });
    if (!user) throw new Error('no account');

    // the session cookie names the new account, for the API and for the portal's pages
    expect((await signedInUser(h.database.db, b.cookieHeader(), h.config.authSecret))?.id ?? null).toBe(user.id);
    expect((await b.session())?.userId).toBe(String(user.id));

    // an API key made from the session, then used on its own
    const made = await h.request('/api/account/keys', {
      method: 'POST',
      headers: { cookie: b.cookieHeader() ?? '', 'content-type': 'application/json', origin: BASE },
      body: JSON.stringify({ name: 'from my ORCID session' }),
    });
    expect(made.status).toBe(201);
    const { key } = (await made.json()) as { key: string };
    const me = await h.request('/api/account', { key });
    expect(await me.json()).toMatchObject({ username: 'josiah.carberry', orcid_id: JOSIAH, full_name: 'Josiah Carberry' });

    // no password signs in to it, by the API or by the form
    expect(await authenticate(h.database.db, 'josiah.carberry', 'none')).toBeNull();
    expect(await authenticate(h.database.db, 'josiah.carberry', '')).toBeNull();
    const byForm = browser();
    expect(await byForm.signInWithPassword('josiah.carberry', 'none')).toContain('error=CredentialsSignin');
    expect(await byForm.session()).toBeNull();
  });

  it('signs the same person in to the same account next time', async () => {
    const before = await userByOrcid(JOSIAH);
    const b = browser();
    expect(await b.signInWithOrcid(JOSIAH, '/profiles')).toBe(`${BASE}/profiles`);
    expect((await signedInUser(h.database.db, b.cookieHeader(), h.config.authSecret))?.id ?? null).toBe(before?.id);
    expect(await h.database.db.$count(users, eq(users.orcidId, JOSIAH))).toBe(1);
  });

  it('gives a second person of the same name a username of their own, and one without a name one from the iD', async () => {
    await browser().signInWithOrcid(ANA);
    expect((await userByOrcid(ANA))?.username).toBe('josiah.carberry-2');
    await browser().signInWithOrcid(SOFIA);
    expect(await userByOrcid(SOFIA)).toMatchObject({ username: 'sofia.nunez', fullName: 'Sofía Núñez' });
    await browser().signInWithOrcid(LATE);
    expect(await userByOrcid(LATE)).toMatchObject({ username: `orcid-${LATE}`, fullName: '' });
  });
});

describe('signing in with ORCID, self-registration off', () => {
  it('makes no account and says why, naming the iD', async () => {
    const cfg = { ...h.config, SELF_REGISTRATION: false };
    const stranger = '0000-0002-5000-0004';
    oidc.people.set(stranger, { given_name: 'Not', family_name: 'Known' });
    const b = browser(cfg);
    const landed = new URL((await b.signInWithOrcid(stranger)) ?? '');
    expect(`${landed.origin}${landed.pathname}`).toBe(`${BASE}/signin`);
    expect(landed.searchParams.get('error')).toBe('OrcidUnknown');
    expect(landed.searchParams.get('orcid')).toBe(stranger);
    expect(orcidRefusalText('OrcidUnknown', stranger)).toBe(
      `No account has the ORCID iD ${stranger}. Ask an administrator to add you, or to link this iD to your account.`,
    );
    expect(await userByOrcid(stranger)).toBeNull();
    expect(await b.session()).toBeNull();

    // someone who already has an account still signs in
    expect(await b.signInWithOrcid(JOSIAH)).toBe(`${BASE}/`);
    expect((await signedInUser(h.database.db, b.cookieHeader(), h.config.authSecret))?.id ?? null).toBe((await userByOrcid(JOSIAH))?.id);
  });
});

describe('linking an ORCID iD to an account', () => {
  it('links the iD to the signed-in account, whose session stays theirs; the iD then signs in to it', async () => {
    const { user, password } = await h.user({ memberOf: ['dtol'] });
    const b = browser({ ...h.config, SELF_REGISTRATION: false });
    await b.signInWithPassword(user.username, password);
    expect((await signedInUser(h.database.db, b.cookieHeader(), h.config.authSecret))?.id ?? null).toBe(user.id);

    expect(await b.signInWithOrcid(LINKER, '/account')).toBe(`${BASE}/account`);
    expect(await getUser(h.database.db, user.id)).toMatchObject({ orcidId: LINKER, fullName: 'Lin Ker', memberOf: ['dtol'] });
    expect((await signedInUser(h.database.db, b.cookieHeader(), h.config.authSecret))?.id ?? null).toBe(user.id);

    const later = browser({ ...h.config, SELF_REGISTRATION: false });
    await later.signInWithOrcid(LINKER);
    expect((await signedInUser(h.database.db, later.cookieHeader(), h.config.authSecret))?.id ?? null).toBe(user.id);
    // their password still works too
    expect(await authenticate(h.database.db, user.username, password)).not.toBeNull();
  });

  it('refuses an iD linked to another account, in words, and leaves both accounts and the session as they were', async () => {
    const { user, password } = await h.user();
    const b = browser();
    await b.signInWithPassword(user.username, password);
    const landed = new URL((await b.signInWithOrcid(JOSIAH, '/account')) ?? '');
    expect(landed.pathname).toBe('/account');
    expect(landed.searchParams.get('orcid_error')).toBe('OrcidTaken');
    expect(orcidRefusalText('OrcidTaken', JOSIAH)).toContain(`The ORCID iD ${JOSIAH} is already linked to another account`);
    expect((await getUser(h.database.db, user.id)).orcidId).toBeNull();
    expect((await userByOrcid(JOSIAH))?.username).toBe('josiah.carberry');
    expect((await signedInUser(h.database.db, b.cookieHeader(), h.config.authSecret))?.id ?? null).toBe(user.id);
  });

  it('refuses a second iD for an account that has one', async () => {
    const linked = await userByOrcid(LINKER);
    const b = browser();
    await b.signInWithOrcid(LINKER);
    const other = '0000-0001-8135-3489';
    oidc.people.set(other, { name: 'Other Self' });
    const landed = new URL((await b.signInWithOrcid(other, '/account')) ?? '');
    expect(landed.searchParams.get('orcid_error')).toBe('OrcidOtherLinked');
    expect((await getUser(h.database.db, linked?.id ?? 0)).orcidId).toBe(LINKER);
    expect(await userByOrcid(other)).toBeNull();
  });

  it('lets an admin unlink an iD through the users API, which shows the iD and name', async () => {
    const admin = await h.user({ isAdmin: true });
    const sofia = await userByOrcid(SOFIA);
    const list = await h.request('/api/admin/users?limit=1000', { key: admin.key });
    const shown = ((await list.json()) as { username: string; orcid_id: string | null; full_name: string }[]).find(
      (u) => u.username === 'sofia.nunez',
    );
    expect(shown).toMatchObject({ orcid_id: SOFIA, full_name: 'Sofía Núñez' });
    const res = await h.request(`/api/admin/users/${sofia?.id}`, {
      method: 'PATCH',
      key: admin.key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ orcid_id: null }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ orcid_id: null, full_name: 'Sofía Núñez' });
    const refused = await h.request(`/api/admin/users/${sofia?.id}`, {
      method: 'PATCH',
      key: admin.key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ orcid_id: SOFIA }),
    });
    expect(refused.status).toBe(400);
  });
});

describe('refusals', () => {
  it('refuses a deactivated account, in words, with no session', async () => {
    const ana = await userByOrcid(ANA);
    await updateUser(h.database.db, ana?.id ?? 0, { isActive: false });
    const b = browser();
    const landed = new URL((await b.signInWithOrcid(ANA)) ?? '');
    expect(landed.pathname).toBe('/signin');
    expect(landed.searchParams.get('error')).toBe('OrcidDeactivated');
    expect(orcidRefusalText('OrcidDeactivated', ANA)).toBe(ORCID_REFUSALS.OrcidDeactivated.replace('{orcid}', ANA));
    expect(await b.session()).toBeNull();
    expect((await signedInUser(h.database.db, b.cookieHeader(), h.config.authSecret))?.id ?? null).toBeNull();
  });

  it('refuses what is not an ORCID iD, making no account', async () => {
    oidc.people.set('0000-0002-1825-0098', { name: 'Bad Check Digit' });
    const landed = new URL((await browser().signInWithOrcid('0000-0002-1825-0098')) ?? '');
    expect(landed.searchParams.get('error')).toBe('OrcidInvalid');
    expect(await userByOrcid('0000-0002-1825-0098')).toBeNull();
  });

  it('has no ORCID provider without the client settings', async () => {
    const cfg = { ...h.config, ORCID_CLIENT_ID: undefined, ORCID_CLIENT_SECRET: undefined };
    const b = browser(cfg);
    const { body } = await b.call('providers');
    expect(Object.keys(body as object)).toEqual(['credentials']);
  });
});

describe('usernames from ORCID names', () => {
  it('keeps letters and digits, drops accents, and falls back on the iD', () => {
    expect(usernameBase({ orcidId: JOSIAH, fullName: "  Ó'Brien-Łukasz  Smith " })).toBe('o.brien.ukasz.smith');
    expect(usernameBase({ orcidId: JOSIAH, fullName: '李' })).toBe(`orcid-${JOSIAH}`);
  });
});
