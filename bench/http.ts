/**
 * `npm run bench:http`: the built service (`node .next/api-server.mjs`) as a separate process on PostgreSQL holding
 * SAMPLES samples, each endpoint over HTTP next to the single natural SQL statement a person would write for the same
 * rows, all measured in one run (issue 17):
 *
 *   1. point look-ups and lists: `/api/health`, the endpoint and the SQL interleaved in one window, RUNS rounds, medians;
 *   2. throughput: autocannon, 50 connections, on `sample/svc_id/{id}`, on `/api/health` and on a bare `node:http`
 *      server answering the same record through postgres-js;
 *   3. exports: the CSV and JSON of every sample next to PostgreSQL's own `COPY`, the service's RSS while they stream,
 *      and whether a client that disconnects stops the query;
 *   4. validation end to end: a 10,000-row DTOL manifest uploaded, validated and confirmed, next to exceljs reading it.
 *
 *   BENCH_DATABASE_URL  a PostgreSQL server (default postgres://postgres@127.0.0.1:5432/test); the bench creates its
 *                       database `rmb_bench_http` on it and keeps it for the next run
 *   SAMPLES             samples to seed (default 1,000,000); the database is reused when it holds exactly these
 *   RUNS                rounds per request of the latency table (default 20, after 2 warm-up rounds)
 *   BENCH_SECONDS       length of each autocannon run (default 10)
 *   BENCH_DB_NAME       the database's name (default rmb_bench_http), to keep a smaller one beside it
 *   BENCH_CPU_PROF      a directory: the service is profiled (`node --cpu-prof`) and its .cpuprofile written there
 *
 * The validation's profile, manifest and samples are removed afterwards (and the tables vacuumed), so the database
 * keeps exactly SAMPLES samples; when those runs have grown its indexes by a fifth, the next run rebuilds them. The
 * bare server is this file run again with `--bare-server`. No assertion on time: it is a benchmark. Run it on a quiet
 * machine.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import ExcelJS from 'exceljs';
import postgres from 'postgres';
import { openDatabase } from '../db/client';
import { TOL_PROJECTS } from '../db/schema';
import { currentDefinition } from '../lib/manifests';
import { createUser } from '../lib/users/users';
import { SERVICE_NODE_FLAGS } from '../scripts/node-flags.mjs';
import { validRows } from '../tests/fixtures/manifests/generate';
import { buildTaxonRecords } from '../tests/fixtures/manifests/taxa';
import { toXlsx } from '../tests/fixtures/manifests/workbook';
import { startRepositoryServer } from '../tests/support/repository-server';
import { killProcesses, rssOf, startProcess } from './processes';
import { type Exec, seedBulkSamples } from './query-seed';

const root = path.resolve(import.meta.dirname, '..');
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SAMPLES = Number(process.env.SAMPLES ?? 1_000_000);
const RUNS = Number(process.env.RUNS ?? 20);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;
const DB_NAME = process.env.BENCH_DB_NAME ?? 'rmb_bench_http';
/** a directory: the service runs with `--cpu-prof` and writes its profile there when it stops */
const CPU_PROF = process.env.BENCH_CPU_PROF;
/** application_name of the bench's own connections, to tell them from the service's in pg_stat_activity */
const APP_NAME = 'rmb-bench-http';
const ADMIN = { username: 'bench-http-admin', password: 'bench-http-admin-password' };
const VALIDATION_PROFILE = 'bench:http validation';
const VALIDATION_ROWS = 10_000;
/** every sample: the public list endpoint with a date range wider than the seeded data */
const ALL_FROM = '1970-01-01T00:00:00+00:00';
const ALL_TO = '2100-01-01T00:00:00+00:00';
const MiB = 1024 * 1024;

