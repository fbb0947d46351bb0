/**
 * The service's memory under the two loads of issue 27 (item 5), on the embedded database (PGlite) and, when one
 * answers, on PostgreSQL: the RSS of the service process (`/proc/<pid>/status` VmRSS), sampled every 100 ms.
 *
 *   1. a workbook of 10 filled rows above 1,000,000 formatted empty rows, uploaded through the API and validated to
 *      its report (goal: under +256 MB at peak);
 *   2. 50 connections for BENCH_MEMORY_SECONDS (default 60) on eleven public reads (goal: within +100 MB);
 *
 * each followed by 30 s idle, to see the memory given back. The service is the built one (`node
 * <scripts/node-flags.mjs> api-server.mjs`, bundled here into .next/bench-memory so as not to race other builds),
 * with the repositories' local stand-in.
 *
 *   BENCH_MEMORY_PG      a PostgreSQL server (default postgres://postgres@127.0.0.1:5432/postgres); the bench creates
 *                        a database on it for the run and drops it after; "skip" for PGlite only
 *   BENCH_MEMORY_PGLITE  "skip" for PostgreSQL only
 *   BENCH_MEMORY_LOADS   which loads: "upload,reads" (default), "upload" or "reads"
 *   BENCH_MEMORY_SECONDS length of the read mix (default 60)
 *   BENCH_MEMORY_NODE_FLAGS the service's V8 flags instead of scripts/node-flags.mjs's (space-separated), to try others
 *   BENCH_MEMORY_IDLE    seconds of idle after each load (default 30)
 *
 * `npm run bench` runs it; alone: `npx tsx bench/memory.ts`. No assertion: it is a benchmark, run on a quiet machine.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import postgres from 'postgres';
import { currentDefinition } from '../lib/manifests';
import { SERVICE_ENV, SERVICE_ENV_TEXT, SERVICE_NODE_FLAGS } from '../scripts/node-flags.mjs';
import { filledAboveEmptyRowsXlsx } from '../tests/fixtures/hostile-xlsx';
import { validRows } from '../tests/fixtures/manifests/generate';
import { buildTaxonRecords } from '../tests/fixtures/manifests/taxa';
import { toXlsx } from '../tests/fixtures/manifests/workbook';
import { startRepositoryServer } from '../tests/support/repository-server';
import { type Proc, rssOf, standInUrls, startProcess } from './processes';

const root = path.resolve(import.meta.dirname, '..');
const PG_SERVER = process.env.BENCH_MEMORY_PG ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const READ_SECONDS = Number(process.env.BENCH_MEMORY_SECONDS ?? 60);
const LOADS = new Set((process.env.BENCH_MEMORY_LOADS ?? 'upload,reads').split(',').map((l) => l.trim()));
const PGLITE = process.env.BENCH_MEMORY_PGLITE !== 'skip';
const NODE_FLAGS = process.env.BENCH_MEMORY_NODE_FLAGS?.split(/\s+/).filter(Boolean) ?? SERVICE_NODE_FLAGS;
const IDLE_SECONDS = Number(process.env.BENCH_MEMORY_IDLE ?? 30);
const CONNECTIONS = 50;
const EMPTY_ROWS = 1_000_000;
const FILLED_ROWS = 10;
/** samples confirmed before the loads, for the reads to find */
const SEED_ROWS = 500;
const UPLOAD_GOAL_MB = 256;
const READS_GOAL_MB = 100;
const ADMIN = { username: 'bench-memory-admin', password: 'bench-memory-admin-password' };
const MiB = 1024 * 1024;

