/**
 * `npm run bench:http`: the built service (`node .next/api-server.mjs`) as a separate process on PostgreSQL holding
 * SAMPLES samples (and, with BENCH_HTTP_ENGINE=pglite or both, on PGlite), each endpoint over HTTP next to the single
 * natural SQL statement a person would write for the same rows, all measured in one run (issues 17 and 28):
 *
 *   1. point look-ups and lists: the endpoint, the framework's floor (`/api/manifest/current_version`, a route that
 *      reads no database) and the SQL interleaved in one window, RUNS rounds, medians; `/api/health` beside the floor;
 *      `sample/svc_id` measured the same way on the bare server of 2 (its floor a constant answer): the limit of that
 *      ratio on the machine, a round trip to the database made from inside an HTTP request;
 *   2. throughput: autocannon, 50 connections, on `sample/svc_id/{id}`, on `/api/health` and on a bare `node:http`
 *      server answering the same record through the same driver (postgres-js, or PGlite on a copy of the data);
 *   3. exports: the portal browser's CSV (`samples/browse?return_type=csv`, with an admin's API key) and the query API's
 *      CSV and JSON of every sample next to the engine's own `COPY` (run before them and after them, the faster the
 *      limit), the service's RSS while they stream (growth over its RSS after the export's first 64 MB read and
 *      dropped, the growth from before that beside it), and whether a client that disconnects stops the query;
 *   4. validation end to end (PostgreSQL only): a 10,000-row DTOL manifest uploaded, validated and confirmed, next to
 *      exceljs reading it;
 *   5. a summary: each measure of issue 28's table, its figure, its goal and whether it is met.
 *
 *   BENCH_HTTP_ENGINE   postgres (default), pglite, or both (PostgreSQL first)
 *   BENCH_DATABASE_URL  a PostgreSQL server (default postgres://postgres@127.0.0.1:5432/test); the bench creates its
 *                       database `rmb_bench_http` on it and keeps it for the next run
 *   SAMPLES             samples to seed on PostgreSQL (default 1,000,000); the database is reused when it holds exactly
 *                       these
 *   BENCH_PGLITE_SAMPLES samples to seed on PGlite (default the smaller of SAMPLES and 100,000: PGlite seeds some
 *                       1,700 samples/s here); the seeded data dir is kept in .data/bench-http-pglite-<n> and copied
 *                       for each run (the service's, the bench's own SQL, the bare server's), so every copy holds the
 *                       same rows in the same engine
 *   RUNS                rounds per request of the latency table (default 20), after WARMUP rounds
 *   WARMUP              rounds of each request before the measured ones (default 2,500), or WARMUP_MAX_SECONDS
 *   WARMUP_MAX_SECONDS  (default 8) when they take longer (a list's round takes 10-100 ms), and WARMUP_SECONDS
 *   WARMUP_SECONDS      seconds at least (default 2): PostgreSQL plans a prepared statement afresh on each of its
 *                       first five runs on every connection the service's pool has used for it (the bench's own SQL
 *                       runs on one), and V8 compiles a request's code only after it has run a while (a one-sample
 *                       look-up took some 2,000 requests to reach its steady state: 1.1-1.7 over its first 800, 0.6-1.1
 *                       after; windows of its first 2,000 rounds 1.11-1.36, after 0.84-1.09 on a faster machine, where
 *                       two seconds were 1,000 rounds), so the measured rounds are the steady state; the first RUNS of
 *                       the warm-up are reported beside them as the cold figure
 *   SPREAD_SECONDS      after the measured rounds, each request goes on for this long (default 3; 0: not at all)
 *                       and at least SPREAD_WINDOWS (default 5) more windows of RUNS rounds, to show how far the
 *                       ratio of one window of RUNS rounds, which the verdict takes, moves from one window to the
 *                       next on the same service: the p10 and p90 of those windows, and the ratio of the medians of
 *                       all their rounds pooled. Neither is a verdict; they say whether a ratio just past its goal
 *                       is the service or the window
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
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import ExcelJS from 'exceljs';
import postgres from 'postgres';
import { type Database, openDatabase } from '../db/client';
import { TOL_PROJECTS } from '../db/schema';
import { currentDefinition } from '../lib/manifests';
import { createUser } from '../lib/users/users';
import { SERVICE_ENV, SERVICE_ENV_TEXT, SERVICE_NODE_FLAGS } from '../scripts/node-flags.mjs';
import { validRows } from '../tests/fixtures/manifests/generate';
import { buildTaxonRecords } from '../tests/fixtures/manifests/taxa';
import { toXlsx } from '../tests/fixtures/manifests/workbook';
import { startRepositoryServer } from '../tests/support/repository-server';
import { reuseOrRecreate, withDatabase } from './databases';
import {
  agent,
  type Case,
  casesOf,
  countNewlines,
  FLOOR_PATH,
  type Group,
  median,
  probeOf,
  type Query,
  request,
  rowsOf,
} from './http-cases';
import { killProcessesOnSignal, rssOf, standInUrls, startProcess } from './processes';
import { type Exec, execFor, seedBulkSamples } from './query-seed';

const root = path.resolve(import.meta.dirname, '..');
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SAMPLES = Number(process.env.SAMPLES ?? 1_000_000);
/** PGlite seeds some 1,700 samples/s here (20,000 in 12 s): 100,000 take a couple of minutes, 1,000,000 some 10-15 */
const PGLITE_SAMPLES = Number(process.env.BENCH_PGLITE_SAMPLES ?? Math.min(SAMPLES, 100_000));
const ENGINE_CHOICE = process.env.BENCH_HTTP_ENGINE ?? 'postgres';
const RUNS = Number(process.env.RUNS ?? 20);
const WARMUP = Math.max(RUNS, Number(process.env.WARMUP ?? 2_500));
const WARMUP_MS = 1000 * Number(process.env.WARMUP_SECONDS ?? 2);
const WARMUP_MAX_MS = Math.max(WARMUP_MS, 1000 * Number(process.env.WARMUP_MAX_SECONDS ?? 8));
const SPREAD_MS = 1000 * Number(process.env.SPREAD_SECONDS ?? 3);
const SPREAD_WINDOWS = SPREAD_MS > 0 ? Number(process.env.SPREAD_WINDOWS ?? 5) : 0;
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
/** issue 28's goals */
const GOAL = {
  lookup: 1.2,
  pointLists: 1.5,
  lists: 1.2,
  throughputShare: 0.6,
  p99Ms: 50,
  exportRate: 0.7,
  exportRssMb: 100,
  healthP50Ms: 2,
} as const;