const out = (line = '') => console.log(line);
const progress = (line: string) => console.error(`  … ${line}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};
const ms = (x: number) => x.toFixed(1);
const secs = (x: number) => `${(x / 1000).toFixed(1)} s`;
const int = (x: number) => Math.round(x).toLocaleString('en');
const mbOf = (bytes: number) => `${(bytes / MiB).toFixed(0)} MB`;
const withDatabase = (server: string, name: string) => {
  const u = new URL(server);
  u.pathname = `/${name}`;
  return u.toString();
};
const redact = (url: string) => {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
};
const pg = (url: string, max = 1) => postgres(url, { max, onnotice: () => {}, connection: { application_name: APP_NAME } });

// ---------------------------------------------------------------------------------------------------------------
// The process under test

/** user + system CPU time of a process, in seconds */
const cpuOf = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

// ---------------------------------------------------------------------------------------------------------------
// A keep-alive HTTP client: one socket, reused, so connection setup is not measured

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function request(
  base: string,
  p: string,
  opts: { onChunk?: (chunk: Buffer) => void; signal?: AbortSignal; keep?: boolean } = {},
): Promise<{ status: number; body: Buffer; bytes: number }> {
  const u = new URL(p, base);
  return new Promise((resolve, reject) => {
    const req = http.get(
      { host: u.hostname, port: u.port, path: u.pathname + u.search, agent: opts.signal ? undefined : agent, signal: opts.signal },
      (res) => {
        const chunks: Buffer[] = [];
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (opts.onChunk) opts.onChunk(chunk);
          if (opts.keep !== false) chunks.push(chunk);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), bytes }));
        res.on('error', reject);
        // cut short (an abort, a reset): settles the promise whatever Node emitted before
        res.on('close', () => {
          if (!res.complete) reject(new Error(`${p}: the response was cut short`));
        });
      },
    );
    req.on('error', reject);
    opts.signal?.addEventListener('abort', () => reject(new Error(`${p}: aborted`)), { once: true });
  });
}

/** Rows of a list answer: `{number_found, data}`, its one-element-array form, or a bare array. */
function rowsOf(body: Buffer): number {
  const parsed = JSON.parse(body.toString('utf8')) as unknown;
  const inner = Array.isArray(parsed) && parsed.length === 1 && (parsed[0] as { data?: unknown })?.data ? parsed[0] : parsed;
  if (Array.isArray(inner)) return inner.length;
  const data = (inner as { data?: unknown }).data;
  if (Array.isArray(data)) return data.length;
  throw new Error(`not a list answer: ${body.toString('utf8').slice(0, 200)}`);
}

const countNewlines = (chunk: Buffer) => {
  let n = 0;
  for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) n++;
  return n;
};

// ---------------------------------------------------------------------------------------------------------------
// 1. The database: reused when it holds the right samples, else created, migrated and seeded

interface Probe {
  svcId: string;
  biosampleAccession: string;
  taxonId: string;
  manifestId: string;
  scientificName: string;
}

interface Prepared {
  url: string;
  reused: boolean;
  seededAt: string;
  seedMs: number;
  indexMs: number;
  vacuumMs: number;
  /** what was done to a reused database before this run */
  note: string;
}

/** Rows a previous (interrupted) validation run left behind: everything of the validation profile. */
async function removeValidationRows(sql: postgres.Sql): Promise<number> {
  const owned = sql`select id from profiles where title = ${VALIDATION_PROFILE}`;
  return sql.begin(async (tx) => {
    await tx`delete from sample_updates where sample_id in (select id from samples where profile_id in (${owned}))`;
    const removed = await tx`delete from samples where profile_id in (${owned})`;
    await tx`delete from specimens where profile_id in (${owned})`;
    await tx`delete from manifests where profile_id in (${owned})`;
    await tx`delete from profiles where id in (${owned})`;
    return removed.count;
  });
}

async function prepareDatabase(): Promise<Prepared> {
  const url = withDatabase(SERVER_URL, DB_NAME);
  const admin = pg(SERVER_URL);
  try {
    const [exists] = await admin`select 1 as one from pg_database where datname = ${DB_NAME}`;
    if (exists) {
      const sql = pg(url);
      try {
        const [marker] = await sql`select to_regclass('bench_http_seed') is not null as present`;
        if (marker?.present) {
          if ((await removeValidationRows(sql)) > 0) await sql.unsafe('vacuum analyze samples, sample_updates, manifests, specimens');
          const [seed] = await sql`select samples, seeded_at::text as seeded_at, seed_ms, index_ms, vacuum_ms,
            (to_jsonb(b) ->> 'index_bytes')::bigint as index_bytes from bench_http_seed b`;
          const [count] = await sql`select count(*)::int as n from samples`;
          if (seed && Number(seed.samples) === SAMPLES && Number(count?.n) === SAMPLES) {
            // each run's validation inserts and removes 10,000 samples: when that has left the indexes a fifth larger
            // than after seeding, they are rebuilt, so that reruns measure the same indexes
            const [now] = await sql`select pg_indexes_size('samples') + pg_indexes_size('sample_updates') as bytes`;
            const seeded = Number(seed.index_bytes ?? 0);
            let reindexed = '';
            if (seeded > 0 && Number(now?.bytes) > seeded * 1.2) {
              progress(`indexes grew from ${mbOf(seeded)} to ${mbOf(Number(now?.bytes))}: reindexing samples and sample_updates`);
              const t = performance.now();
              await sql.unsafe('reindex table samples');
              await sql.unsafe('reindex table sample_updates');
              await sql.unsafe('analyze samples, sample_updates');
              reindexed = `; indexes rebuilt now in ${secs(performance.now() - t)} (grown from ${mbOf(seeded)} to ${mbOf(Number(now?.bytes))} by earlier runs' validations)`;
            }
            return {
              url,
              reused: true,
              seededAt: String(seed.seeded_at),
              note: reindexed,
              seedMs: Number(seed.seed_ms),
              indexMs: Number(seed.index_ms),
              vacuumMs: Number(seed.vacuum_ms),
            };
          }
          progress(
            `database ${DB_NAME} holds ${int(Number(count?.n))} samples, seeded for ${int(Number(seed?.samples))}: seeding it again`,
          );
        }
      } finally {
        await sql.end();
      }
    }
    await admin.unsafe(`drop database if exists ${DB_NAME} with (force)`);
    await admin.unsafe(`create database ${DB_NAME}`);
  } finally {
    await admin.end();
  }

  const database = await openDatabase({ url, max: 2 });
  try {
    const sql = database.sql as postgres.Sql;
    const exec: Exec = async (q, p = []) => (await sql.unsafe(q, p as never[])) as Record<string, unknown>[];
    // secondary indexes are dropped for the bulk load and built after it, as one would for a migration
    const defs = await sql<{ indexname: string; indexdef: string }[]>`
      select indexname, indexdef from pg_indexes
      where tablename in ('samples', 'sample_updates') and indexname not like '%_pkey'`;
    for (const d of defs) await sql.unsafe(`drop index if exists "${d.indexname}"`);
    progress(`seeding ${int(SAMPLES)} samples into ${DB_NAME}`);
    const seedStart = performance.now();
    await seedBulkSamples(exec, { samples: SAMPLES, log: progress });
    const seedMs = performance.now() - seedStart;
    const indexStart = performance.now();
    for (const d of defs) await sql.unsafe(d.indexdef);
    const indexMs = performance.now() - indexStart;
    const vacuumStart = performance.now();
    await sql.unsafe('vacuum analyze');
    const vacuumMs = performance.now() - vacuumStart;
    await sql`create table bench_http_seed (samples int not null, seeded_at timestamptz not null default now(),
      seed_ms int not null, index_ms int not null, vacuum_ms int not null, index_bytes bigint not null)`;
    await sql`insert into bench_http_seed (samples, seed_ms, index_ms, vacuum_ms, index_bytes)
      values (${SAMPLES}, ${Math.round(seedMs)}, ${Math.round(indexMs)}, ${Math.round(vacuumMs)},
              pg_indexes_size('samples') + pg_indexes_size('sample_updates'))`;
    const [seed] = await sql`select seeded_at::text as t from bench_http_seed`;
    return { url, reused: false, seededAt: String(seed?.t), seedMs, indexMs, vacuumMs, note: '' };
  } finally {
    await database.close();
  }
}

