import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '@/lib/auth/limits';
import { currentDefinition } from '@/lib/manifests';
import { validRows } from './fixtures/manifests/generate';
import { buildTaxonRecords } from './fixtures/manifests/taxa';
import { toXlsx } from './fixtures/manifests/workbook';
import { waitFor } from './support/flows';
import { freshTestDatabase } from './support/harness';
import { type RepositoryServer, startRepositoryServer } from './support/repository-server';
import { type ServiceProcess, startService } from './support/service-process';

/**
 * Two service processes on one PostgreSQL database and one storage directory, as a deployment with two instances
 * runs: 1,000 samples in ten profiles are validated, confirmed, accepted and registered while both run. Every
 * sample gets exactly one accession, both processes take jobs, and the limits on guessing count across both.
 * (The embedded database belongs to one process, so this runs on PostgreSQL only: `.ci/run`'s second pass.)
 */

const ADMIN = { username: 'pair-admin', password: 'pair-admin-password' };
const PROFILES = 10;
const PER_PROFILE = 100;

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
let server: RepositoryServer;
let instances: ServiceProcess[] = [];
let key = '';
let cleanup = async () => {};

beforeAll(async () => {
  if (!onPostgres) return;
  server = await startRepositoryServer({ taxa: buildTaxonRecords().records });
  const db = await freshTestDatabase();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'rmb-pair-'));
  const env = {
    DATA_DIR: dataDir,
    DATABASE_URL: db.url!,
    NEXTAUTH_SECRET: 'pair-secret',
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    ...server.enaSettings,
  };
  // one after the other: the first migrates and creates the admin, the second finds both done
  instances = [await startService(env)];
  instances.push(await startService(env));
  cleanup = async () => {
    await Promise.all(instances.map((i) => i.stop().catch(() => undefined)));
    await db.drop();
    rmSync(dataDir, { recursive: true, force: true });
    await server.close();
  };
  const res = await fetch(`${instances[0]!.url}/api/apiKey`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  key = ((await res.json()) as { token: string }).token;
}, 180_000);
afterAll(() => cleanup());

/** Alternates between the two instances, as a load balancer would. */
let turn = 0;
const api = async <T>(p: string, init: RequestInit = {}): Promise<{ status: number; body: T }> => {
  const base = instances[turn++ % instances.length]!.url;
  const headers = new Headers(init.headers);
  headers.set('authorization', `token ${key}`);
  const res = await fetch(base + p, { ...init, headers });
  return { status: res.status, body: (await res.json().catch(() => null)) as T };
};
const json = { 'content-type': 'application/json' };

describe.skipIf(!onPostgres)('two instances on one database', () => {
  it('register 1,000 samples together: one accession each, jobs taken by both', async () => {
    const dtol = currentDefinition('dtol');
    const headers = dtol.fields.map((f) => f.name);
    const all = validRows(dtol, PROFILES * PER_PROFILE);
    const reports: string[] = [];
    for (let p = 0; p < PROFILES; p++) {
      const profile = await api<{ id: string }>('/api/profiles', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ title: `Pair ${p}`, description: '', type: 'dtol' }),
      });
      expect(profile.status).toBe(201);
      const fd = new FormData();
      fd.set('profile_id', profile.body.id);
      fd.set(
        'file',
        new File(
          [new Uint8Array(await toXlsx(headers, all.slice(p * PER_PROFILE, (p + 1) * PER_PROFILE), { typed: true }))],
          `pair-${p}.xlsx`,
        ),
      );
      const res = await api<{ report_id: string }>('/api/manifest/validate', { method: 'POST', body: fd });
      expect(res.status).toBe(202);
      reports.push(res.body.report_id);
    }
    for (const id of reports) {
      const report = await waitFor(
        async () => (await api<{ status: string; summary: { errors: number } }>(`/api/manifest/validate/report/${id}/status`)).body,
        (r) => r.status === 'complete' || r.status === 'failed',
        'a validation',
        1200,
      );
      expect(report).toMatchObject({ status: 'complete', summary: { errors: 0 } });
      expect(
        (await api(`/api/manifest/validate/confirm`, { method: 'POST', headers: json, body: JSON.stringify({ validation_report_id: id }) }))
          .status,
      ).toBe(200);
    }
    const pending = await api<{ number_found: number; data: { svc_id: string }[] }>('/api/sample/pending?limit=1000');
    expect(pending.body.number_found).toBe(PROFILES * PER_PROFILE);
    const ids = pending.body.data.map((s) => s.svc_id);
    for (let i = 0; i < ids.length; i += PER_PROFILE) {
      const decided = await api('/api/sample/decision', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ svc_ids: ids.slice(i, i + PER_PROFILE), decision: 'accept' }),
      });
      expect(decided.status).toBe(200);
    }

    type Page = { number_found: number; data: { svc_id: string; biosampleAccession: string }[] };
    const accepted = (offset: number) => api<Page>(`/api/samples/browse?project=dtol&status=accepted&limit=500&offset=${offset}`);
    await waitFor(
      () => accepted(0),
      (r) => r.body.number_found === ids.length,
      'every sample to be registered',
      1800,
    );
    const accessions = [...(await accepted(0)).body.data, ...(await accepted(500)).body.data].map((s) => s.biosampleAccession);
    expect(accessions.every((a) => /^SAMEA/.test(a))).toBe(true);
    expect(new Set(accessions).size).toBe(ids.length);
    // at ENA, each sample was added once
    const added = server.ena.submissions
      .filter((s) => s.success && s.actions.includes('ADD'))
      .flatMap((s) => s.objects.map((o) => o.alias));
    for (const id of ids) expect(added.filter((a) => a === id)).toHaveLength(1);
    // both processes ran jobs
    for (const instance of instances) {
      const ran = instance.lines.filter((l) => l.includes('"msg":"job done"') && /"job":"(manifest\.validate|samples\.register)"/.test(l));
      expect(ran.length, `jobs run by ${instance.url}`).toBeGreaterThan(0);
    }
  }, 900_000);

  it('counts failed sign-ins across both: the account locks after 10, whichever instance saw them', async () => {
    const user = { username: 'pair-user', password: 'pair-user-password-1' };
    expect((await api('/api/admin/users', { method: 'POST', headers: json, body: JSON.stringify(user) })).status).toBe(201);
    const signIn = (instance: ServiceProcess, password: string) =>
      fetch(`${instance.url}/api/apiKey`, { method: 'POST', headers: json, body: JSON.stringify({ username: user.username, password }) });
    for (let i = 0; i < LIMITS.accountFailures.points; i++) expect((await signIn(instances[i % 2]!, 'wrong')).status).toBe(401);
    for (const instance of instances) expect((await signIn(instance, user.password)).status).toBe(429);
  });
});