const progress = (line: string) => console.error(`  … ${line}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (bytes: number) => `${(bytes / MiB).toFixed(0)} MB`;
const signedMb = (bytes: number) => `${bytes >= 0 ? '+' : '−'}${mb(Math.abs(bytes))}`;

/** The process's RSS every 100 ms while sampling runs. */
function sampler(pid: number) {
  let peak = rssOf(pid);
  let last = peak;
  const timer = setInterval(() => {
    last = rssOf(pid);
    peak = Math.max(peak, last);
  }, 100);
  return {
    get peak() {
      return peak;
    },
    get last() {
      return last;
    },
    stop() {
      clearInterval(timer);
      last = rssOf(pid);
      return Math.max(peak, last);
    },
  };
}

/** The service as the deployment runs it: built by scripts/build-server.mjs (as `npm run build` does). */
function buildService(): string {
  execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  return '.next/api-server.mjs';
}

const startService = (entry: string, env: Record<string, string>) =>
  startProcess([...NODE_FLAGS, entry], { ...SERVICE_ENV, NODE_ENV: 'production', LOG_LEVEL: 'warn', ...env }, '/api/health');

/** A database of its own on the PostgreSQL server, or null when none answers. */
async function postgresDatabase(): Promise<{ url: string; drop(): Promise<void> } | null> {
  if (PG_SERVER === 'skip') return null;
  const name = `rmb_bench_memory_${Date.now()}`;
  const admin = postgres(PG_SERVER, { max: 1, onnotice: () => {}, connect_timeout: 3 });
  try {
    await admin.unsafe(`create database ${name}`);
  } catch (err) {
    progress(`no PostgreSQL at ${PG_SERVER} (${err instanceof Error ? err.message : String(err)}): PGlite only`);
    return null;
  } finally {
    await admin.end();
  }
  const u = new URL(PG_SERVER);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      const a = postgres(PG_SERVER, { max: 1, onnotice: () => {} });
      await a.unsafe(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}

const METRICS_TOKEN = 'bench-memory-metrics-token';

/**
 * Where the memory is, from the service's own GET /api/metrics (prom-client's defaults) every second while a load
 * runs: the largest figure seen of each V8 heap space's use and of the memory outside the heap (buffers).
 */
function heapSampler(base: string) {
  const peak = new Map<string, number>();
  const keep = (name: string, value: number) => peak.set(name, Math.max(peak.get(name) ?? 0, value));
  const timer = setInterval(async () => {
    try {
      const res = await fetch(`${base}/api/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      for (const line of (await res.text()).split('\n')) {
        const space = /^nodejs_heap_space_size_used_bytes\{space="(\w+)"\} (\S+)$/.exec(line);
        if (space) keep(space[1] as string, Number(space[2]));
        const external = /^nodejs_external_memory_bytes (\S+)$/.exec(line);
        if (external) keep('external', Number(external[1]));
      }
    } catch {
      // a scrape lost under load is a second without figures, not a failed benchmark
    }
  }, 1000);
  return {
    stop(): string {
      clearInterval(timer);
      const parts = ['new', 'old', 'large_object', 'code', 'external'].filter((n) => peak.has(n));
      return `largest seen: ${parts.map((n) => `${n} ${mb(peak.get(n) ?? 0)}`).join(', ')}`;
    },
  };
}

type ReportStatus = { status: string; summary: { rows: number; errors: number; warnings: number }; failure: string | null };

function client(base: string, key: string) {
  return async <T>(p: string, init: RequestInit = {}): Promise<T> => {
    const headers = new Headers(init.headers);
    headers.set('authorization', `token ${key}`);
    const res = await fetch(base + p, { ...init, headers });
    if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${p}: ${res.status} ${(await res.text()).slice(0, 500)}`);
    return (await res.json()) as T;
  };
}

async function signIn(base: string): Promise<string> {
  const res = await fetch(`${base}/api/apiKey`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  if (!res.ok) throw new Error(`POST /api/apiKey: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

async function upload(api: ReturnType<typeof client>, profileId: string, file: Buffer, name: string): Promise<string> {
  const fd = new FormData();
  fd.set('profile_id', profileId);
  fd.set('file', new File([new Uint8Array(file)], name));
  return (await api<{ report_id: string }>('/api/manifest/validate', { method: 'POST', body: fd })).report_id;
}

async function waitForReport(api: ReturnType<typeof client>, reportId: string): Promise<ReportStatus> {
  for (const started = performance.now(); ; ) {
    const status = await api<ReportStatus>(`/api/manifest/validate/report/${reportId}/status`);
    if (status.status === 'complete' || status.status === 'failed') return status;
    if (performance.now() - started > 30 * 60_000) throw new Error('the validation did not finish within 30 minutes');
    await sleep(100);
  }
}

/** Samples to read: SEED_ROWS rows validated and confirmed. */
async function seed(api: ReturnType<typeof client>) {
  const profile = await api<{ id: string }>('/api/profiles', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'bench:memory', description: 'bench/memory.ts', type: 'dtol' }),
  });
  const dtol = currentDefinition('dtol');
  const headers = dtol.fields.map((f) => f.name);
  const rows = validRows(dtol, SEED_ROWS + FILLED_ROWS);
  const reportId = await upload(api, profile.id, await toXlsx(headers, rows.slice(0, SEED_ROWS), { typed: true }), 'seed.xlsx');
  const status = await waitForReport(api, reportId);
  if (status.status !== 'complete' || status.summary.errors)
    throw new Error(`the seed manifest did not validate: ${JSON.stringify(status)}`);
  const { manifest_id } = await api<{ manifest_id: string }>('/api/manifest/validate/confirm', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ validation_report_id: reportId }),
  });
  const pending = await api<{ data: { svc_id: string }[] }>('/api/sample/pending?limit=100');
  return {
    profileId: profile.id,
    manifestId: manifest_id,
    svcIds: pending.data.map((x) => x.svc_id),
    taxonId: rows[0]?.TAXON_ID ?? '',
    headers,
    filled: rows.slice(SEED_ROWS),
  };
}