/** The admin the API key is asked for: the seeded owner is the first user, so the service creates none itself. */
async function ensureAdmin(url: string): Promise<void> {
  const database = await openDatabase({ url, max: 1 });
  try {
    const sql = database.sql as postgres.Sql;
    const [found] = await sql`select 1 as one from users where username = ${ADMIN.username}`;
    if (!found) {
      await createUser(database.db, { ...ADMIN, isAdmin: true, memberOf: [...TOL_PROJECTS], managerOf: [...TOL_PROJECTS] });
    }
  } finally {
    await database.close();
  }
}

/** The values looked up, as seeded: the first sample's id, accession, taxon, manifest and name. */
async function probeOf(sql: postgres.Sql): Promise<Probe> {
  const [p] = await sql`
    select id, biosample_accession, taxon_id, manifest_id::text as manifest_id, scientific_name
    from samples where id = substr(md5('1'), 1, 24)`;
  if (!p) throw new Error('the seeded probe sample is missing');
  return {
    svcId: String(p.id),
    biosampleAccession: String(p.biosample_accession),
    taxonId: String(p.taxon_id),
    manifestId: String(p.manifest_id),
    scientificName: String(p.scientific_name),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// 3. Point look-ups and lists: health, endpoint and natural SQL interleaved

interface Case {
  name: string;
  path: string;
  sql: () => PromiseLike<readonly unknown[]>;
}

function casesOf(sql: postgres.Sql, p: Probe): Case[] {
  const day = ['2020-01-02T00:00:00+00:00', '2020-01-03T00:00:00+00:00'] as const;
  const enc = encodeURIComponent;
  return [
    {
      name: '`sample/svc_id/{id}`',
      path: `/api/sample/svc_id/${p.svcId}`,
      sql: () => sql`select * from samples where id = ${p.svcId}`,
    },
    {
      name: '`sample/biosampleAccessions/{acc}`',
      path: `/api/sample/biosampleAccessions/${p.biosampleAccession}`,
      sql: () => sql`select * from samples where biosample_accession = ${p.biosampleAccession}`,
    },
    {
      name: '`manifest/{id}/sample_status`',
      path: `/api/manifest/${p.manifestId}/sample_status`,
      sql: () =>
        sql`select id, manifest_id, status, time_created, time_updated from samples where manifest_id = ${p.manifestId} order by id`,
    },
    {
      name: '`audit/sample/manifest_id/{id}`',
      path: `/api/audit/sample/manifest_id/${p.manifestId}`,
      // each change with the sample's current identifiers and its profile's title, newest first
      sql: () => sql`
        select u.field, u.old_value, u.new_value, u.update_type, u.time_updated, u.manifest_id, u.project, u.sample_id,
               s.rack_or_plate_id, s.specimen_id, s.tube_or_well_id, s.biosample_accession, s.public_name, s.sra_accession,
               p.title
        from sample_updates u
        left join samples s on s.id = u.sample_id
        left join profiles p on p.id = s.profile_id
        where u.manifest_id = ${p.manifestId}
        order by u.time_updated desc, u.id desc`,
    },
    {
      name: '`sample/taxon_id/{id}`',
      path: `/api/sample/taxon_id/${p.taxonId}`,
      sql: () => sql`select * from samples where taxon_id = ${p.taxonId} order by id`,
    },
    {
      name: '`manifest/{id}`',
      path: `/api/manifest/${p.manifestId}`,
      sql: () => sql`select * from samples where manifest_id = ${p.manifestId} order by id`,
    },
    {
      name: '`sample/{from}/{to}` (one day)',
      path: `/api/sample/${day[0]}/${day[1]}`,
      sql: () => sql`
        select * from samples where time_created >= ${day[0]}::timestamptz and time_created < ${day[1]}::timestamptz
        order by time_created desc, id desc`,
    },
    {
      name: '`sample/sample_field/SCIENTIFIC_NAME/{v}`',
      path: `/api/sample/sample_field/SCIENTIFIC_NAME/${enc(p.scientificName)}`,
      sql: () => sql`select * from samples where scientific_name ilike ${`%${p.scientificName}%`} order by id`,
    },
  ];
}

interface CaseResult {
  name: string;
  rows: number;
  sqlRows: number;
  healthMs: number;
  httpMs: number;
  sqlMs: number;
}

async function measureCase(base: string, c: Case): Promise<CaseResult> {
  const first = await request(base, c.path);
  if (first.status !== 200) throw new Error(`${c.path}: ${first.status} ${first.body.toString('utf8').slice(0, 300)}`);
  const rows = rowsOf(first.body);
  const sqlRows = (await c.sql()).length;
  const health: number[] = [];
  const api: number[] = [];
  const direct: number[] = [];
  const time = async (fn: () => PromiseLike<unknown>) => {
    const t = performance.now();
    await fn();
    return performance.now() - t;
  };
  const get = async (p: string) => {
    const res = await request(base, p);
    if (res.status !== 200) throw new Error(`${p}: ${res.status}`);
  };
  for (let i = -2; i < RUNS; i++) {
    const h = await time(() => get('/api/health'));
    const a = await time(() => get(c.path));
    const s = await time(() => c.sql());
    if (i < 0) continue;
    health.push(h);
    api.push(a);
    direct.push(s);
  }
  return { name: c.name, rows, sqlRows, healthMs: median(health), httpMs: median(api), sqlMs: median(direct) };
}

/**
 * `/api/health` is no bare framework floor: it runs `select 1`, the job queue's counts and a storage check. Beside
 * it, in one window, an endpoint that touches nothing (`manifest/current_version`, constants) shows the floor itself.
 */
async function measureFloor(base: string): Promise<{ healthMs: number; floorMs: number }> {
  const health: number[] = [];
  const floor: number[] = [];
  for (let i = -2; i < RUNS; i++) {
    let t = performance.now();
    await request(base, '/api/health');
    const h = performance.now() - t;
    t = performance.now();
    const res = await request(base, '/api/manifest/current_version');
    const f = performance.now() - t;
    if (res.status !== 200) throw new Error(`/api/manifest/current_version: ${res.status}`);
    if (i < 0) continue;
    health.push(h);
    floor.push(f);
  }
  return { healthMs: median(health), floorMs: median(floor) };
}

// ---------------------------------------------------------------------------------------------------------------
// 4. Throughput

const cannon = (opts: autocannon.Options) =>
  new Promise<autocannon.Result>((resolve, reject) => {
    autocannon(opts, (err, result) => (err ? reject(err) : resolve(result)));
  });

async function throughput(url: string, p: string): Promise<autocannon.Result> {
  await cannon({ url: url + p, connections: 10, duration: Math.min(2, SECONDS) });
  return cannon({ url: url + p, connections: CONNECTIONS, duration: SECONDS });
}

/** The bare server: node:http and postgres-js, the same record as JSON, nothing else (run as a child process). */
function bareServer(): void {
  const sql = postgres(process.env.BARE_DATABASE_URL as string, { max: 10, onnotice: () => {} });
  const server = http.createServer((req, res) => {
    const m = /^\/api\/sample\/svc_id\/([^/?]+)/.exec(req.url ?? '');
    if (req.url === '/api/health') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
      return;
    }
    if (!m) {
      res.writeHead(404).end();
      return;
    }
    sql`select * from samples where id = ${decodeURIComponent(m[1] as string)}`.then(
      (rows) => {
        res
          .writeHead(200, { 'content-type': 'application/json; charset=utf-8' })
          .end(JSON.stringify({ status: 'OK', number_found: rows.length, data: rows }));
      },
      (err: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err));
      },
    );
  });
  server.listen(Number(process.env.PORT), '127.0.0.1');
  process.on('SIGTERM', () => {
    server.close();
    void sql.end().finally(() => process.exit(0));
  });
}

