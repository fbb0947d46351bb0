/**
 * `npm run bench:load`: the service as a process on PostgreSQL under 50 connections for 60 s of reads and uploads,
 * then PostgreSQL restarted under load. Prints throughput, latencies, errors, the process's memory before and after,
 * and how long after the restart the service answered normally again.
 *
 *   LOAD_DATABASE_URL  a PostgreSQL server to create the run's database on (default postgres://postgres@127.0.0.1:5432/test)
 *   LOAD_SECONDS       length of the load phase (default 60)
 *   LOAD_RESTART       "skip" to leave PostgreSQL alone (the restart needs pg_ctlcluster and the right to use it)
 *   LOAD_LOG_LEVEL     "info" to list the requests that took over 3 s while PostgreSQL restarted
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import postgres from 'postgres';
import { currentDefinition } from '../lib/manifests';
import { validRows } from '../tests/fixtures/manifests/generate';
import { buildTaxonRecords } from '../tests/fixtures/manifests/taxa';
import { toXlsx } from '../tests/fixtures/manifests/workbook';
import { startRepositoryServer } from '../tests/support/repository-server';
import { type ServiceProcess, startService } from '../tests/support/service-process';

const SERVER_URL = process.env.LOAD_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const CONNECTIONS = 50;
const MiB = 1024 * 1024;

const rssOf = (pid: number) => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0) * 1024;
};
const mb = (bytes: number) => `${(bytes / MiB).toFixed(0)} MB`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function freshDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `rmb_load_${Date.now()}`;
  const admin = postgres(SERVER_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const u = new URL(SERVER_URL);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      const a = postgres(SERVER_URL, { max: 1, onnotice: () => {} });
      await a.unsafe(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}

interface Fixture {
  key: string;
  svcIds: string[];
  manifestId: string;
  manifestProfile: string;
  manifestBytes: Buffer;
  uploadPath: string;
}

async function prepare(svc: ServiceProcess): Promise<Fixture> {
  const admin = { username: 'load-admin', password: 'load-admin-password' };
  const key = (
    (await (
      await fetch(`${svc.url}/api/apiKey`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(admin) })
    ).json()) as { token: string }
  ).token;
  const api = async <T>(p: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set('authorization', `token ${key}`);
    const res = await fetch(svc.url + p, { ...init, headers });
    if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${p}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  const json = { 'content-type': 'application/json' };
  const profile = await api<{ id: string }>('/api/profiles', {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ title: 'Load', description: '', type: 'dtol' }),
  });
  const dtol = currentDefinition('dtol');
  const headers = dtol.fields.map((f) => f.name);
  const rows = validRows(dtol, 60);
  const fd = new FormData();
  fd.set('profile_id', profile.id);
  fd.set('file', new File([new Uint8Array(await toXlsx(headers, rows.slice(0, 50), { typed: true }))], 'load.xlsx'));
  const { report_id } = await api<{ report_id: string }>('/api/manifest/validate', { method: 'POST', body: fd });
  for (let i = 0; ; i++) {
    const r = await api<{ status: string }>(`/api/manifest/validate/report/${report_id}/status`);
    if (r.status === 'complete') break;
    if (r.status === 'failed' || i > 600) throw new Error('the seed manifest did not validate');
    await sleep(100);
  }
  const confirmed = await api<{ manifest_id: string }>('/api/manifest/validate/confirm', {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ validation_report_id: report_id }),
  });
  const pending = await api<{ data: { svc_id: string }[] }>('/api/sample/pending?limit=100');
  const files = await api<{ id: string }>('/api/profiles', {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ title: 'Load files', description: '', type: 'biodata' }),
  });
  const [url] = await api<{ url: string }[]>(`/api/profiles/${files.id}/files/presignedurls`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ file_names: ['load.bin'] }),
  });
  const upload = new URL(url!.url);
  return {
    key,
    svcIds: pending.data.map((s) => s.svc_id),
    manifestId: confirmed.manifest_id,
    manifestProfile: profile.id,
    // uploads of a manifest (validated by the job queue, which the load shares) use rows not yet stored
    manifestBytes: await toXlsx(headers, rows.slice(50, 53), { typed: true }),
    uploadPath: upload.pathname + upload.search,
  };
}

function multipart(profileId: string, file: Buffer): { body: Buffer; type: string } {
  const boundary = `rmbload${Date.now()}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="profile_id"\r\n\r\n${profileId}\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="load.xlsx"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  return {
    body: Buffer.concat([Buffer.from(head), file, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    type: `multipart/form-data; boundary=${boundary}`,
  };
}

function requestsOf(f: Fixture): autocannon.Request[] {
  const auth = { authorization: `token ${f.key}` };
  const form = multipart(f.manifestProfile, f.manifestBytes);
  const read = (p: string): autocannon.Request => ({ method: 'GET', path: p, headers: auth });
  const reads: autocannon.Request[] = [
    read(`/api/sample/svc_id/${f.svcIds.slice(0, 5).join(',')}`),
    read(`/api/manifest/${f.manifestId}`),
    read('/api/samples/browse?project=dtol&limit=25'),
    read(`/api/sample/svc_id/${f.svcIds[7]}`),
    read('/api/profiles?limit=20'),
    read('/api/manifest/validations?limit=20'),
    read('/api/health'),
  ];
  // about one request in ten uploads: a data file of 64 kB, or a manifest whose validation the job queue takes
  return [
    ...reads,
    { method: 'PUT', path: f.uploadPath, headers: { 'content-type': 'application/octet-stream' }, body: Buffer.alloc(64 * 1024, 7) },
    ...reads,
    { method: 'POST', path: '/api/manifest/validate', headers: { ...auth, 'content-type': form.type }, body: form.body },
  ];
}

const run = (opts: autocannon.Options) =>
  new Promise<autocannon.Result>((resolve, reject) => {
    autocannon(opts, (err, result) => (err ? reject(err) : resolve(result)));
  });

async function restartPostgres(svc: ServiceProcess, f: Fixture): Promise<string> {
  const version = readdirSync('/etc/postgresql')[0];
  if (!version) return 'skipped: no /etc/postgresql';
  const load = run({ url: svc.url, connections: CONNECTIONS, duration: 25, requests: requestsOf(f).filter((r) => r.method === 'GET') });
  await sleep(5000);
  const probes: { at: number; status: number; ms: number }[] = [];
  let probing = true;
  const probe = (async () => {
    while (probing) {
      const started = performance.now();
      const status = await fetch(`${svc.url}/api/health`, { signal: AbortSignal.timeout(10_000) }).then(
        (r) => r.status,
        () => 0,
      );
      probes.push({ at: Date.now(), status, ms: performance.now() - started });
      await sleep(100);
    }
  })();
  const restartStarted = Date.now();
  execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'restart'], { stdio: 'ignore' });
  const restartEnded = Date.now();
  const result = await load;
  probing = false;
  await probe;
  const back = probes.find((p) => p.at > restartEnded && p.status === 200);
  const during = probes.filter((p) => p.at >= restartStarted && (!back || p.at <= back.at));
  const codes = new Map<number, number>();
  for (const p of during) codes.set(p.status, (codes.get(p.status) ?? 0) + 1);
  const slowest = Math.max(...probes.map((p) => p.ms));
  if (process.env.LOAD_LOG_LEVEL === 'info') {
    const slow = svc.lines.filter((l) => /"msg":"request"/.test(l) && Number(/"duration_ms":([\d.]+)/.exec(l)?.[1] ?? 0) > 3000);
    console.log(`requests slower than 3 s:\n${slow.map((l) => l.slice(0, 300)).join('\n')}`);
  }
  if (!back)
    console.log(
      `the service's last lines:\n${svc.lines
        .filter((l) => !/^\s+\w+: undefined,$/.test(l))
        .slice(-60)
        .join('\n')}`,
    );
  return [
    `PostgreSQL restart took ${((restartEnded - restartStarted) / 1000).toFixed(1)} s (pg_ctlcluster restart)`,
    `service answered /api/health 200 again ${back ? `${((back.at - restartEnded) / 1000).toFixed(1)} s` : 'NEVER'} after PostgreSQL was back (target: within 5 s, no restart of the service)`,
    `health answers during the outage: ${[...codes].map(([s, n]) => `${n} × ${s || 'no answer'}`).join(', ') || 'none'}; slowest health answer ${slowest.toFixed(0)} ms`,
    `load during the restart: ${result.requests.total} requests, ${result['2xx']} 2xx, ${result.non2xx} non-2xx (503 while the database restarts), ${result.errors} connection errors, ${result.timeouts} timeouts, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`,
  ].join('\n');
}

async function main() {
  const repositories = await startRepositoryServer({ taxa: buildTaxonRecords().records });
  const db = await freshDatabase();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'rmb-load-'));
  const svc = await startService({
    DATA_DIR: dataDir,
    DATABASE_URL: db.url,
    NEXTAUTH_SECRET: 'load-secret',
    ADMIN_USERNAME: 'load-admin',
    ADMIN_PASSWORD: 'load-admin-password',
    ENA_TAXONOMY_URL: repositories.taxonomyUrl,
    LOG_LEVEL: process.env.LOAD_LOG_LEVEL ?? 'warn',
  });
  try {
    const fixture = await prepare(svc);
    await run({ url: svc.url, connections: 10, duration: 5, requests: requestsOf(fixture) });
    const before = rssOf(svc.pid);
    const result = await run({ url: svc.url, connections: CONNECTIONS, duration: SECONDS, requests: requestsOf(fixture) });
    const after = rssOf(svc.pid);
    await sleep(10_000);
    const settled = rssOf(svc.pid);
    console.log(
      [
        `# bench:load — ${CONNECTIONS} connections for ${SECONDS} s on PostgreSQL (reads, 64 kB file uploads, manifest uploads)`,
        `requests: ${result.requests.total} (${result.requests.average.toFixed(0)}/s), 2xx ${result['2xx']}, non-2xx ${result.non2xx}, connection errors ${result.errors}, timeouts ${result.timeouts}`,
        `latency: p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms; throughput ${mb(result.throughput.average)}/s`,
        `memory (RSS of the service): ${mb(before)} before, ${mb(after)} at the end (${after >= before ? '+' : ''}${mb(after - before)}), ${mb(settled)} 10 s later (target: within 100 MB of the start)`,
      ].join('\n'),
    );
    console.log(
      process.env.LOAD_RESTART === 'skip' ? 'PostgreSQL restart: skipped (LOAD_RESTART=skip)' : await restartPostgres(svc, fixture),
    );
  } finally {
    await svc.stop().catch(() => undefined);
    await db.drop().catch(() => undefined);
    await repositories.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