const out = (line = '') => console.log(line);
const progress = (line: string) => console.error(`  … ${line}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ms = (x: number) => x.toFixed(1);
const secs = (x: number) => `${(x / 1000).toFixed(1)} s`;
const int = (x: number) => Math.round(x).toLocaleString('en');
const warmUpText = `${int(WARMUP)} rounds (${WARMUP_MAX_MS / 1000} s at most) and ${WARMUP_MS / 1000} s at least`;
const mbOf = (bytes: number) => `${(bytes / MiB).toFixed(0)} MB`;
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
// 1. The database: reused when it holds the right samples, else created, migrated and seeded

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
  const kept = await reuseOrRecreate(SERVER_URL, DB_NAME, pg, async (sql): Promise<Prepared | null> => {
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
      progress(`database ${DB_NAME} holds ${int(Number(count?.n))} samples, seeded for ${int(Number(seed?.samples))}: seeding it again`);
    }
    return null;
  });
  if (kept) return kept;

  const database = await openDatabase({ url, max: 2 });
  try {
    const seeded = await seedWith(execFor(database), SAMPLES, DB_NAME);
    return { url, reused: false, note: '', ...seeded };
  } finally {
    await database.close();
  }
}

/**
 * Seeds `samples` samples through `exec` (PostgreSQL or PGlite): secondary indexes dropped for the bulk load and built
 * after it, as one would for a migration, then VACUUM ANALYZE and the marker table a later run reuses the data by.
 */
async function seedWith(
  exec: Exec,
  samples: number,
  name: string,
): Promise<{ seededAt: string; seedMs: number; indexMs: number; vacuumMs: number }> {
  const defs = (await exec(`
    select indexname, indexdef from pg_indexes
    where tablename in ('samples', 'sample_updates') and indexname not like '%_pkey'`)) as { indexname: string; indexdef: string }[];
  for (const d of defs) await exec(`drop index if exists "${d.indexname}"`);
  progress(`seeding ${int(samples)} samples into ${name}`);
  const seedStart = performance.now();
  await seedBulkSamples(exec, { samples, log: progress });
  const seedMs = performance.now() - seedStart;
  const indexStart = performance.now();
  for (const d of defs) await exec(d.indexdef);
  const indexMs = performance.now() - indexStart;
  const vacuumStart = performance.now();
  await exec('vacuum analyze');
  const vacuumMs = performance.now() - vacuumStart;
  await exec(`create table bench_http_seed (samples int not null, seeded_at timestamptz not null default now(),
    seed_ms int not null, index_ms int not null, vacuum_ms int not null, index_bytes bigint not null)`);
  await exec(
    `insert into bench_http_seed (samples, seed_ms, index_ms, vacuum_ms, index_bytes)
     values ($1, $2, $3, $4, pg_indexes_size('samples') + pg_indexes_size('sample_updates'))`,
    [samples, Math.round(seedMs), Math.round(indexMs), Math.round(vacuumMs)],
  );
  const [seed] = await exec('select seeded_at::text as t from bench_http_seed');
  return { seededAt: String(seed?.t), seedMs, indexMs, vacuumMs };
}

/**
 * PGlite's data dir, seeded once with PGLITE_SAMPLES samples (and the admin) and kept in .data for the next run; each
 * run works on copies of it.
 */
async function preparePglite(): Promise<Omit<Prepared, 'url' | 'note'> & { dir: string }> {
  const dir = path.join(root, '.data', `bench-http-pglite-${PGLITE_SAMPLES}`);
  if (existsSync(dir)) {
    const database = await openDatabase({ pgliteDir: dir });
    try {
      const exec = execFor(database);
      const [marker] = await exec(`select to_regclass('bench_http_seed') is not null as present`);
      if (marker?.present) {
        const [seed] = await exec('select samples, seeded_at::text as seeded_at, seed_ms, index_ms, vacuum_ms from bench_http_seed');
        const [count] = await exec('select count(*)::int as n from samples');
        if (seed && Number(seed.samples) === PGLITE_SAMPLES && Number(count?.n) === PGLITE_SAMPLES) {
          await ensureAdmin(database);
          return {
            dir,
            reused: true,
            seededAt: String(seed.seeded_at),
            seedMs: Number(seed.seed_ms),
            indexMs: Number(seed.index_ms),
            vacuumMs: Number(seed.vacuum_ms),
          };
        }
      }
    } finally {
      await database.close();
    }
    progress(`${dir} is not a complete seed of ${int(PGLITE_SAMPLES)} samples: seeding it again`);
    rmSync(dir, { recursive: true, force: true });
  }
  const database = await openDatabase({ pgliteDir: dir });
  try {
    const seeded = await seedWith(execFor(database), PGLITE_SAMPLES, path.relative(root, dir));
    await ensureAdmin(database);
    return { dir, reused: false, ...seeded };
  } finally {
    await database.close();
  }
}

/** The admin the API key is asked for: the seeded owner is the first user, so the service creates none itself. */
async function ensureAdmin(database: Database): Promise<void> {
  const [found] = await execFor(database)('select 1 as one from users where username = $1', [ADMIN.username]);
  if (!found) {
    await createUser(database.db, { ...ADMIN, isAdmin: true, memberOf: [...TOL_PROJECTS], managerOf: [...TOL_PROJECTS] });
  }
}

const GROUP_GOAL: Record<Group, number> = { lookup: GOAL.lookup, 'point-list': GOAL.pointLists, list: GOAL.lists };

interface CaseResult {
  case: Case;
  rows: number;
  sqlRows: number;
  floorMs: number;
  httpMs: number;
  sqlMs: number;
  /** (HTTP − floor) / SQL */
  ratio: number;
  /** the same ratio over the first RUNS rounds of the warm-up: a service and a pool that have not run the request yet */
  coldRatio: number;
  /** rounds of the warm-up: WARMUP, or more to fill WARMUP_SECONDS, or fewer when they took WARMUP_MAX_SECONDS */
  warmRounds: number;
  /** further windows of RUNS rounds after the measured one (SPREAD_SECONDS), or null when there were none */
  spread: Spread | null;
}

/** How the ratio of one window of RUNS rounds moved over further windows, and the ratio of all their rounds pooled. */
interface Spread {
  windows: number;
  p10: number;
  p90: number;
  pooled: number;
}

/** The p-th quantile (0..1) of numbers, nearest rank. */
const quantile = (xs: number[], p: number): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? Number.NaN;
};

/** Whether a warm-up begun at `start` goes on after `rounds`: WARMUP rounds and WARMUP_SECONDS, WARMUP_MAX_SECONDS at most. */
const warmingUp = (start: number, rounds: number): boolean => {
  const elapsed = performance.now() - start;
  return rounds < RUNS || elapsed < WARMUP_MS || (rounds < WARMUP && elapsed < WARMUP_MAX_MS);
};

/**
 * The endpoint, the floor and the SQL, interleaved, RUNS rounds after a warm-up of WARMUP rounds (WARMUP_MAX_SECONDS at
 * most) and WARMUP_SECONDS at least: medians, and the same over the warm-up's first RUNS rounds.
 */
async function measureCase(base: string, c: Case, query: Query): Promise<CaseResult> {
  const first = await request(base, c.path);
  if (first.status !== 200) throw new Error(`${c.path}: ${first.status} ${first.body.toString('utf8').slice(0, 300)}`);
  const rows = rowsOf(first.body);
  const sqlRows = (await query(c.text, c.params)).length;
  const measured = new Rounds();
  const cold = new Rounds();
  const time = async (fn: () => PromiseLike<unknown>) => {
    const t = performance.now();
    await fn();
    return performance.now() - t;
  };
  const get = async (p: string) => {
    const res = await request(base, p);
    if (res.status !== 200) throw new Error(`${p}: ${res.status}`);
  };
  const round = async (): Promise<Round> => ({
    f: await time(() => get(FLOOR_PATH)),
    a: await time(() => get(c.path)),
    s: await time(() => query(c.text, c.params)),
  });
  const warmStart = performance.now();
  let warmRounds = 0;
  while (warmingUp(warmStart, warmRounds)) {
    const r = await round();
    if (warmRounds++ < RUNS) cold.add(r);
  }
  for (let i = 0; i < RUNS; i++) measured.add(await round());
  return {
    case: c,
    rows,
    sqlRows,
    floorMs: median(measured.floor),
    httpMs: median(measured.api),
    sqlMs: median(measured.sql),
    ratio: measured.ratio(),
    coldRatio: cold.ratio(),
    warmRounds,
    spread: await spreadOf(round),
  };
}

/** One round's times in ms: the floor, the endpoint, the natural SQL. */
interface Round {
  f: number;
  a: number;
  s: number;
}

/** Rounds of the floor, the endpoint and the SQL, and their ratio: (HTTP − floor) / SQL of the medians. */
class Rounds {
  readonly floor: number[] = [];
  readonly api: number[] = [];
  readonly sql: number[] = [];

  add({ f, a, s }: Round): void {
    this.floor.push(f);
    this.api.push(a);
    this.sql.push(s);
  }

  addAll(other: Rounds): void {
    this.floor.push(...other.floor);
    this.api.push(...other.api);
    this.sql.push(...other.sql);
  }

  ratio(): number {
    return (median(this.api) - median(this.floor)) / median(this.sql);
  }
}

/** Further windows of RUNS rounds, for SPREAD_SECONDS and SPREAD_WINDOWS at least: their ratios' p10 and p90, and pooled. */
async function spreadOf(round: () => Promise<Round>): Promise<Spread | null> {
  if (!SPREAD_WINDOWS) return null;
  const until = performance.now() + SPREAD_MS;
  const ratios: number[] = [];
  const all = new Rounds();
  while (ratios.length < SPREAD_WINDOWS || performance.now() < until) {
    const windowRounds = new Rounds();
    for (let i = 0; i < RUNS; i++) windowRounds.add(await round());
    ratios.push(windowRounds.ratio());
    all.addAll(windowRounds);
  }
  return {
    windows: ratios.length,
    p10: quantile(ratios, 0.1),
    p90: quantile(ratios, 0.9),
    pooled: all.ratio(),
  };
}

/**
 * `/api/health` beside the floor (`manifest/current_version`, constants), in one window: health's own cost, which
 * issue 28 wants at most 2 ms at p50.
 */
async function measureHealth(base: string): Promise<{ healthMs: number; floorMs: number }> {
  const health: number[] = [];
  const floor: number[] = [];
  const warmStart = performance.now();
  let warmRounds = 0;
  while (health.length < RUNS) {
    let t = performance.now();
    const h0 = await request(base, '/api/health');
    const h = performance.now() - t;
    if (h0.status !== 200) throw new Error(`/api/health: ${h0.status}`);
    t = performance.now();
    const res = await request(base, FLOOR_PATH);
    const f = performance.now() - t;
    if (res.status !== 200) throw new Error(`${FLOOR_PATH}: ${res.status}`);
    if (warmingUp(warmStart, warmRounds++)) continue;
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

/**
 * The bare server: node:http and the service's driver (postgres-js on BARE_DATABASE_URL, or PGlite on BARE_PGLITE_DIR,
 * opened as the service opens it), the same record as JSON, nothing else (run as a child process).
 */
async function bareServer(): Promise<void> {
  let lookUp: (id: string) => Promise<readonly unknown[]>;
  let end: () => Promise<void>;
  if (process.env.BARE_PGLITE_DIR) {
    const database = await openDatabase({ pgliteDir: process.env.BARE_PGLITE_DIR });
    const pglite = database.pglite;
    if (!pglite) throw new Error('no PGlite');
    lookUp = async (id) => (await pglite.query('select * from samples where id = $1', [id])).rows;
    end = () => database.close();
  } else {
    const sql = postgres(process.env.BARE_DATABASE_URL as string, { max: 10, onnotice: () => {} });
    lookUp = async (id) => await sql`select * from samples where id = ${id}`;
    end = () => sql.end();
  }
  const server = http.createServer((req, res) => {
    const m = /^\/api\/sample\/svc_id\/([^/?]+)/.exec(req.url ?? '');
    // constant answers: its health for autocannon's start, the floor for the look-up's limit (measureCase)
    if (req.url === '/api/health' || req.url === FLOOR_PATH) {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
      return;
    }
    if (!m) {
      res.writeHead(404).end();
      return;
    }
    lookUp(decodeURIComponent(m[1] as string)).then(
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
    void end().finally(() => process.exit(0));
  });
}

// ---------------------------------------------------------------------------------------------------------------
// 5. Exports

interface ExportResult {
  rows: number;
  bytes: number;
  ms: number;
  /** the service's RSS before the export's warm-up */
  rssIdle: number;
  /** after the warm-up: what the growth is measured from */
  rssBase: number;
  rssPeak: number;
}

// An export's first bytes read before it is measured, then the request dropped. Why: an idle service gives memory
// back (V8 shrinks its heap once it has had nothing to do for a while), and how much depended on how long the
// bench's COPY had just kept it idle: the same export grew 123 -> 251 MB in one run and 235 -> 264 MB in another. Warmed
// up as the latency rounds are, the growth says whether the export holds more the more rows it sends; the growth
// from idle is printed beside it.
const EXPORT_WARMUP_BYTES = 64 * MiB;

/** Reads the first EXPORT_WARMUP_BYTES of an export, then leaves (the service stops its query: section 3). */
async function warmExport(base: string, p: string, headers?: Record<string, string>): Promise<void> {
  const leave = new AbortController();
  let bytes = 0;
  await request(base, p, {
    keep: false,
    headers,
    signal: leave.signal,
    onChunk: (chunk) => {
      bytes += chunk.length;
      if (bytes >= EXPORT_WARMUP_BYTES) leave.abort();
    },
  }).catch((err: unknown) => {
    if (!leave.signal.aborted) throw err;
  });
  await sleep(500);
}

/**
 * Reads a whole export after its warm-up (warmExport), counting; the service's RSS sampled every 100 ms meanwhile.
 */
async function readExport(
  base: string,
  p: string,
  pid: number,
  count: 'csv' | 'json',
  headers?: Record<string, string>,
): Promise<ExportResult> {
  const rssIdle = rssOf(pid);
  await warmExport(base, p, headers);
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
      headers,
      onChunk: (chunk) => {
        if (count === 'csv') newlines += countNewlines(chunk);
        else if (head.length < 200) head += chunk.toString('utf8', 0, Math.min(chunk.length, 200));
      },
    });
    const ms = performance.now() - started;
    rssPeak = Math.max(rssPeak, rssOf(pid));
    if (res.status !== 200) throw new Error(`${p}: ${res.status}`);
    const rows = count === 'csv' ? newlines - 1 : Number(/"number_found":(\d+)/.exec(head)?.[1] ?? Number.NaN);
    return { rows, bytes: res.bytes, ms, rssIdle, rssBase, rssPeak };
  } finally {
    clearInterval(timer);
  }
}

interface CopyResult {
  rows: number;
  bytes: number;
  ms: number;
}

/** What the export reads: the columns the service selects for a sample, its profile's title, newest first. */
const COPY_SELECT = `
  select s.id, s.manifest_id, s.project, s.manifest_version, s.status, s.fields, s.public_name, s.biosample_accession,
         s.sra_accession, s.submission_accession, s.sample_derived_from, s.sample_same_as, s.sample_symbiont_of,
         s.associated_tol_projects, s.last_bioimage_submitted, s.time_created, s.time_updated, p.title
  from samples s left join profiles p on p.id = s.profile_id
  where s.time_created >= '${ALL_FROM}' and s.time_created < '${ALL_TO}'
  order by s.time_created desc, s.id desc`;

/**
 * COPY on PostgreSQL, on a client of its own, ended afterwards: postgres-js can leave a connection's socket paused
 * after a COPY stream, and the next query on it then hangs (porsager/postgres#499, PR #1016).
 */
async function copyAll(url: string): Promise<CopyResult> {
  const sql = pg(url);
  try {
    const started = performance.now();
    const stream = await sql.unsafe(`copy (${COPY_SELECT}) to stdout (format csv, header)`).readable();
    let newlines = 0;
    let bytes = 0;
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      newlines += countNewlines(chunk);
    }
    return { rows: newlines - 1, bytes, ms: performance.now() - started };
  } finally {
    await sql.end({ timeout: 1 });
  }
}

/** COPY in PGlite: the engine writes the whole CSV to its `/dev/blob` (PGlite has no COPY stream to a client). */
async function copyPglite(pglite: NonNullable<Database['pglite']>): Promise<CopyResult> {
  const started = performance.now();
  const result = await pglite.query(`copy (${COPY_SELECT}) to '/dev/blob' with (format csv, header)`);
  if (!result.blob) throw new Error('PGlite returned no blob for COPY TO /dev/blob');
  const body = Buffer.from(await result.blob.arrayBuffer());
  const rows = countNewlines(body) - 1;
  return { rows, bytes: body.length, ms: performance.now() - started };
}

/**
 * Starts the CSV export, drops the connection after ~1 s, then watches pg_stat_activity on the bench database for
 * 2 s: the service's sessions that are not idle, and the service's CPU meanwhile.
 */
type Session = { pid: number; state: string; query: string };

async function disconnectCheck(base: string, pid: number, busy: (() => Promise<Session[]>) | null): Promise<string[]> {
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
  let lastSeen: { at: number; sessions: Session[] } | null = null;
  let snapshots = 0;
  let withQuery = 0;
  while (performance.now() - abortedAt < 2000) {
    if (!busy) {
      await sleep(50);
      continue;
    }
    const sessions = (await busy()).filter((s) => /samples/i.test(s.query));
    snapshots++;
    if (sessions.length) {
      withQuery++;
      lastSeen = { at: performance.now() - abortedAt, sessions };
    }
    await sleep(50);
  }
  const cpu = ((cpuOf(pid) - cpuStart) / ((performance.now() - abortedAt) / 1000)) * 100;
  const final = busy ? await busy() : [];
  const lines = [
    finished
      ? `- the CSV export finished within 1 s (${mbOf(received)}): too few samples for this check to mean anything`
      : `- client aborted the CSV export after 1.0 s (${mbOf(received)} received)`,
    busy
      ? `- pg_stat_activity every 50 ms for 2 s after: a non-idle service session on samples in ${withQuery} of ${snapshots} snapshots` +
        (lastSeen ? `, last at +${lastSeen.at.toFixed(0)} ms (${lastSeen.sessions.map((s) => `${s.state}: ${s.query}`).join('; ')})` : '')
      : '- pg_stat_activity: does not apply (PGlite runs inside the service process); the service CPU below is the sign',
    `- service CPU over those 2 s: ${cpu.toFixed(0)}% of one core`,
    ...(busy
      ? [
          `- at +2 s, the service's sessions that are not idle: ${
            final.length ? final.map((s) => `pid ${s.pid} ${s.state}: ${s.query}`).join('; ') : 'none'
          }`,
        ]
      : []),
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

/** An API key for the seeded admin (POST /api/apiKey), for the routes that need a signed-in user. */
async function apiKeyOf(base: string): Promise<string> {
  const signIn = await fetch(`${base}/api/apiKey`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  if (!signIn.ok) throw new Error(`POST /api/apiKey: ${signIn.status} ${await signIn.text()}`);
  return ((await signIn.json()) as { token: string }).token;
}

async function validationEndToEnd(base: string, key: string, sql: postgres.Sql): Promise<string[]> {
  const api = async <T>(p: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set('authorization', `token ${key}`);
    const res = await fetch(base + p, { ...init, headers });
    if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${p}: ${res.status} ${(await res.text()).slice(0, 500)}`);
    return (await res.json()) as T;
  };
  // the workbook is made and read before the first request: doing it between the profile's creation and the upload
  // blocked this process for 5-6 s, past the service's keep-alive timeout (5 s), while undici's own timer (4 s) could
  // not run, so the upload went out on the connection the service had just closed ('fetch failed', once in five runs)
  const dtol = currentDefinition('dtol');
  const file = await toXlsx(
    dtol.fields.map((f) => f.name),
    validRows(dtol, VALIDATION_ROWS),
    { typed: true },
  );
  const exceljsStart = performance.now();
  await new ExcelJS.Workbook().xlsx.load(file as unknown as ExcelJS.Buffer);
  const exceljsMs = performance.now() - exceljsStart;
  const profile = await api<{ id: string }>('/api/profiles', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ title: VALIDATION_PROFILE, description: 'created and removed by bench/http.ts', type: 'dtol' }),
  });
  try {
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

/** The engine the service runs on, as the bench reaches it: natural SQL, COPY, and what the service needs. */
interface Engine {
  kind: 'postgres' | 'pglite';
  title: string;
  samples: number;
  query: Query;
  copy: () => Promise<CopyResult>;
  /** the service's database settings (DATABASE_URL, DATA_DIR) */
  serviceEnv: Record<string, string>;
  /** the bare server's: BARE_DATABASE_URL or BARE_PGLITE_DIR */
  bareEnv: Record<string, string>;
  /** the service's sessions that are not idle (PostgreSQL only: PGlite runs inside the service) */
  busy: (() => Promise<Session[]>) | null;
  /** PostgreSQL's client, for the validation run (which only PostgreSQL runs) */
  sql: postgres.Sql | null;
  /** lines for the section's header: engine, settings, database */
  lines: string[];
  close(): Promise<void>;
}

async function postgresEngine(work: string): Promise<Engine> {
  progress('preparing the PostgreSQL database');
  const db = await prepareDatabase();
  const adminDb = await openDatabase({ url: db.url, max: 1 });
  try {
    await ensureAdmin(adminDb);
  } finally {
    await adminDb.close();
  }
  const sql = pg(db.url, 2);
  const [engine] = await sql`select version() as v`;
  const [size] = await sql`select pg_table_size('samples') as t, pg_indexes_size('samples') as i`;
  return {
    kind: 'postgres',
    title: 'PostgreSQL',
    samples: SAMPLES,
    // prepared, as postgres-js's tagged templates are by default
    query: async (text, params = []) => await sql.unsafe(text, params as never[], { prepare: true }),
    copy: () => copyAll(db.url),
    serviceEnv: { DATABASE_URL: db.url, DATA_DIR: work },
    bareEnv: { BARE_DATABASE_URL: db.url },
    busy: () => sql<Session[]>`
      select pid, coalesce(state, '') as state, left(regexp_replace(query, '\\s+', ' ', 'g'), 120) as query
      from pg_stat_activity
      where datname = ${DB_NAME} and backend_type = 'client backend' and application_name <> ${APP_NAME}
        and coalesce(state, '') not in ('idle')`,
    sql,
    lines: [
      `- engine: ${String(engine?.v)}`,
      `- settings: BENCH_DATABASE_URL=${redact(SERVER_URL)} (database \`${DB_NAME}\`), SAMPLES=${int(SAMPLES)}, RUNS=${RUNS}, BENCH_SECONDS=${SECONDS}`,
      db.reused
        ? `- database: reused (seeded ${db.seededAt}, when seeding took ${secs(db.seedMs)} + index build ${secs(db.indexMs)} + VACUUM ANALYZE ${secs(db.vacuumMs)})${db.note}`
        : `- database: created and seeded now: ${secs(db.seedMs)} seeding, ${secs(db.indexMs)} index build, ${secs(db.vacuumMs)} VACUUM ANALYZE`,
      `- samples table ${mbOf(Number(size?.t))}, its indexes ${mbOf(Number(size?.i))}`,
      `- natural SQL and COPY: postgres-js from the bench process, on the same database`,
    ],
    close: () => sql.end(),
  };
}

async function pgliteEngine(work: string): Promise<Engine> {
  progress('preparing the PGlite data dir');
  const seed = await preparePglite();
  const copyStart = performance.now();
  const serviceDir = path.join(work, 'service');
  const sqlDir = path.join(work, 'sql');
  const bareDir = path.join(work, 'bare');
  // the service opens DATA_DIR/pglite (lib/server/runtime.ts)
  for (const to of [path.join(serviceDir, 'pglite'), sqlDir, bareDir]) cpSync(seed.dir, to, { recursive: true });
  const copyMs = performance.now() - copyStart;
  const database = await openDatabase({ pgliteDir: sqlDir });
  const pglite = database.pglite;
  if (!pglite) throw new Error('no PGlite');
  const query: Query = async (text, params = []) => (await pglite.query(text, params)).rows;
  const [engine] = (await query('select version() as v')) as { v: string }[];
  const [size] = (await query(`select pg_table_size('samples') as t, pg_indexes_size('samples') as i`)) as { t: number; i: number }[];
  return {
    kind: 'pglite',
    title: 'PGlite',
    samples: PGLITE_SAMPLES,
    query,
    copy: () => copyPglite(pglite),
    // an empty DATABASE_URL is none (lib/config.ts), whatever the bench's own environment holds
    serviceEnv: { DATABASE_URL: '', DATA_DIR: serviceDir },
    bareEnv: { BARE_PGLITE_DIR: bareDir },
    busy: null,
    sql: null,
    lines: [
      `- engine: PGlite (${String(engine?.v)})`,
      `- settings: BENCH_HTTP_ENGINE=${ENGINE_CHOICE}, BENCH_PGLITE_SAMPLES=${int(PGLITE_SAMPLES)} (default the smaller of SAMPLES and 100,000: PGlite seeds some 1,700 samples/s here, so 1,000,000 would take 10-15 minutes), RUNS=${RUNS}, BENCH_SECONDS=${SECONDS}`,
      seed.reused
        ? `- data dir: ${path.relative(root, seed.dir)} reused (seeded ${seed.seededAt}, when seeding took ${secs(seed.seedMs)} + index build ${secs(seed.indexMs)} + VACUUM ANALYZE ${secs(seed.vacuumMs)}); copied three times in ${secs(copyMs)}`
        : `- data dir: ${path.relative(root, seed.dir)} seeded now: ${secs(seed.seedMs)} seeding, ${secs(seed.indexMs)} index build, ${secs(seed.vacuumMs)} VACUUM ANALYZE; copied three times in ${secs(copyMs)}`,
      `- samples table ${mbOf(Number(size?.t))}, its indexes ${mbOf(Number(size?.i))}`,
      '- natural SQL and COPY: a PGlite of the same version in the bench process, on its own copy of the same data dir ' +
        '(one PGlite cannot be opened by two processes); the bare server opens a third copy',
    ],
    close: () => database.close(),
  };
}

interface Verdict {
  measure: string;
  now: string;
  goal: string;
  met: boolean;
}

const verdictOf = (met: boolean) => (met ? 'met' : '**NOT met**');
const ratio = (x: number) => x.toFixed(2);

/** One engine's run: the service on it, every measure, and the summary rows. */
async function runEngine(kind: Engine['kind'], build: { ms: number }): Promise<Verdict[]> {
  const work = mkdtempSync(path.join(tmpdir(), `rmb-bench-http-${kind}-`));
  const stops: (() => Promise<void>)[] = [async () => rmSync(work, { recursive: true, force: true })];
  try {
    const engine = kind === 'postgres' ? await postgresEngine(work) : await pgliteEngine(work);
    stops.unshift(() => engine.close());
    const probe = await probeOf(engine.query);
    const repositories = await startRepositoryServer({ taxa: buildTaxonRecords().records });
    stops.unshift(async () => repositories.close());

    out();
    out(`## ${engine.title}, ${int(engine.samples)} samples`);
    out();
    for (const line of engine.lines) out(line);
    const svc = await startProcess(
      [...SERVICE_NODE_FLAGS, ...(CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF}`] : []), '.next/api-server.mjs'],
      {
        ...SERVICE_ENV,
        NODE_ENV: 'production',
        ...engine.serviceEnv,
        NEXTAUTH_SECRET: 'bench-http-secret',
        ADMIN_USERNAME: ADMIN.username,
        ADMIN_PASSWORD: ADMIN.password,
        LOG_LEVEL: 'warn',
        ...standInUrls(repositories),
      },
      '/api/health',
    );
    stops.unshift(() => svc.stop());
    out(
      `- service: \`${SERVICE_ENV_TEXT} node ${SERVICE_NODE_FLAGS.join(' ')} .next/api-server.mjs\` (built in ${secs(build.ms)}), pid ${svc.pid}, NODE_ENV=production, LOG_LEVEL=warn, RSS ${mbOf(rssOf(svc.pid))} at start`,
    );
    out(
      `- probe values: svc_id ${probe.svcId}, accession ${probe.biosampleAccession}, taxon ${probe.taxonId}, manifest ${probe.manifestId}, name "${probe.scientificName}", day 2020-01-02`,
    );
    const key = await apiKeyOf(svc.url);
    const verdicts: Verdict[] = [];
    progress(`${engine.title}: starting the bare node:http server`);
    const svcPath = `/api/sample/svc_id/${probe.svcId}`;
    const bare = await startProcess(
      ['--import', 'tsx', 'bench/http.ts', '--bare-server'],
      { ...engine.bareEnv, NODE_ENV: 'production' },
      svcPath,
    );
    stops.unshift(() => bare.stop());
    const driver = engine.kind === 'postgres' ? 'postgres-js' : 'PGlite';

    // 1. ------------------------------------------------------------------------------------------------------
    progress(`${engine.title}: point look-ups and lists, ${RUNS} rounds each after ${warmUpText}`);
    const results: CaseResult[] = [];
    for (const c of casesOf(probe)) {
      const r = await measureCase(svc.url, c, engine.query);
      progress(`${c.name}: ${r.rows} rows, floor ${ms(r.floorMs)}, HTTP ${ms(r.httpMs)}, SQL ${ms(r.sqlMs)} ms`);
      results.push(r);
    }
    // the same look-up from the bare server, measured the same way: what this measure reads with no framework at all
    const lookUp = results.find((r) => r.case.short === 'svc_id');
    const limit = lookUp ? await measureCase(bare.url, lookUp.case, engine.query) : null;
    if (limit) progress(`bare server svc_id: floor ${ms(limit.floorMs)}, HTTP ${ms(limit.httpMs)}, SQL ${ms(limit.sqlMs)} ms`);
    out();
    out(
      `### Point look-ups and lists (medians of ${RUNS} after a warm-up of ${warmUpText}; the floor \`${FLOOR_PATH}\`, the endpoint and the SQL interleaved, keep-alive)`,
    );
    out();
    out(
      `The cold ratio is the same measure over the first ${RUNS} rounds of the warm-up, on a service that has not run the request before: each of its pool's connections plans a prepared statement afresh on its first five runs, and V8 has not compiled the request's code yet.`,
    );
    out();
    if (SPREAD_WINDOWS) {
      out(
        `The spread is the same measure over further windows of ${RUNS} rounds on the same service (${SPREAD_MS / 1000} s of them, ${SPREAD_WINDOWS} at least): ` +
          `the p10–p90 of their ratios, then the ratio of the medians of all their rounds pooled. The verdict is the first window's, as issue 28 sets it; the spread says how far one window moves from the next.`,
      );
      out();
    }
    out(
      '| request | rows | warm-up rounds | floor ms | HTTP ms | natural SQL ms | (HTTP − floor) / SQL | cold | spread: windows, p10–p90, pooled | goal | verdict |',
    );
    out('|---|---|---|---|---|---|---|---|---|---|---|');
    for (const r of results) {
      const rows = r.rows === r.sqlRows ? String(r.rows) : `${r.rows} (SQL ${r.sqlRows})`;
      const goal = GROUP_GOAL[r.case.group];
      const spread = r.spread ? `${r.spread.windows}, ${ratio(r.spread.p10)}–${ratio(r.spread.p90)}, ${ratio(r.spread.pooled)}` : '—';
      out(
        `| ${r.case.name} | ${rows} | ${int(r.warmRounds)} | ${ms(r.floorMs)} | ${ms(r.httpMs)} | ${ms(r.sqlMs)} | ${ratio(r.ratio)} | ${ratio(r.coldRatio)} | ${spread} | ≤ ${goal} | ${verdictOf(r.ratio <= goal)} |`,
      );
    }
    if (limit) {
      const spread = limit.spread
        ? `${limit.spread.windows}, ${ratio(limit.spread.p10)}–${ratio(limit.spread.p90)}, ${ratio(limit.spread.pooled)}`
        : '—';
      out(
        `| the limit: a bare \`node:http\` server answering \`sample/svc_id/{id}\` with the same driver (${driver}), its floor a constant answer | ${limit.rows} | ${int(limit.warmRounds)} | ${ms(limit.floorMs)} | ${ms(limit.httpMs)} | ${ms(limit.sqlMs)} | ${ratio(limit.ratio)} | ${ratio(limit.coldRatio)} | ${spread} | — | — |`,
      );
      out();
      out(
        'The last row is the same measure of a server with no framework, no contract and no rendering: the cost of a database round trip made from inside an HTTP request, over one made by the client itself, on this machine.',
      );
    }
    const groupVerdict = (group: Group, measure: string, note = '') => {
      const rs = results.filter((r) => r.case.group === group);
      verdicts.push({
        measure,
        now: rs.map((r) => `${r.case.short} ${ratio(r.ratio)}`).join(', ') + note,
        goal: `≤ ${GROUP_GOAL[group]}`,
        met: rs.every((r) => r.ratio <= GROUP_GOAL[group]),
      });
    };
    groupVerdict(
      'lookup',
      'one-record look-ups (`sample/svc_id`, `sample/biosampleAccessions`): (HTTP − floor) / SQL',
      limit
        ? ` (a bare \`node:http\` server's \`svc_id\`: ${ratio(limit.ratio)}${limit.spread ? `, pooled ${ratio(limit.spread.pooled)}` : ''})`
        : '',
    );
    groupVerdict('point-list', '`manifest/{id}/sample_status`, `audit/sample/manifest_id`: same measure');
    groupVerdict(
      'list',
      'lists of ~500 (`sample/taxon_id`, `manifest/{id}`, one day of `sample/{from}/{to}`, `sample_field`): same measure',
    );

    progress(`${engine.title}: /api/health beside the floor`);
    const health = await measureHealth(svc.url);
    out();
    out(
      `\`/api/health\`: **${ms(health.healthMs)} ms** at p50 (median of ${RUNS}, one keep-alive client, interleaved with the floor ` +
        `\`${FLOOR_PATH}\` at ${ms(health.floorMs)} ms); goal ≤ ${GOAL.healthP50Ms} ms: ${verdictOf(health.healthMs <= GOAL.healthP50Ms)}`,
    );

    // 2. ------------------------------------------------------------------------------------------------------
    progress(`autocannon ${CONNECTIONS} connections × ${SECONDS} s: service svc_id`);
    const tSvc = await throughput(svc.url, svcPath);
    progress(`autocannon ${CONNECTIONS} connections × ${SECONDS} s: service health`);
    const tHealth = await throughput(svc.url, '/api/health');
    progress(`autocannon ${CONNECTIONS} connections × ${SECONDS} s: bare server svc_id`);
    const tBare = await throughput(bare.url, svcPath);
    await bare.stop();
    out();
    out(`### Throughput (autocannon, ${CONNECTIONS} connections, ${SECONDS} s each, after a ${Math.min(2, SECONDS)} s warm-up)`);
    out();
    out('| target | req/s | p50 ms | p99 ms | max ms | non-2xx | errors |');
    out('|---|---|---|---|---|---|---|');
    const row = (name: string, r: autocannon.Result) =>
      out(
        `| ${name} | ${int(r.requests.average)} | ${r.latency.p50} | ${r.latency.p99} | ${r.latency.max} | ${r.non2xx} | ${r.errors + r.timeouts} |`,
      );
    row('service `sample/svc_id/{id}`', tSvc);
    row('service `/api/health`', tHealth);
    row(`bare node:http + ${driver}, same record`, tBare);
    const share = tSvc.requests.average / tBare.requests.average;
    const throughputMet = share >= GOAL.throughputShare && tSvc.latency.p99 <= GOAL.p99Ms && tSvc.non2xx + tSvc.errors === 0;
    out();
    out(
      `svc_id / bare server: **${(share * 100).toFixed(0)}%**, p99 ${tSvc.latency.p99} ms (goal ≥ ${GOAL.throughputShare * 100}%, p99 ≤ ${GOAL.p99Ms} ms): ${verdictOf(throughputMet)}; ` +
        `svc_id / health: ${((tSvc.requests.average / tHealth.requests.average) * 100).toFixed(0)}%`,
    );
    verdicts.push({
      measure: `\`sample/svc_id\` at ${CONNECTIONS} connections / a bare \`node:http\` server answering the same row with the same driver (${driver})`,
      now: `${int(tSvc.requests.average)} vs ${int(tBare.requests.average)} req/s = ${(share * 100).toFixed(0)}%, p99 ${tSvc.latency.p99} ms${
        tSvc.non2xx + tSvc.errors ? `, ${tSvc.non2xx} non-2xx, ${tSvc.errors} errors` : ''
      }`,
      goal: `≥ ${GOAL.throughputShare * 100}%, p99 ≤ ${GOAL.p99Ms} ms`,
      met: throughputMet,
    });

    // 3. ------------------------------------------------------------------------------------------------------
    const auth = { authorization: `token ${key}` };
    // COPY before the exports and after them, the faster as the limit: the first full read of the table in a run
    // found less of it in the operating system's cache than the reads after it (on the machines here the cache kept
    // about three quarters of a 2 GB table), and it used to be the browser's export, 0.52-0.66 of COPY in three runs
    // of four where the same build read 0.92-1.01 when it came second
    progress(`${engine.title}: COPY of the same rows, before the exports`);
    const copyBefore = await engine.copy();
    progress(`${engine.title}: the portal browser's CSV of every sample`);
    const browse = await readExport(svc.url, '/api/samples/browse?return_type=csv', svc.pid, 'csv', auth);
    progress(`${engine.title}: the query API's CSV of every sample`);
    const csv = await readExport(svc.url, `/api/sample/${ALL_FROM}/${ALL_TO}?return_type=csv`, svc.pid, 'csv');
    progress(`${engine.title}: the query API's JSON of every sample`);
    const json = await readExport(svc.url, `/api/sample/${ALL_FROM}/${ALL_TO}`, svc.pid, 'json');
    progress(`${engine.title}: COPY of the same rows, after the exports`);
    const copyAfter = await engine.copy();
    const rate = (r: { rows: number; ms: number }) => r.rows / (r.ms / 1000);
    const copy = rate(copyAfter) > rate(copyBefore) ? copyAfter : copyBefore;
    const growth = (r: ExportResult) => (r.rssPeak - r.rssBase) / MiB;
    const mem = (r: ExportResult) =>
      `${mbOf(r.rssBase)} → ${mbOf(r.rssPeak)} (+${mbOf(r.rssPeak - r.rssBase)}; from ${mbOf(r.rssIdle)} before its warm-up, +${mbOf(Math.max(0, r.rssPeak - r.rssIdle))})`;
    const exportMet = (r: ExportResult) => rate(r) / rate(copy) >= GOAL.exportRate && growth(r) <= GOAL.exportRssMb && r.rows === copy.rows;
    out();
    out(`### Exports of every sample (body read to the end, after its first ${mbOf(EXPORT_WARMUP_BYTES)} read and dropped)`);
    out();
    out('| export | rows | size | time | rows/s | × COPY rate | service RSS (peak) | goal | verdict |');
    out('|---|---|---|---|---|---|---|---|---|');
    const exportRow = (name: string, r: ExportResult) =>
      out(
        `| ${name} | ${int(r.rows)} | ${mbOf(r.bytes)} | ${secs(r.ms)} | ${int(rate(r))} | ${ratio(rate(r) / rate(copy))} | ${mem(r)} | ≥ ${GOAL.exportRate}, RSS ≤ +${GOAL.exportRssMb} MB | ${verdictOf(exportMet(r))} |`,
      );
    exportRow('portal browser CSV (`samples/browse?return_type=csv`, admin API key)', browse);
    exportRow(`query API CSV (\`sample/${ALL_FROM}/${ALL_TO}?return_type=csv\`)`, csv);
    exportRow(`query API JSON (\`sample/${ALL_FROM}/${ALL_TO}\`)`, json);
    const copyName =
      engine.kind === 'postgres'
        ? 'PostgreSQL `COPY (…) TO STDOUT (FORMAT csv)` via postgres-js'
        : "PGlite `COPY (…) TO '/dev/blob' (FORMAT csv)`, in the bench's PGlite";
    for (const [when, c] of [
      ['before the exports', copyBefore],
      ['after them', copyAfter],
    ] as const) {
      out(
        `| ${copyName}, ${when} | ${int(c.rows)} | ${mbOf(c.bytes)} | ${secs(c.ms)} | ${int(rate(c))} | ${c === copy ? '1.00 (the limit)' : ratio(rate(c) / rate(copy))} | — | | |`,
      );
    }
    out();
    out(
      'COPY selects the columns the service reads for each sample (fields as one JSON cell, the profile title joined), ' +
        'in the same order (time_created desc, id desc); the API expands the fields into columns. It runs before the ' +
        'exports and after them, and the faster is the limit. JSON rows are its number_found. An export whose rows ' +
        'differ from COPY’s is NOT met whatever its rate.' +
        (engine.kind === 'pglite'
          ? ' PGlite has no COPY stream to a client: its COPY writes the whole CSV into memory (/dev/blob), and the time includes reading that blob.'
          : ''),
    );
    verdicts.push({
      measure: 'CSV of every sample from the portal’s sample browser (`/api/samples/browse?return_type=csv`) / `COPY` of the same rows',
      now: `${ratio(rate(browse) / rate(copy))} (${int(rate(browse))} vs ${int(rate(copy))} rows/s${browse.rows === copy.rows ? '' : `; ${int(browse.rows)} rows vs COPY's ${int(copy.rows)}`}), RSS +${mbOf(browse.rssPeak - browse.rssBase)} (from idle +${mbOf(Math.max(0, browse.rssPeak - browse.rssIdle))})`,
      goal: `≥ ${GOAL.exportRate}, RSS growth ≤ ${GOAL.exportRssMb} MB`,
      met: exportMet(browse),
    });
    verdicts.push({
      measure: 'CSV and JSON of every sample through the query API (`sample/{from}/{to}`) / `COPY`',
      now: `CSV ${ratio(rate(csv) / rate(copy))}, JSON ${ratio(rate(json) / rate(copy))} (${int(rate(csv))}, ${int(rate(json))} vs ${int(rate(copy))} rows/s), RSS +${mbOf(csv.rssPeak - csv.rssBase)}, +${mbOf(json.rssPeak - json.rssBase)} (from idle +${mbOf(Math.max(0, csv.rssPeak - csv.rssIdle))}, +${mbOf(Math.max(0, json.rssPeak - json.rssIdle))})`,
      goal: `≥ ${GOAL.exportRate}, RSS growth ≤ ${GOAL.exportRssMb} MB`,
      met: exportMet(csv) && exportMet(json),
    });
    verdicts.push({
      measure: '`/api/health`',
      now: `${ms(health.healthMs)} ms at p50 (floor ${ms(health.floorMs)} ms)`,
      goal: `≤ ${GOAL.healthP50Ms} ms at p50`,
      met: health.healthMs <= GOAL.healthP50Ms,
    });

    out();
    out('#### A client that disconnects');
    out();
    progress(`${engine.title}: disconnect check`);
    for (const line of await disconnectCheck(svc.url, svc.pid, engine.busy)) out(line);

    // 4. ------------------------------------------------------------------------------------------------------
    out();
    out(`### Validation end to end (${int(VALIDATION_ROWS)}-row DTOL manifest, taxonomy from the local stand-in)`);
    out();
    if (engine.sql) {
      progress(`${engine.title}: validation end to end`);
      try {
        for (const line of await validationEndToEnd(svc.url, key, engine.sql)) out(line);
      } catch (err) {
        // fetch's own message ('fetch failed') says nothing: its cause does
        const cause = err instanceof Error && err.cause instanceof Error ? ` (${err.cause.message})` : '';
        out(`validation end to end failed: ${err instanceof Error ? err.message : String(err)}${cause}`);
      }
    } else {
      out('Not run on PGlite: it is no row of issue 28, and `npm run bench` measures validation on the embedded database.');
    }

    const warnings = svc.lines.filter((l) => /"level":(40|50|60)/.test(l));
    out();
    out(`- service log: ${warnings.length} warning/error lines${warnings.length ? `; last: ${warnings.at(-1)?.slice(0, 300)}` : ''}`);
    out(
      engine.kind === 'postgres'
        ? `- database \`${DB_NAME}\` kept for the next run; drop it with: psql '${redact(SERVER_URL)}' -c 'drop database ${DB_NAME} with (force)'`
        : `- PGlite data dir .data/bench-http-pglite-${PGLITE_SAMPLES} kept for the next run (the copies are removed)`,
    );
    return verdicts;
  } finally {
    for (const stop of stops) await stop().catch((err: unknown) => console.error('cleanup:', err));
  }
}

async function main() {
  const started = new Date();
  const kinds: Engine['kind'][] =
    ENGINE_CHOICE === 'both' ? ['postgres', 'pglite'] : ENGINE_CHOICE === 'pglite' ? ['pglite'] : ['postgres'];
  if (!['postgres', 'pglite', 'both'].includes(ENGINE_CHOICE))
    throw new Error(`BENCH_HTTP_ENGINE=${ENGINE_CHOICE}: postgres, pglite or both`);
  try {
    out(`# bench:http — ${started.toISOString()}`);
    out();
    out(`- machine: ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), Node ${process.version}`);
    out(`- engines: ${kinds.join(', ')} (BENCH_HTTP_ENGINE=${ENGINE_CHOICE})`);
    out(
      `- ratios: (HTTP − floor) / natural SQL, the floor being \`${FLOOR_PATH}\` (a route that reads no database: the cost of Next.js's build and Hono alone), medians of ${RUNS} interleaved rounds after a warm-up of ${warmUpText}${SPREAD_WINDOWS ? `, then ${SPREAD_MS / 1000} s (${SPREAD_WINDOWS} windows at least) of further windows of ${RUNS} for the spread` : ''}`,
    );
    progress('building the service (scripts/build-server.mjs)');
    const buildStart = performance.now();
    execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
    const build = { ms: performance.now() - buildStart };
    const summaries: { kind: Engine['kind']; verdicts: Verdict[] }[] = [];
    for (const kind of kinds) summaries.push({ kind, verdicts: await runEngine(kind, build) });

    out();
    out("## Summary: issue 28's table");
    for (const { kind, verdicts } of summaries) {
      out();
      out(kind === 'postgres' ? `### PostgreSQL, ${int(SAMPLES)} samples` : `### PGlite, ${int(PGLITE_SAMPLES)} samples`);
      out();
      out('| measure | now | goal | verdict |');
      out('|---|---|---|---|');
      for (const v of verdicts) out(`| ${v.measure} | ${v.now} | ${v.goal} | ${verdictOf(v.met)} |`);
      out('| the README’s `npm test` on a fresh clone | not measured by bench:http | ≤ 300 s | — |');
      out();
      out(`${verdicts.filter((v) => v.met).length} of ${verdicts.length} goals met.`);
    }
  } finally {
    agent.destroy();
  }
}

if (process.argv.includes('--bare-server')) {
  await bareServer();
} else {
  killProcessesOnSignal();
  await main();
}