// ---------------------------------------------------------------------------------------------------------------
// 5. Exports

interface ExportResult {
  rows: number;
  bytes: number;
  ms: number;
  rssBase: number;
  rssPeak: number;
}

/** Reads a whole export, counting; the service's RSS sampled every 100 ms meanwhile. */
async function readExport(base: string, p: string, pid: number, count: 'csv' | 'json'): Promise<ExportResult> {
  const rssBase = rssOf(pid);
  let rssPeak = rssBase;
  const timer = setInterval(() => {
    rssPeak = Math.max(rssPeak, rssOf(pid));
  }, 100);
  let newlines = 0;
  let head = '';
  const started = performance.now();
  try {
    const res = await request(base, p, {
      keep: false,
      onChunk: (chunk) => {
        if (count === 'csv') newlines += countNewlines(chunk);
        else if (head.length < 200) head += chunk.toString('utf8', 0, Math.min(chunk.length, 200));
      },
    });
    const ms = performance.now() - started;
    rssPeak = Math.max(rssPeak, rssOf(pid));
    if (res.status !== 200) throw new Error(`${p}: ${res.status}`);
    const rows = count === 'csv' ? newlines - 1 : Number(/"number_found":(\d+)/.exec(head)?.[1] ?? Number.NaN);
    return { rows, bytes: res.bytes, ms, rssBase, rssPeak };
  } finally {
    clearInterval(timer);
  }
}

