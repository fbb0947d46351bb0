import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase } from '@/db/client';
import { keyFromAuthorization } from '@/lib/api/auth';
import { parseConfig } from '@/lib/config';
import { AppError } from '@/lib/errors';
import { createLogger } from '@/lib/logger';
import { announceFirstAdmin } from '@/lib/server/first-admin';
import { authenticate, createUser, ensureFirstAdmin, getUser, listUsers } from '@/lib/users/users';
import { createHarness, type Harness } from './support/harness';
import { TEST_NODE_FLAGS } from './support/node-flags';
import { serviceDataDir } from './support/service-process';

let h: Harness;
let admin: Awaited<ReturnType<Harness['user']>>;
let plain: Awaited<ReturnType<Harness['user']>>;

beforeAll(async () => {
  h = await createHarness();
  admin = await h.user({ username: 'root', isAdmin: true });
  plain = await h.user({ username: 'plain', memberOf: ['dtol'] });
});
afterAll(() => h.close());

const post = (body: unknown, key: string) =>
  h.request('/api/admin/users', {
    method: 'POST',
    key,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('admin users API', () => {
  it('is invisible to non-admins (404) and refuses anonymous callers (401)', async () => {
    expect((await h.request('/api/admin/users', { key: plain.key })).status).toBe(404);
    expect((await h.request('/api/admin/users')).status).toBe(401);
    expect((await post({ username: 'x', password: 'longenough' }, plain.key)).status).toBe(404);
  });

  it('creates a user with memberships and manager roles, who can then get a key', async () => {
    const res = await post(
      { username: 'erga-lead', password: 'erga-lead-pw', email: 'lead@example.org', member_of: ['erga'], manager_of: ['erga'] },
      admin.key,
    );
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ username: 'erga-lead', member_of: ['erga'], manager_of: ['erga'], is_admin: false });
    const key = await h.request('/api/apiKey', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'username=erga-lead&password=erga-lead-pw',
    });
    expect(key.status).toBe(200);
  });

  it('refuses a duplicate username with 409 and bad input with 400, writing nothing', async () => {
    const before = (await listUsers(h.database.db, { limit: 1000, offset: 0 })).total;
    expect((await post({ username: 'plain', password: 'whatever-pw' }, admin.key)).status).toBe(409);
    const short = await post({ username: 'newbie', password: 'short' }, admin.key);
    expect(short.status).toBe(400);
    expect(((await short.json()) as { errors: { path: string }[] }).errors[0]?.path).toBe('password');
    expect((await post({ username: 'newbie', password: 'long-enough', member_of: ['nope'] }, admin.key)).status).toBe(400);
    expect((await listUsers(h.database.db, { limit: 1000, offset: 0 })).total).toBe(before);
  });

  it('changes memberships, manager roles and activity; an inactive user cannot sign in or use keys', async () => {
    const res = await h.request(`/api/admin/users/${plain.user.id}`, {
      method: 'PATCH',
      key: admin.key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ member_of: ['asg', 'erga'], manager_of: ['asg'] }),
    });
    expect(res.status).toBe(200);
    const u = await getUser(h.database.db, plain.user.id);
    expect(u.memberOf).toEqual(['asg', 'erga']);
    expect(u.managerOf).toEqual(['asg']);
    // one list changed, the other kept as it was
    const membersOnly = await h.request(`/api/admin/users/${plain.user.id}`, {
      method: 'PATCH',
      key: admin.key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ member_of: ['dtol'] }),
    });
    expect(await membersOnly.json()).toMatchObject({ member_of: ['dtol'], manager_of: ['asg'] });

    await h.request(`/api/admin/users/${plain.user.id}`, {
      method: 'PATCH',
      key: admin.key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ is_active: false }),
    });
    expect((await h.request('/api/account', { key: plain.key })).status).toBe(401);
    expect(await authenticate(h.database.db, 'plain', plain.password)).toBeNull();
  });

  it('names approvers per associated type: approver_of round-trips, unknown types are refused with 400', async () => {
    const res = await post(
      { username: 'bge-approver', password: 'bge-approver-pw', approver_of: ['BGE', 'ERGA_COMMUNITY'], manager_of: ['erga'] },
      admin.key,
    );
    expect(res.status).toBe(201);
    const created = (await res.json()) as { id: number; approver_of: string[] };
    expect(created.approver_of).toEqual(['BGE', 'ERGA_COMMUNITY']);
    const patch = (body: unknown) =>
      h.request(`/api/admin/users/${created.id}`, {
        method: 'PATCH',
        key: admin.key,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const changed = await patch({ approver_of: ['SANGER'] });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toMatchObject({ approver_of: ['SANGER'], manager_of: ['erga'] });
    // a change of something else keeps them
    expect(await (await patch({ email: 'bge@example.org' })).json()).toMatchObject({ approver_of: ['SANGER'] });
    const listed = (await (await h.request('/api/admin/users?limit=1000', { key: admin.key })).json()) as {
      id: number;
      approver_of: string[];
    }[];
    expect(listed.find((u) => u.id === created.id)?.approver_of).toEqual(['SANGER']);
    expect((await getUser(h.database.db, created.id)).approverOf).toEqual(['SANGER']);

    // an unknown type, and one that needs no approval (DTOL_ENV), are refused; nothing changes
    for (const approver_of of [['NOPE'], ['DTOL_ENV'], ['bge']]) {
      const bad = await patch({ approver_of });
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { errors: { path: string }[] }).errors[0]?.path).toMatch(/^approver_of/);
    }
    expect((await post({ username: 'nobody-approves', password: 'long-enough', approver_of: ['NOPE'] }, admin.key)).status).toBe(400);
    expect((await getUser(h.database.db, created.id)).approverOf).toEqual(['SANGER']);
    // the signed-in user reads their own
    const key = await h.request('/api/apiKey', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'username=bge-approver&password=bge-approver-pw',
    });
    const { token } = (await key.json()) as { token: string };
    expect(await (await h.request('/api/account', { key: token })).json()).toMatchObject({ approver_of: ['SANGER'] });
  });

  it('answers 404 for an unknown user id', async () => {
    const res = await h.request('/api/admin/users/999999', {
      method: 'PATCH',
      key: admin.key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ is_admin: true }),
    });
    expect(res.status).toBe(404);
  });
});