/** Eleven reads anyone may make, from a point look-up to every sample as JSON and CSV. */
function publicReads(s: Awaited<ReturnType<typeof seed>>): string[] {
  const ids = s.svcIds;
  const all = '1970-01-01T00:00:00+00:00/2100-01-01T00:00:00+00:00';
  return [
    '/api/health',
    '/api/manifest/current_version',
    `/api/sample/svc_id/${ids[0]}`,
    `/api/sample/svc_id/${ids.slice(0, 20).join(',')}`,
    `/api/sample/taxon_id/${s.taxonId}`,
    `/api/sample/${all}`,
    `/api/sample/${all}?return_type=csv`,
    '/api/sample/dtol',
    `/api/manifest/${s.manifestId}`,
    '/api/stats/summary',
    '/api/stats/dashboard',
  ];
}

interface Figures {
  baseline: number;
  peak: number;
  end: number;
  idle: number;
  note: string;
}

async function idleAfter(pid: number, s: ReturnType<typeof sampler>): Promise<number> {
  await sleep(IDLE_SECONDS * 1000);
  s.stop();
  return rssOf(pid);
}

async function measureUpload(svc: Proc, api: ReturnType<typeof client>, s: Awaited<ReturnType<typeof seed>>): Promise<Figures> {
  const file = await filledAboveEmptyRowsXlsx(s.headers, s.filled, { emptyRows: EMPTY_ROWS });
  const baseline = rssOf(svc.pid);
  const rss = sampler(svc.pid);
  const started = performance.now();
  const reportId = await upload(api, s.profileId, file, 'empty-rows.xlsx');
  const status = await waitForReport(api, reportId);
  const ms = performance.now() - started;
  const end = rssOf(svc.pid);
  const idle = await idleAfter(svc.pid, rss);
  const outcome =
    status.status === 'complete'
      ? `report ${status.summary.rows} rows, ${status.summary.errors} errors, ${status.summary.warnings} warnings`
      : `report failed: ${status.failure}`;
  return { baseline, peak: rss.peak, end, idle, note: `${mb(file.length)} xlsx; ${outcome}, in ${(ms / 1000).toFixed(1)} s` };
}

async function measureReads(svc: Proc, paths: string[]): Promise<Figures> {
  // one short round first, so that what the reads load once (code, plans, caches) is in the baseline
  await run({ url: svc.url, connections: 5, duration: 3, requests: paths.map((p) => ({ method: 'GET', path: p })) });
  await sleep(5000);
  const baseline = rssOf(svc.pid);
  const rss = sampler(svc.pid);
  const heap = heapSampler(svc.url);
  const result = await run({
    url: svc.url,
    connections: CONNECTIONS,
    duration: READ_SECONDS,
    requests: paths.map((p) => ({ method: 'GET', path: p })),
  });
  const end = rssOf(svc.pid);
  const spaces = heap.stop();
  const idle = await idleAfter(svc.pid, rss);
  const note =
    `${spaces}; ${result.requests.total} requests (${result.requests.average.toFixed(0)}/s), ${result.non2xx} non-2xx, ` +
    `${result.errors + result.timeouts} errors, p99 ${result.latency.p99} ms, ${mb(result.throughput.total)} served`;
  return { baseline, peak: rss.peak, end, idle, note };
}