/**
 * What the export reads (the columns the service selects for a sample, its profile's title), by COPY. On a client of
 * its own, ended afterwards: postgres-js can leave a connection's socket paused after a COPY stream, and the next
 * query on it then hangs (porsager/postgres#499, PR #1016).
 */
async function copyAll(url: string): Promise<{ rows: number; bytes: number; ms: number }> {
  const sql = pg(url);
  try {
    return await copyWith(sql);
  } finally {
    await sql.end({ timeout: 1 });
  }
}

async function copyWith(sql: postgres.Sql): Promise<{ rows: number; bytes: number; ms: number }> {
  const started = performance.now();
  const stream = await sql
    .unsafe(
      `copy (
         select s.id, s.manifest_id, s.project, s.manifest_version, s.status, s.fields, s.public_name, s.biosample_accession,
                s.sra_accession, s.submission_accession, s.sample_derived_from, s.sample_same_as, s.sample_symbiont_of,
                s.associated_tol_projects, s.last_bioimage_submitted, s.time_created, s.time_updated, p.title
         from samples s left join profiles p on p.id = s.profile_id
         where s.time_created >= '${ALL_FROM}' and s.time_created < '${ALL_TO}'
         order by s.time_created desc, s.id desc
       ) to stdout (format csv, header)`,
    )
    .readable();
  let newlines = 0;
  let bytes = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    newlines += countNewlines(chunk);
  }
  return { rows: newlines - 1, bytes, ms: performance.now() - started };
}

/**
 * Starts the CSV export, drops the connection after ~1 s, then watches pg_stat_activity on the bench database for
 * 2 s: the service's sessions that are not idle, and the service's CPU meanwhile.
 */
async function disconnectCheck(base: string, pid: number, sql: postgres.Sql): Promise<string[]> {
  const controller = new AbortController();
  let received = 0;
  const reading = request(base, `/api/sample/${ALL_FROM}/${ALL_TO}?return_type=csv`, {
    keep: false,
    signal: controller.signal,
    onChunk: (chunk) => {
      received += chunk.length;
    },
  }).catch(() => undefined);
  await sleep(1000);
  controller.abort();
  const finished = (await reading) !== undefined;
  const abortedAt = performance.now();
  const cpuStart = cpuOf(pid);
  type Session = { pid: number; state: string; query: string };
  const busy = () => sql<Session[]>`
    select pid, coalesce(state, '') as state, left(regexp_replace(query, '\\s+', ' ', 'g'), 120) as query
    from pg_stat_activity
    where datname = ${DB_NAME} and backend_type = 'client backend' and application_name <> ${APP_NAME}
      and coalesce(state, '') not in ('idle')`;
  let lastSeen: { at: number; sessions: Session[] } | null = null;
  let snapshots = 0;
  let withQuery = 0;
  while (performance.now() - abortedAt < 2000) {
    const sessions = (await busy()).filter((s) => /samples/i.test(s.query));
    snapshots++;
    if (sessions.length) {
      withQuery++;
      lastSeen = { at: performance.now() - abortedAt, sessions };
    }
    await sleep(50);
  }
  const cpu = ((cpuOf(pid) - cpuStart) / ((performance.now() - abortedAt) / 1000)) * 100;
  const final = await busy();
  const lines = [
    finished
      ? `- the CSV export finished within 1 s (${mbOf(received)}): too few samples for this check to mean anything`
      : `- client aborted the CSV export after 1.0 s (${mbOf(received)} received)`,
    `- pg_stat_activity every 50 ms for 2 s after: a non-idle service session on samples in ${withQuery} of ${snapshots} snapshots` +
      (lastSeen ? `, last at +${lastSeen.at.toFixed(0)} ms (${lastSeen.sessions.map((s) => `${s.state}: ${s.query}`).join('; ')})` : ''),
    `- service CPU over those 2 s: ${cpu.toFixed(0)}% of one core`,
    `- at +2 s, the service's sessions that are not idle: ${
      final.length ? final.map((s) => `pid ${s.pid} ${s.state}: ${s.query}`).join('; ') : 'none'
    }`,
    `- **result: ${
      !final.some((s) => /samples/i.test(s.query)) && (lastSeen?.at ?? 0) < 1000 && cpu < 25
        ? 'the query stopped with the client'
        : 'the export went on after the client left'
    }**`,
  ];
  return lines;
}