describe('passwords', () => {
  it("are stored as scrypt hashes, never in clear; an account made through the API at OWASP's cost", async () => {
    const rows = await h.database.db.query.users.findMany();
    // OWASP's cost, or the low cost the harness makes its fixture accounts at (tests/support/harness.ts)
    for (const r of rows) expect(r.passwordHash).toMatch(/^scrypt\$(131072|1024)\$8\$1\$/);
    expect(JSON.stringify(rows)).not.toContain(plain.password);
    expect(JSON.stringify(rows)).not.toContain('erga-lead-pw');
    // the accounts made through the API, at OWASP's cost
    const made = rows.filter((r) => r.username === 'erga-lead' || r.username === 'bge-approver');
    expect(made.map((r) => r.username).sort()).toEqual(['bge-approver', 'erga-lead']);
    for (const r of made) expect(r.passwordHash).toMatch(/^scrypt\$131072\$8\$1\$/);
  });
});

/**
 * A database with no users: a copy of the suite's migrated, seeded template (tests/support/global-setup.ts) rather
 * than PGlite's initdb and every migration again (the command-line test below and tests/http-server.test.ts start
 * from an empty directory); on the PostgreSQL pass, which has no PGlite template, an embedded one made afresh.
 */
const templateBlob = () => {
  const template = inject('pgliteTemplate');
  return template ? new Blob([readFileSync(template)]) : undefined;
};
const emptyDatabase = () => openDatabase({ pgliteFrom: templateBlob() });

describe('first admin', () => {
  it('is created once on an empty users table, with a random password when none is configured', async () => {
    const database = await emptyDatabase();
    try {
      const first = await ensureFirstAdmin(database.db, {});
      expect(first?.username).toBe('admin');
      expect(first?.generatedPassword).toMatch(/^[\w-]{16}$/);
      const user = await authenticate(database.db, 'admin', first!.generatedPassword!);
      expect(user?.isAdmin).toBe(true);
      expect(await ensureFirstAdmin(database.db, {})).toBeNull();
    } finally {
      await database.close();
    }
  });

  it('is announced in the log by the file its made-up password is in, readable by the service’s user only', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'rmb-first-admin-'));
    try {
      const lines: Record<string, unknown>[] = [];
      const logger = createLogger('info', { write: (line: string) => void lines.push(JSON.parse(line)) });
      const file = announceFirstAdmin(dataDir, logger, { username: 'admin', generatedPassword: 'Xk3-made-up-secret' });
      expect(file).toBe(path.join(dataDir, 'secrets', 'first-admin-password'));
      expect(readFileSync(file!, 'utf8')).toBe('username: admin\npassword: Xk3-made-up-secret\n');
      expect(statSync(file!).mode & 0o777).toBe(0o600);
      expect(JSON.stringify(lines)).not.toContain('Xk3-made-up-secret');
      expect(lines.at(-1)?.msg).toContain(file!);
      // a configured password is the operator's own: nothing written
      expect(announceFirstAdmin(dataDir, logger, { username: 'boss' })).toBeNull();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('takes ADMIN_USERNAME and ADMIN_PASSWORD when set', async () => {
    const database = await emptyDatabase();
    try {
      const first = await ensureFirstAdmin(database.db, { username: 'boss', password: 'boss-password' });
      expect(first).toEqual({ username: 'boss', generatedPassword: undefined });
      expect(await authenticate(database.db, 'boss', 'boss-password')).not.toBeNull();
    } finally {
      await database.close();
    }
  });
});