const run = (opts: autocannon.Options) =>
  new Promise<autocannon.Result>((resolve, reject) => {
    autocannon(opts, (err, result) => (err ? reject(err) : resolve(result)));
  });

async function measure(entry: string, engine: string, env: Record<string, string>, repositories: Record<string, string>) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'rmb-bench-memory-'));
  const svc = await startService(entry, {
    DATA_DIR: dataDir,
    NEXTAUTH_SECRET: 'bench-memory-secret',
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    METRICS_TOKEN,
    ...repositories,
    ...env,
  });
  try {
    const api = client(svc.url, await signIn(svc.url));
    progress(`${engine}: seeding ${SEED_ROWS} samples`);
    const seeded = await seed(api);
    await sleep(5000);
    let uploadFigures: Figures | undefined;
    let readFigures: Figures | undefined;
    if (LOADS.has('upload')) {
      progress(`${engine}: uploading ${FILLED_ROWS} filled rows above ${EMPTY_ROWS.toLocaleString('en')} empty ones`);
      uploadFigures = await measureUpload(svc, api, seeded);
    }
    if (LOADS.has('reads')) {
      progress(`${engine}: ${CONNECTIONS} connections × ${READ_SECONDS} s of public reads`);
      readFigures = await measureReads(svc, publicReads(seeded));
    }
    const problems = svc.lines.filter((l) => /"level":(50|60)/.test(l));
    return { engine, upload: uploadFigures, reads: readFigures, problems };
  } finally {
    await svc.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const row = (what: string, f: Figures, goalMb: number) => {
  const delta = f.peak - f.baseline;
  const verdict = delta < goalMb * MiB ? 'within' : 'OVER';
  return `| ${what} | ${mb(f.baseline)} | ${mb(f.peak)} | **${signedMb(delta)}** (goal +${goalMb} MB: ${verdict}) | ${signedMb(f.end - f.baseline)} | ${signedMb(f.idle - f.baseline)} | ${f.note} |`;
};

export async function benchMemory(): Promise<string> {
  progress('building the service (scripts/build-server.mjs)');
  const entry = buildService();
  const repositories = await startRepositoryServer({ taxa: buildTaxonRecords().records });
  const urls = standInUrls(repositories);
  const results = [];
  try {
    if (PGLITE) results.push(await measure(entry, 'PGlite', {}, urls));
    const pg = await postgresDatabase();
    if (pg) {
      try {
        results.push(await measure(entry, 'PostgreSQL', { DATABASE_URL: pg.url }, urls));
      } finally {
        await pg.drop();
      }
    }
  } finally {
    await repositories.close();
  }
  const lines = [
    `memory (issue 27): RSS of the service process (${SERVICE_ENV_TEXT} node ${NODE_FLAGS.join(' ')}), sampled every 100 ms; "idle" is ${IDLE_SECONDS} s after the load`,
    '',
    '| database · load | baseline | peak | peak − baseline | at the end | after idle | what happened |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const r of results) {
    if (r.upload)
      lines.push(
        row(
          `${r.engine} · ${FILLED_ROWS} filled + ${EMPTY_ROWS.toLocaleString('en')} empty rows, upload → report`,
          r.upload,
          UPLOAD_GOAL_MB,
        ),
      );
    if (r.reads) lines.push(row(`${r.engine} · ${CONNECTIONS} connections × ${READ_SECONDS} s, 11 public reads`, r.reads, READS_GOAL_MB));
  }
  if (!results.some((r) => r.engine === 'PostgreSQL'))
    lines.push('', `PostgreSQL: not measured (none at ${PG_SERVER}; set BENCH_MEMORY_PG)`);
  for (const r of results) {
    if (r.problems.length)
      lines.push('', `${r.engine} service log: ${r.problems.length} error lines; last: ${r.problems.at(-1)?.slice(0, 300)}`);
  }
  return lines.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(await benchMemory());
}