// ---------------------------------------------------------------------------------------------------------------
// 6. Validation end to end

async function validationEndToEnd(base: string, sql: postgres.Sql): Promise<string[]> {
  const signIn = await fetch(`${base}/api/apiKey`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  if (!signIn.ok) throw new Error(`POST /api/apiKey: ${signIn.status} ${await signIn.text()}`);
  const key = ((await signIn.json()) as { token: string }).token;
  const api = async <T>(p: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set('authorization', `token ${key}`);
    const res = await fetch(base + p, { ...init, headers });
    if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${p}: ${res.status} ${(await res.text()).slice(0, 500)}`);
    return (await res.json()) as T;
  };
  const profile = await api<{ id: string }>('/api/profiles', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ title: VALIDATION_PROFILE, description: 'created and removed by bench/http.ts', type: 'dtol' }),
  });
  try {
    const dtol = currentDefinition('dtol');
    const file = await toXlsx(
      dtol.fields.map((f) => f.name),
      validRows(dtol, VALIDATION_ROWS),
      { typed: true },
    );
    const exceljsStart = performance.now();
    await new ExcelJS.Workbook().xlsx.load(file as unknown as ExcelJS.Buffer);
    const exceljsMs = performance.now() - exceljsStart;

    const fd = new FormData();
    fd.set('profile_id', profile.id);
    fd.set('file', new File([new Uint8Array(file)], 'bench-http.xlsx'));
    const started = performance.now();
    const { report_id } = await api<{ report_id: string }>('/api/manifest/validate', { method: 'POST', body: fd });
    const uploadedMs = performance.now() - started;
    type Status = { status: string; summary: { rows: number; errors: number; warnings: number }; failure: string | null };
    let status: Status;
    for (;;) {
      status = await api<Status>(`/api/manifest/validate/report/${report_id}/status`);
      if (status.status === 'complete' || status.status === 'failed') break;
      if (performance.now() - started > 15 * 60_000) throw new Error('the validation did not finish within 15 minutes');
      await sleep(50);
    }
    const validatedMs = performance.now() - started;
    const lines = [
      `| step | time | × exceljs reading the file |`,
      `|---|---|---|`,
      `| exceljs reads the ${(file.byteLength / MiB).toFixed(1)} MiB xlsx (in the bench process) | ${secs(exceljsMs)} | 1.00 |`,
      `| upload answered (POST manifest/validate, 202) | ${secs(uploadedMs)} | ${(uploadedMs / exceljsMs).toFixed(2)} |`,
      `| upload → report ${status.status} (polled every 50 ms) | ${secs(validatedMs)} | ${(validatedMs / exceljsMs).toFixed(2)} |`,
    ];
    const summary = `report: ${status.summary.rows} rows, ${status.summary.errors} errors, ${status.summary.warnings} warnings${status.failure ? `; failure: ${status.failure}` : ''}`;
    if (status.status !== 'complete' || status.summary.errors > 0) {
      return [...lines, '', summary, 'confirm: not attempted (the report is not complete without errors)'];
    }
    const confirmStart = performance.now();
    const confirmed = await api<{ manifest_id: string; created: number; updated: number }>('/api/manifest/validate/confirm', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ validation_report_id: report_id }),
    });
    const confirmMs = performance.now() - confirmStart;
    const [audit] = await sql`select count(*)::int as n from sample_updates where manifest_id = ${confirmed.manifest_id}`;
    lines.push(`| confirm (POST manifest/validate/confirm) | ${secs(confirmMs)} | ${(confirmMs / exceljsMs).toFixed(2)} |`);
    return [
      ...lines,
      '',
      summary,
      `confirm: ${int(confirmed.created)} samples created, ${int(confirmed.updated)} updated, ${int(Number(audit?.n))} sample_updates rows for the manifest, in ${secs(confirmMs)} (${int(confirmed.created / (confirmMs / 1000))} samples/s)`,
    ];
  } finally {
    const removed = await removeValidationRows(sql);
    // the dead rows would otherwise weigh on the next run's table (autovacuum comes when it comes)
    await sql.unsafe('vacuum analyze samples, sample_updates, manifests, specimens');
    progress(`removed the validation's profile and its ${int(removed)} samples`);
  }
}

// ---------------------------------------------------------------------------------------------------------------

async function main() {
  const started = new Date();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'rmb-bench-http-'));
  const repositories = await startRepositoryServer({ taxa: buildTaxonRecords().records });
  const stops: (() => Promise<void>)[] = [async () => repositories.close(), async () => rmSync(dataDir, { recursive: true, force: true })];
  try {
    progress('preparing the database');
    const db = await prepareDatabase();
    await ensureAdmin(db.url);
    const sql = pg(db.url, 2);
    stops.unshift(() => sql.end());
    const [engine] = await sql`select version() as v`;
    const [size] = await sql`select pg_table_size('samples') as t, pg_indexes_size('samples') as i`;
    const probe = await probeOf(sql);

    out(`# bench:http — ${started.toISOString()}`);
    out();
    out(`- engine: ${String(engine?.v)}`);
    out(`- machine: ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), Node ${process.version}`);
    out(
      `- settings: BENCH_DATABASE_URL=${redact(SERVER_URL)} (database \`${DB_NAME}\`), SAMPLES=${int(SAMPLES)}, RUNS=${RUNS}, BENCH_SECONDS=${SECONDS}`,
    );
    out(
      db.reused
        ? `- database: reused (seeded ${db.seededAt}, when seeding took ${secs(db.seedMs)} + index build ${secs(db.indexMs)} + VACUUM ANALYZE ${secs(db.vacuumMs)})${db.note}`
        : `- database: created and seeded now: ${secs(db.seedMs)} seeding, ${secs(db.indexMs)} index build, ${secs(db.vacuumMs)} VACUUM ANALYZE`,
    );
    out(`- samples table ${mbOf(Number(size?.t))}, its indexes ${mbOf(Number(size?.i))}`);

    progress('building the service (scripts/build-server.mjs)');
    const buildStart = performance.now();
    execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
    const buildMs = performance.now() - buildStart;
    const svc = await startProcess(
      [...SERVICE_NODE_FLAGS, ...(CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF}`] : []), '.next/api-server.mjs'],
      {
        NODE_ENV: 'production',
        DATABASE_URL: db.url,
        DATA_DIR: dataDir,
        NEXTAUTH_SECRET: 'bench-http-secret',
        ADMIN_USERNAME: ADMIN.username,
        ADMIN_PASSWORD: ADMIN.password,
        LOG_LEVEL: 'warn',
        ENA_WEBIN_URL: repositories.enaUrl,
        ENA_TAXONOMY_URL: repositories.taxonomyUrl,
        ENA_BROWSER_URL: repositories.browserUrl,
        ENA_FTP_URL: repositories.ftpUrl,
        TOLID_URL: repositories.tolidUrl,
        ZENODO_URL: repositories.zenodoUrl,
        SMTP_URL: repositories.smtpUrl,
      },
      '/api/health',
    );
    stops.unshift(() => svc.stop());
    out(
      `- service: \`node ${SERVICE_NODE_FLAGS.join(' ')} .next/api-server.mjs\` (built in ${secs(buildMs)}), pid ${svc.pid}, NODE_ENV=production, LOG_LEVEL=warn, RSS ${mbOf(rssOf(svc.pid))} at start`,
    );
    out(
      `- probe values: svc_id ${probe.svcId}, accession ${probe.biosampleAccession}, taxon ${probe.taxonId}, manifest ${probe.manifestId}, name "${probe.scientificName}", day 2020-01-02`,
    );

    // 3. ------------------------------------------------------------------------------------------------------
    progress(`point look-ups and lists: ${RUNS} rounds each`);
    const results: CaseResult[] = [];
    for (const c of casesOf(sql, probe)) {
      const r = await measureCase(svc.url, c);
      progress(`${c.name}: ${r.rows} rows, health ${ms(r.healthMs)}, HTTP ${ms(r.httpMs)}, SQL ${ms(r.sqlMs)} ms`);
      results.push(r);
    }
    out();
    out(`## Point look-ups and lists (medians of ${RUNS}, health / endpoint / SQL interleaved, keep-alive)`);
    out();
    out('| request | rows | health ms | HTTP ms | natural SQL ms | (HTTP − health) / SQL |');
    out('|---|---|---|---|---|---|');
    for (const r of results) {
      const rows = r.rows === r.sqlRows ? String(r.rows) : `${r.rows} (SQL ${r.sqlRows})`;
      out(
        `| ${r.name} | ${rows} | ${ms(r.healthMs)} | ${ms(r.httpMs)} | ${ms(r.sqlMs)} | ${((r.httpMs - r.healthMs) / r.sqlMs).toFixed(1)} |`,
      );
    }
    const floor = await measureFloor(svc.url);
    out();
    out(
      `Floor check (medians of ${RUNS}, interleaved): \`/api/health\` ${ms(floor.healthMs)} ms (select 1 + job-queue counts + storage check) ` +
        `vs \`/api/manifest/current_version\` ${ms(floor.floorMs)} ms (no database: the HTTP + Hono floor itself).`,
    );

    // 4. ------------------------------------------------------------------------------------------------------
    progress('starting the bare node:http server');
    const bare = await startProcess(
      ['--import', 'tsx', 'bench/http.ts', '--bare-server'],
      { BARE_DATABASE_URL: db.url, NODE_ENV: 'production' },
      `/api/sample/svc_id/${probe.svcId}`,
    );
    stops.unshift(() => bare.stop());
    const svcPath = `/api/sample/svc_id/${probe.svcId}`;
    progress(`autocannon ${CONNECTIONS} connections × ${SECONDS} s: service svc_id`);
    const tSvc = await throughput(svc.url, svcPath);
    progress(`autocannon ${CONNECTIONS} connections × ${SECONDS} s: service health`);
    const tHealth = await throughput(svc.url, '/api/health');
    progress(`autocannon ${CONNECTIONS} connections × ${SECONDS} s: bare server svc_id`);
    const tBare = await throughput(bare.url, svcPath);
    await bare.stop();
    out();
    out(`## Throughput (autocannon, ${CONNECTIONS} connections, ${SECONDS} s each, after a ${Math.min(2, SECONDS)} s warm-up)`);
    out();
    out('| target | req/s | p50 ms | p99 ms | max ms | non-2xx | errors |');
    out('|---|---|---|---|---|---|---|');
    const row = (name: string, r: autocannon.Result) =>
      out(
        `| ${name} | ${int(r.requests.average)} | ${r.latency.p50} | ${r.latency.p99} | ${r.latency.max} | ${r.non2xx} | ${r.errors + r.timeouts} |`,
      );
    row('service `sample/svc_id/{id}`', tSvc);
    row('service `/api/health`', tHealth);
    row('bare node:http + postgres-js, same record', tBare);
    out();
    out(
      `svc_id / health throughput: **${((tSvc.requests.average / tHealth.requests.average) * 100).toFixed(0)}%**; ` +
        `svc_id / bare server: ${((tSvc.requests.average / tBare.requests.average) * 100).toFixed(0)}%`,
    );

    // 5. ------------------------------------------------------------------------------------------------------
    progress('CSV export of every sample');
    const csv = await readExport(svc.url, `/api/sample/${ALL_FROM}/${ALL_TO}?return_type=csv`, svc.pid, 'csv');
    progress('COPY of the same rows');
    const copy = await copyAll(db.url);
    progress('JSON export of every sample');
    const json = await readExport(svc.url, `/api/sample/${ALL_FROM}/${ALL_TO}`, svc.pid, 'json');
    const rate = (r: { rows: number; ms: number }) => r.rows / (r.ms / 1000);
    const mem = (r: ExportResult) => `${mbOf(r.rssBase)} → ${mbOf(r.rssPeak)} (+${mbOf(r.rssPeak - r.rssBase)})`;
    out();
    out(`## Exports of every sample (\`sample/${ALL_FROM}/${ALL_TO}\`, body read to the end)`);
    out();
    out('| export | rows | size | time | rows/s | × COPY rate | service RSS (peak) |');
    out('|---|---|---|---|---|---|---|');
    out(
      `| CSV (\`?return_type=csv\`) | ${int(csv.rows)} | ${mbOf(csv.bytes)} | ${secs(csv.ms)} | ${int(rate(csv))} | ${(rate(csv) / rate(copy)).toFixed(2)} | ${mem(csv)} |`,
    );
    out(
      `| JSON (default) | ${int(json.rows)} | ${mbOf(json.bytes)} | ${secs(json.ms)} | ${int(rate(json))} | ${(rate(json) / rate(copy)).toFixed(2)} | ${mem(json)} |`,
    );
    out(
      `| PostgreSQL \`COPY (…) TO STDOUT (FORMAT csv)\` via postgres-js | ${int(copy.rows)} | ${mbOf(copy.bytes)} | ${secs(copy.ms)} | ${int(rate(copy))} | 1.00 | — |`,
    );
    out();
    out(
      'COPY selects the columns the service reads for each sample (fields as one JSON cell, the profile title joined), ' +
        'in the same order (time_created desc, id desc); the API expands the fields into columns. JSON rows are its number_found.',
    );
    out();
    out('### A client that disconnects');
    out();
    progress('disconnect check');
    for (const line of await disconnectCheck(svc.url, svc.pid, sql)) out(line);

    // 6. ------------------------------------------------------------------------------------------------------
    out();
    out(`## Validation end to end (${int(VALIDATION_ROWS)}-row DTOL manifest, taxonomy from the local stand-in)`);
    out();
    progress('validation end to end');
    try {
      for (const line of await validationEndToEnd(svc.url, sql)) out(line);
    } catch (err) {
      out(`validation end to end failed: ${err instanceof Error ? err.message : String(err)}`);
    }

    const warnings = svc.lines.filter((l) => /"level":(40|50|60)/.test(l));
    out();
    out(`- service log: ${warnings.length} warning/error lines${warnings.length ? `; last: ${warnings.at(-1)?.slice(0, 300)}` : ''}`);
    out(
      `- database \`${DB_NAME}\` kept for the next run; drop it with: psql '${redact(SERVER_URL)}' -c 'drop database ${DB_NAME} with (force)'`,
    );
  } finally {
    for (const stop of stops) await stop().catch((err: unknown) => console.error('cleanup:', err));
    agent.destroy();
  }
}

if (process.argv.includes('--bare-server')) {
  bareServer();
} else {
  const killChildren = () => {
    killProcesses();
    process.exit(130);
  };
  process.once('SIGINT', killChildren);
  process.once('SIGTERM', killChildren);
  await main();
}