describe('embedded database', () => {
  it('keeps data across a restart', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rmb-persist-'));
    try {
      const first = await openDatabase({ pgliteDir: dir, pgliteFrom: templateBlob() });
      await createUser(first.db, { username: 'survivor', password: 'survivor-pw' });
      await first.close();
      const second = await openDatabase({ pgliteDir: dir });
      expect((await listUsers(second.db, { limit: 1000, offset: 0 })).rows.map((u) => u.username)).toEqual(['survivor']);
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('config', () => {
  it('has defaults that work on a fresh machine', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rmb-cfg-'));
    const cfg = parseConfig({ DATA_DIR: dir });
    expect(cfg.PORT).toBe(3000);
    expect(cfg.DATABASE_URL).toBeUndefined();
    expect(cfg.baseUrl).toBe('http://localhost:3000');
    expect(cfg.UPLOAD_MAX_BYTES).toBe(100 * 1024 * 1024);
    // the generated session secret is kept, so sessions survive a restart
    expect(parseConfig({ DATA_DIR: dir }).authSecret).toBe(cfg.authSecret);
    expect(parseConfig({ DATA_DIR: dir, PORT: '3001' }).baseUrl).toBe('http://localhost:3001');
    rmSync(dir, { recursive: true, force: true });
  });

  it('names the setting that is wrong', () => {
    expect(() => parseConfig({ PORT: 'eighty', DATA_DIR: tmpdir() })).toThrow(/PORT/);
    expect(() => parseConfig({ LOG_LEVEL: 'loud', DATA_DIR: tmpdir() })).toThrow(/LOG_LEVEL/);
  });
});

describe('Authorization header parsing', () => {
  const keyChars = fc.stringMatching(/^[A-Za-z0-9_-]{1,60}$/);
  it('finds the key behind any accepted keyword and spacing', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('token', 'Token', 'TOKEN', 'Bearer', 'bearer', 'token Token', 'Bearer token'),
        fc.stringMatching(/^[ \t]{1,3}$/),
        keyChars,
        (keyword, space, key) => {
          expect(keyFromAuthorization(`${keyword}${space}${key}`)).toBe(key);
        },
      ),
    );
  });

  it('refuses every header that is not one of the accepted forms with a 401 AppError', () => {
    fc.assert(
      fc.property(fc.string(), (value) => {
        try {
          const key = keyFromAuthorization(value);
          // whatever was accepted is a single word after a known keyword, or one of our bare keys
          expect(key).not.toMatch(/\s/);
          expect(key.length).toBeGreaterThan(0);
        } catch (err) {
          expect(err).toBeInstanceOf(AppError);
          expect((err as AppError).code).toBe('unauthorized');
        }
      }),
    );
  });
});

// `tsx <script>`, as `npm run user:create` runs it, in one process with the suite's flags (tsx's CLI starts a second
// node, which does not take the first one's flags)
const TSX = [...TEST_NODE_FLAGS, '--import', 'tsx'];

describe('npm run user:create', () => {
  it('creates a user with roles in the configured database', async () => {
    // a copy of the suite's migrated database, as the crash tests' processes start on (PGlite's initdb and every
    // migration are the global set-up's, tests/support/global-setup.ts); on a PostgreSQL run, an empty folder
    const dir = await serviceDataDir('rmb-cli-', inject('pgliteTemplate') || undefined);
    try {
      const run = promisify(execFile);
      const { stdout } = await run(
        process.execPath,
        [
          ...TSX,
          'scripts/user-create.ts',
          '--username',
          'cli-user',
          '--password',
          'cli-password',
          '--email',
          'cli@example.org',
          '--member',
          'dtol,erga',
          '--manager',
          'erga',
          '--approver',
          'bge, erga_community',
        ],
        { env: { ...process.env, DATA_DIR: dir, DATABASE_URL: '' } },
      );
      expect(stdout).toContain('created user cli-user');
      const database = await openDatabase({ pgliteDir: path.join(dir, 'pglite') });
      const [u] = (await listUsers(database.db, { limit: 1000, offset: 0 })).rows;
      expect(u).toMatchObject({
        username: 'cli-user',
        email: 'cli@example.org',
        memberOf: ['dtol', 'erga'],
        managerOf: ['erga'],
        approverOf: ['BGE', 'ERGA_COMMUNITY'],
      });
      expect(stdout).toContain('approver of: BGE, ERGA_COMMUNITY');
      await database.close();
      await expect(
        run(process.execPath, [...TSX, 'scripts/user-create.ts', '--username', 'x'], { env: { ...process.env, DATA_DIR: dir } }),
      ).rejects.toThrow(/usage/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // two processes on a copy of the template: a process's start is most of it
  }, 90_000);
});
