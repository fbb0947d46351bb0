/**
 * `npm run bench:pages`: the portal's pages as a person on a phone meets them (issue 60). The built service
 * (`node .next/server.mjs`, as `npm start` runs it) on PostgreSQL holding SAMPLES samples, and Lighthouse's default
 * mobile run (formFactor mobile, simulated throttling: a mid-range phone on a slow 4G link) over every portal page,
 * signed in as the person who uses it:
 *
 *   - a researcher who owns the profiles: home, profiles, a profile, manifests, a manifest, a validation report, a
 *     sample, submissions, studies;
 *   - a sample manager of ASG with REVIEW_WAITING samples waiting for them: the review queue, the sample browser, the
 *     audit;
 *   - an admin: the admin pages;
 *   - nobody: the public dashboard.
 *
 * It prints one markdown table (each page's performance, accessibility and best-practices scores, LCP, total
 * blocking time, the JavaScript the page downloads on its first load as sent over the wire, DOM elements, long
 * tasks, and Lighthouse's CPU benchmark index of the machine, which says how busy it was) with a verdict against
 * issue 60's goals, then for each page that misses one what Lighthouse's diagnostics say about it, and exits 1 when
 * any goal is missed.
 *
 *   BENCH_DATABASE_URL  a PostgreSQL server (default postgres://postgres@127.0.0.1:5432/postgres); the bench creates its
 *                       database on it and keeps it for the next run while it holds the expected rows
 *   BENCH_DB_NAME       the database's name (default rmb_bench_pages)
 *   SAMPLES             samples to seed (default 100,000; 500 a manifest, so 200 manifests)
 *   PAGES               only the pages whose name or path contains one of these comma-separated words
 *   BENCH_PAGES_REPORTS a directory: each page's whole Lighthouse result is written there as JSON
 *   BENCH_PAGES_TRACES  a directory: each run's Chromium trace is written there (`<page>-<run>.trace.json`, for
 *                       DevTools' Performance panel): what a long task ran, which Lighthouse's result does not say
 *   CHROME_PATH         the browser (default /usr/bin/chromium), started headless by chrome-launcher
 *   BENCH_PAGES_RUNS    Lighthouse runs of each page (default 3); the run nearest the median (Lighthouse's own
 *                       choice, core/lib/median-run.js) is the one reported, since one run's TBT moves with the machine
 *   BENCH_PAGES_BUILD   auto (default): build when the sources are newer than the build; always; or never (measure
 *                       the build there is, said so in the output)
 *
 * By default the service is built first when its sources are newer than the build (`npm run build`: Next.js, then
 * scripts/build-server.mjs and scripts/compile-hints.mjs), as `npm start` does. Each page is fetched twice before
 * Lighthouse loads it, so that the figures are those of a running service rather than of its first request. No assertion on time beyond the goals:
 * it is a benchmark, and the scores move with the machine's load.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Result } from 'lighthouse';
import { computeMedianRun, filterToValidRuns } from 'lighthouse/core/lib/median-run.js';
import postgres from 'postgres';
import { openDatabase } from '../db/client';
import { TOL_PROJECTS } from '../db/schema';
import { currentDefinition } from '../lib/manifests';
import { createUser, updateUser } from '../lib/users/users';
import { SERVICE_ENV, SERVICE_NODE_FLAGS } from '../scripts/node-flags.mjs';
import { validRows } from '../tests/fixtures/manifests/generate';
import { buildTaxonRecords } from '../tests/fixtures/manifests/taxa';
import { toXlsx } from '../tests/fixtures/manifests/workbook';
import { startRepositoryServer } from '../tests/support/repository-server';
import { reuseOrRecreate, withDatabase } from './databases';
import { killProcessesOnSignal, standInUrls, startProcess } from './processes';
import { execFor, seedBulkSamples } from './query-seed';

const root = path.resolve(import.meta.dirname, '..');
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = process.env.BENCH_DB_NAME ?? 'rmb_bench_pages';
const SAMPLES = Number(process.env.SAMPLES ?? 100_000);
const PER_MANIFEST = 500;
const REVIEW_WAITING = 1_000;
const REPORT_ROWS = 500;
/** every REPORT_ERROR_EVERY-th row of the report's manifest names an organism part no vocabulary has */
const REPORT_ERROR_EVERY = 25;
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const REPORTS_DIR = process.env.BENCH_PAGES_REPORTS;
const TRACES_DIR = process.env.BENCH_PAGES_TRACES;
const RUNS = Math.max(1, Number(process.env.BENCH_PAGES_RUNS ?? 3));
const BUILD = process.env.BENCH_PAGES_BUILD ?? 'auto';
const ONLY = (process.env.PAGES ?? '')
  .split(',')
  .map((w) => w.trim().toLowerCase())
  .filter(Boolean);
/** issue 60's goals */
const GOAL = { performance: 90, accessibility: 95, bestPractices: 95, lcpMs: 2500, tbtMs: 200, jsKb: 250 } as const;
const KB = 1024;

const out = (line = '') => console.log(line);
const progress = (line: string) => console.error(`  … ${line}`);
const int = (x: number) => Math.round(x).toLocaleString('en');
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const kb = (bytes: number) => `${(bytes / KB).toFixed(0)} KB`;
const redact = (url: string) => {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
};

// ---------------------------------------------------------------------------------------------------------------
// The people who use the pages

type Role = 'researcher' | 'manager' | 'admin';
interface Person {
  username: string;
  password: string;
}
/** the researcher is the seed's owner of every profile (bench/query-seed.ts), given a password here */
const PEOPLE: Record<Role, Person> = {
  researcher: { username: 'bench-owner', password: 'bench-pages-researcher-password' },
  manager: { username: 'bench-pages-manager', password: 'bench-pages-manager-password' },
  admin: { username: 'bench-pages-admin', password: 'bench-pages-admin-password' },
};
/** the project whose sample manager has REVIEW_WAITING samples waiting */
const MANAGED = 'asg';

// ---------------------------------------------------------------------------------------------------------------
// 1. The database: reused when it holds the expected rows, else created, migrated and seeded

/** What the pages open: ids of rows the seed made (query-seed.ts names them by their generate_series number). */
interface Seeded {
  url: string;
  reused: boolean;
  seededAt: string;
  seedMs: number;
  /** the first profile, its manifest and the 20th sample (accepted, with a change in the audit) */
  profileId: string;
  manifestId: string;
  svcId: string;
  /** the validation report, made through the service once it runs (null until then) */
  reportId: string | null;
}

const pg = (url: string) => postgres(url, { max: 1, onnotice: () => {} });
const PROFILE_ID = '0'.repeat(24);
const MANIFEST_OF = (m: number) => `md5('manifest${m}')::uuid`;
const SAMPLE_OF = (g: number) => `substr(md5('${g}'), 1, 24)`;

/** Whether the database holds what a run needs: the samples, manifests, people and the manager's waiting samples. */
async function complete(sql: postgres.Sql): Promise<{ seededAt: string; seedMs: number; reportId: string | null } | null> {
  const [marker] = await sql`select to_regclass('bench_pages_seed') is not null as present`;
  if (!marker?.present) return null;
  const [seed] = await sql`select samples, seeded_at::text as seeded_at, seed_ms, report_id from bench_pages_seed`;
  const [counts] = await sql`select
      (select count(*)::int from samples) as samples,
      (select count(*)::int from manifests) as manifests,
      (select count(*)::int from users where username in ${sql(Object.values(PEOPLE).map((p) => p.username))}) as people,
      (select count(*)::int from samples where status = 'pending') as waiting`;
  const expected = Number(seed?.samples) === SAMPLES && Number(counts?.samples) === SAMPLES;
  const manifests = Math.ceil(SAMPLES / PER_MANIFEST);
  if (!expected || Number(counts?.manifests) !== manifests || Number(counts?.people) !== 3 || Number(counts?.waiting) !== REVIEW_WAITING)
    return null;
  return { seededAt: String(seed?.seeded_at), seedMs: Number(seed?.seed_ms), reportId: (seed?.report_id as string | null) ?? null };
}

async function prepareDatabase(): Promise<Seeded> {
  const url = withDatabase(SERVER_URL, DB_NAME);
  const ids = async (sql: postgres.Sql) => {
    const [row] = await sql.unsafe(`select ${MANIFEST_OF(0)}::text as manifest, ${SAMPLE_OF(20)} as sample`);
    return { profileId: PROFILE_ID, manifestId: String(row?.manifest), svcId: String(row?.sample) };
  };
  const kept = await reuseOrRecreate(SERVER_URL, DB_NAME, pg, async (sql): Promise<Seeded | null> => {
    const found = await complete(sql);
    if (found) return { url, reused: true, ...found, ...(await ids(sql)) };
    progress(`database ${DB_NAME} does not hold the expected rows: seeding it again`);
    return null;
  });
  if (kept) return kept;

  const database = await openDatabase({ url, max: 2 });
  try {
    const exec = execFor(database);
    // secondary indexes dropped for the bulk load and built after it, as bench/http.ts seeds
    const defs = (await exec(`
      select indexname, indexdef from pg_indexes
      where tablename in ('samples', 'sample_updates') and indexname not like '%_pkey'`)) as { indexname: string; indexdef: string }[];
    for (const d of defs) await exec(`drop index if exists "${d.indexname}"`);
    progress(`seeding ${int(SAMPLES)} samples into ${DB_NAME}`);
    const started = performance.now();
    await seedBulkSamples(exec, { samples: SAMPLES, perManifest: PER_MANIFEST, log: progress });
    await shapeForPages(exec);
    for (const d of defs) await exec(d.indexdef);
    await exec('vacuum analyze');
    const seedMs = performance.now() - started;

    const [owner] = await exec('select id from users where username = $1', [PEOPLE.researcher.username]);
    // the seed's owner has no password: the researcher signs in as them, member of every project as a submitter is
    await updateUser(database.db, Number(owner?.id), { password: PEOPLE.researcher.password, memberOf: [...TOL_PROJECTS] });
    await createUser(database.db, { ...PEOPLE.manager, memberOf: [MANAGED], managerOf: [MANAGED] });
    await createUser(database.db, { ...PEOPLE.admin, isAdmin: true, memberOf: [...TOL_PROJECTS], managerOf: [...TOL_PROJECTS] });

    await exec(`create table bench_pages_seed (samples int not null, seeded_at timestamptz not null default now(),
      seed_ms int not null, report_id uuid)`);
    await exec('insert into bench_pages_seed (samples, seed_ms) values ($1, $2)', [SAMPLES, Math.round(seedMs)]);
    const sql = database.sql;
    if (!sql) throw new Error('no PostgreSQL client');
    const [seed] = await exec('select seeded_at::text as t from bench_pages_seed');
    return { url, reused: false, seededAt: String(seed?.t), seedMs, reportId: null, ...(await ids(sql)) };
  } finally {
    await database.close();
  }
}

/**
 * What the bulk seed leaves as the query benchmarks want it, made to look like an instance the pages are used on:
 * REVIEW_WAITING samples of MANAGED waiting for a decision, the other undecided ones rejected; and the collection
 * places spread over the map (the seed's rows copy a handful of templates, so all samples stood on six points): the
 * others' over Europe (34 by 50 one-degree squares), ASG's over a stretch of tropical sea (40 by 20), some 2,500
 * squares on the dashboard's map, which draws 5,000 at most (lib/stats/public.ts).
 */
async function shapeForPages(exec: ReturnType<typeof execFor>): Promise<void> {
  await exec(
    `update samples set status = 'rejected', rejection_reason = 'Declined for the page benchmark'
     where status = 'pending' and id not in (
       select id from samples where status = 'pending' and project = $1 order by time_created, id limit $2)`,
    [MANAGED, REVIEW_WAITING],
  );
  // h: a number from the sample's id, the same on every run
  await exec(`
    update samples s set fields = s.fields || jsonb_build_object(
        'DECIMAL_LATITUDE', round(case when s.project = 'asg' then -20 + (h % 4000) / 100.0 else 36 + (h % 3400) / 100.0 end, 4)::text,
        'DECIMAL_LONGITUDE', round(case when s.project = 'asg' then 100 + (h / 4000 % 2000) / 100.0 else -10 + (h / 3400 % 5000) / 100.0 end, 4)::text)
    from (select id, ('x' || substr(md5(id), 1, 7))::bit(28)::int as h from samples) k
    where k.id = s.id`);
}

// ---------------------------------------------------------------------------------------------------------------
// 2. The service, its validation report, the sessions

/** Whether the build is older than the sources, as scripts/start.mjs decides before `npm start`. */
function buildIsStale(): boolean {
  const newest = (p: string): number => {
    const st = statSync(p);
    if (!st.isDirectory()) return st.mtimeMs;
    let n = 0;
    for (const entry of readdirSync(p)) n = Math.max(n, newest(path.join(p, entry)));
    return n;
  };
  const sources = ['app', 'components', 'lib', 'db', 'server', 'next.config.js', 'package.json', 'instrumentation.ts', 'proxy.ts']
    .map((p) => path.join(root, p))
    .filter(existsSync);
  const sourceTime = Math.max(...sources.map(newest));
  const built = (file: string) => existsSync(file) && statSync(file).mtimeMs >= sourceTime;
  return !built(path.join(root, '.next', 'BUILD_ID')) || !built(path.join(root, '.next', 'server.mjs'));
}

/** An API key of the person's, as a script of theirs would ask for one. */
async function apiKeyOf(base: string, person: Person): Promise<string> {
  const res = await fetch(`${base}/api/apiKey`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(person),
  });
  if (!res.ok) throw new Error(`POST /api/apiKey as ${person.username}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

/**
 * A validation report on the researcher's DTOL profile: REPORT_ROWS rows uploaded through the API and validated by the
 * service's job against the taxonomy stand-in, every REPORT_ERROR_EVERY-th with an error, so that the page shows what
 * a submitter fixes. Made once and kept (its id in bench_pages_seed); made again when it is gone.
 */
async function ensureReport(base: string, seeded: Seeded): Promise<string> {
  const sql = pg(seeded.url);
  try {
    if (seeded.reportId) {
      const [found] = await sql`select status from validation_reports where id = ${seeded.reportId}`;
      if (found?.status === 'complete') return seeded.reportId;
    }
    progress(`validating a ${REPORT_ROWS}-row DTOL manifest for the report page`);
    const dtol = currentDefinition('dtol');
    const rows = validRows(dtol, REPORT_ROWS).map((row, i) =>
      i % REPORT_ERROR_EVERY === REPORT_ERROR_EVERY - 1 ? { ...row, ORGANISM_PART: 'WHOLE TEAPOT' } : row,
    );
    const file = await toXlsx(
      dtol.fields.map((f) => f.name),
      rows,
      { typed: true },
    );
    const key = await apiKeyOf(base, PEOPLE.researcher);
    // profile 1 of the seed is a DTOL one (query-seed.ts: profile p is of project p % 4)
    const profileId = `${'0'.repeat(23)}1`;
    const fd = new FormData();
    fd.set('profile_id', profileId);
    fd.set('file', new File([new Uint8Array(file)], 'bench-pages-dtol.xlsx'));
    const res = await fetch(`${base}/api/manifest/validate`, { method: 'POST', headers: { authorization: `token ${key}` }, body: fd });
    if (res.status !== 202) throw new Error(`POST /api/manifest/validate: ${res.status} ${(await res.text()).slice(0, 500)}`);
    const { report_id } = (await res.json()) as { report_id: string };
    const started = performance.now();
    for (;;) {
      const status = await fetch(`${base}/api/manifest/validate/report/${report_id}/status`, {
        headers: { authorization: `token ${key}` },
      });
      const body = (await status.json()) as { status: string; failure: string | null };
      if (body.status === 'complete') break;
      if (body.status === 'failed') throw new Error(`the report's validation failed: ${body.failure}`);
      if (performance.now() - started > 5 * 60_000) throw new Error('the validation did not finish within 5 minutes');
      await new Promise((r) => setTimeout(r, 200));
    }
    await sql`update bench_pages_seed set report_id = ${report_id}`;
    return report_id;
  } finally {
    await sql.end();
  }
}

/** The Set-Cookie lines of an answer as name=value pairs. */
const cookiesOf = (res: Response): Map<string, string> =>
  new Map(
    res.headers.getSetCookie().map((line) => {
      const pair = line.split(';')[0] ?? '';
      const eq = pair.indexOf('=');
      return [pair.slice(0, eq), pair.slice(eq + 1)] as const;
    }),
  );

/**
 * Signs in as a person does on the sign-in page (the credentials form posts to next-auth with its CSRF token) and
 * answers the Cookie header the browser then sends: the session cookie the portal's pages read.
 */
async function signIn(base: string, person: Person): Promise<string> {
  const csrf = await fetch(`${base}/api/auth/csrf`);
  if (!csrf.ok) throw new Error(`GET /api/auth/csrf: ${csrf.status}`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const jar = cookiesOf(csrf);
  const res = await fetch(`${base}/api/auth/callback/credentials`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
    },
    body: new URLSearchParams({ csrfToken, username: person.username, password: person.password, callbackUrl: `${base}/`, json: 'true' }),
  });
  const session = [...cookiesOf(res)].filter(([name]) => name.startsWith('next-auth.session-token'));
  if (!session.length) throw new Error(`signing in as ${person.username}: ${res.status}, no session cookie`);
  return session.map(([k, v]) => `${k}=${v}`).join('; ');
}

// ---------------------------------------------------------------------------------------------------------------
// 3. Lighthouse

interface PageCase {
  name: string;
  path: string;
  as: Role | null;
}

/** The few parts of a Lighthouse result this bench reads; everything else stays in the JSON (BENCH_PAGES_REPORTS). */
interface AuditResult {
  score: number | null;
  numericValue?: number;
  displayValue?: string;
  title: string;
  details?: unknown;
}
interface LighthouseResult {
  categories: Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] }>;
  audits: Record<string, AuditResult>;
  runWarnings: string[];
  runtimeError?: { code: string; message: string };
  lighthouseVersion: string;
  finalDisplayedUrl: string;
  /** Lighthouse's measure of the machine's CPU speed as the page loaded: the lower, the busier or slower */
  environment: { benchmarkIndex: number };
}

type Item = Record<string, unknown>;
const itemsOf = (audit: AuditResult | undefined): Item[] => {
  const details = audit?.details as { items?: unknown } | undefined;
  return Array.isArray(details?.items) ? (details.items as Item[]) : [];
};
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * What a script of the build holds, told by a name or message its minified text keeps (the chunks are named by hash
 * and the build ships no source maps): the first marker found, at least `times` times.
 */
const SCRIPT_MARKERS: { marker: string; times: number; holds: string }[] = [
  { marker: 'react-dom', times: 1, holds: 'React DOM' },
  { marker: 'No QueryClient set', times: 1, holds: 'TanStack Query' },
  { marker: 'getCoreRowModel', times: 1, holds: 'TanStack Table' },
  { marker: 'zod', times: 20, holds: 'zod' },
  { marker: 'next-auth', times: 1, holds: 'next-auth' },
  { marker: 'core-js', times: 1, holds: 'core-js polyfills' },
  { marker: 'addBasePath', times: 1, holds: 'Next.js runtime' },
];

/** Names a page's scripts: their path on the service, and what each holds when a marker says (SCRIPT_MARKERS). */
async function scriptNamer(lhr: LighthouseResult, base: string): Promise<(url: string) => string> {
  const holds = new Map<string, string>();
  const urls = new Set(
    itemsOf(lhr.audits['network-requests'])
      .filter((r) => r.resourceType === 'Script')
      .map((r) => str(r.url)),
  );
  for (const url of urls) {
    if (!url.startsWith(base)) continue;
    const text = await fetch(url).then(
      (r) => (r.ok ? r.text() : ''),
      () => '',
    );
    const found = SCRIPT_MARKERS.find((m) => text.split(m.marker).length - 1 >= m.times);
    if (found) holds.set(url, found.holds);
  }
  return (url) => {
    const short = (url.startsWith(base) ? url.slice(base.length) : url) || url;
    const what = holds.get(url);
    return `\`${short}\`${what ? ` (${what})` : ''}`;
  };
}

/** The first DOM node named anywhere in an audit's details (Lighthouse nests the LCP element in a list of tables). */
function nodeIn(value: unknown): string | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Item;
  if (v.type === 'node') {
    const label = str(v.nodeLabel);
    const snippet = str(v.snippet);
    return `${snippet.slice(0, 120)}${label && !snippet.includes(label) ? ` (“${label.slice(0, 60)}”)` : ''}`;
  }
  for (const child of Array.isArray(value) ? value : Object.values(v)) {
    const found = nodeIn(child);
    if (found) return found;
  }
  return null;
}

interface PageResult {
  page: PageCase;
  error: string | null;
  performance: number;
  accessibility: number;
  bestPractices: number;
  lcpMs: number;
  tbtMs: number;
  /** bytes of JavaScript over the wire during the load */
  jsBytes: number;
  /** the same scripts' bytes once decompressed */
  jsResourceBytes: number;
  /** whether the scripts came compressed (Content-Encoding) */
  jsCompressed: boolean;
  domElements: number;
  longTasks: { count: number; totalMs: number };
  benchmarkIndex: number;
  missed: string[];
  diagnostics: string[];
}

const score = (lhr: LighthouseResult, id: string) => Math.round(100 * (lhr.categories[id]?.score ?? 0));

function resultOf(page: PageCase, lhr: LighthouseResult, name: (url: string) => string): PageResult {
  const audits = lhr.audits;
  const requests = itemsOf(audits['network-requests']);
  const scripts = requests.filter((r) => r.resourceType === 'Script');
  const jsBytes = scripts.reduce((sum, r) => sum + num(r.transferSize), 0);
  const jsResourceBytes = scripts.reduce((sum, r) => sum + num(r.resourceSize), 0);
  const longTasks = itemsOf(audits['long-tasks']);
  const dom = audits['dom-size']?.numericValue ?? audits['dom-size-insight']?.numericValue ?? Number.NaN;
  const r: PageResult = {
    page,
    error: lhr.runtimeError ? `${lhr.runtimeError.code}: ${lhr.runtimeError.message}` : null,
    performance: score(lhr, 'performance'),
    accessibility: score(lhr, 'accessibility'),
    bestPractices: score(lhr, 'best-practices'),
    lcpMs: audits['largest-contentful-paint']?.numericValue ?? Number.NaN,
    tbtMs: audits['total-blocking-time']?.numericValue ?? Number.NaN,
    jsBytes,
    jsResourceBytes,
    jsCompressed: jsBytes < jsResourceBytes * 0.8,
    domElements: dom,
    longTasks: { count: longTasks.length, totalMs: longTasks.reduce((sum, t) => sum + num(t.duration), 0) },
    benchmarkIndex: lhr.environment.benchmarkIndex,
    missed: [],
    diagnostics: [],
  };
  const miss = (met: boolean, what: string) => {
    if (!met) r.missed.push(what);
  };
  miss(r.error === null, 'Lighthouse failed');
  miss(r.performance >= GOAL.performance, 'performance');
  miss(r.accessibility >= GOAL.accessibility, 'accessibility');
  miss(r.bestPractices >= GOAL.bestPractices, 'best practices');
  miss(r.lcpMs <= GOAL.lcpMs, 'LCP');
  miss(r.tbtMs <= GOAL.tbtMs, 'TBT');
  miss(r.jsBytes <= GOAL.jsKb * KB, 'JS');
  if (r.missed.length) r.diagnostics = diagnosticsOf(r, lhr, name);
  return r;
}

/** What Lighthouse says about a page that misses a goal: where its time, bytes and failed audits are. */
function diagnosticsOf(r: PageResult, lhr: LighthouseResult, name: (url: string) => string): string[] {
  const audits = lhr.audits;
  const lines: string[] = [];
  if (r.error) lines.push(`Lighthouse: ${r.error}`);
  for (const w of lhr.runWarnings) lines.push(`Lighthouse warned: ${w.replace(/\s+/g, ' ').slice(0, 200)}`);
  const scripts = itemsOf(audits['network-requests'])
    .filter((x) => x.resourceType === 'Script')
    .sort((a, b) => num(b.transferSize) - num(a.transferSize));
  if (scripts.length) {
    const top = scripts.slice(0, 5).map((s) => `${name(str(s.url))} ${kb(num(s.transferSize))} (${kb(num(s.resourceSize))} decoded)`);
    lines.push(
      `scripts: ${scripts.length}, ${kb(r.jsBytes)} over the wire, ${kb(r.jsResourceBytes)} decoded${r.jsCompressed ? '' : ' (sent uncompressed)'}; largest: ${top.join(', ')}`,
    );
  }
  const unused = audits['unused-javascript'];
  const unusedItems = itemsOf(unused);
  if (unusedItems.length) {
    const wasted = unusedItems.reduce((sum, x) => sum + num(x.wastedBytes), 0);
    const top = unusedItems
      .sort((a, b) => num(b.wastedBytes) - num(a.wastedBytes))
      .slice(0, 3)
      .map((x) => `${name(str(x.url))} ${kb(num(x.wastedBytes))}`);
    lines.push(`unused JavaScript: ${kb(wasted)} of what was sent (${top.join(', ')})`);
  }
  const tasks = itemsOf(audits['long-tasks']).sort((a, b) => num(b.duration) - num(a.duration));
  if (tasks.length) {
    const top = tasks.slice(0, 4).map((t) => `${int(num(t.duration))} ms in ${name(str(t.url))}`);
    lines.push(`long tasks: ${tasks.length}, ${int(r.longTasks.totalMs)} ms in all; longest: ${top.join(', ')}`);
  }
  const bootup = itemsOf(audits['bootup-time'])
    .sort((a, b) => num(b.scripting) - num(a.scripting))
    .slice(0, 4)
    .map((x) => `${name(str(x.url))} ${int(num(x.scripting))} ms scripting, ${int(num(x.scriptParseCompile))} ms parse`);
  if (bootup.length) lines.push(`JavaScript execution (simulated phone CPU): ${bootup.join(', ')}`);
  const work = itemsOf(audits['mainthread-work-breakdown'])
    .sort((a, b) => num(b.duration) - num(a.duration))
    .slice(0, 4)
    .map((x) => `${str(x.groupLabel) || str(x.group)} ${int(num(x.duration))} ms`);
  if (work.length) lines.push(`main thread: ${work.join(', ')}`);
  lines.push(`DOM: ${int(r.domElements)} elements`);
  const lcpNode =
    nodeIn(audits['largest-contentful-paint-element']?.details) ??
    nodeIn(audits['lcp-breakdown-insight']?.details) ??
    nodeIn(audits['lcp-discovery-insight']?.details);
  const phases = lcpPhases(lhr);
  if (lcpNode || phases)
    lines.push(`LCP ${secs(r.lcpMs)}: ${lcpNode ? `\`${lcpNode.replace(/`/g, "'")}\`` : 'element not named'}${phases}`);
  for (const category of ['accessibility', 'best-practices']) {
    const failed = (lhr.categories[category]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && audits[ref.id]?.score !== null && (audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => {
        const a = audits[ref.id];
        const node = nodeIn(a?.details);
        return `${ref.id} (${a?.title ?? ''})${node ? `: \`${node.replace(/`/g, "'")}\`` : ''}`;
      });
    if (failed.length) lines.push(`${category} audits failed: ${failed.join('; ')}`);
  }
  return lines;
}

/** The LCP's phases (time to first byte, load delay, load time, render delay), where Lighthouse gives them. */
function lcpPhases(lhr: LighthouseResult): string {
  for (const id of ['largest-contentful-paint-element', 'lcp-breakdown-insight', 'lcp-phases-insight']) {
    const found: string[] = [];
    const walk = (value: unknown) => {
      if (!value || typeof value !== 'object') return;
      const v = value as Item;
      if ((typeof v.phase === 'string' || typeof v.subpart === 'string' || typeof v.label === 'string') && typeof v.timing === 'number')
        found.push(`${str(v.phase) || str(v.subpart) || str(v.label)} ${int(v.timing)} ms`);
      for (const child of Array.isArray(value) ? value : Object.values(v)) walk(child);
    };
    walk(lhr.audits[id]?.details);
    if (found.length) return ` (${found.join(', ')})`;
  }
  return '';
}

/** Loads the page twice with the cookie (so that Lighthouse measures a running service) and fails on a redirect. */
async function warm(url: string, cookie: string | null): Promise<void> {
  for (let i = 0; i < 2; i++) {
    const res = await fetch(url, { headers: cookie ? { cookie } : {}, redirect: 'manual' });
    await res.arrayBuffer();
    if (res.status !== 200)
      throw new Error(`GET ${url}: ${res.status}${res.headers.get('location') ? ` → ${res.headers.get('location')}` : ''}`);
  }
}

const fileName = (pageName: string) => pageName.replace(/[^a-z0-9]+/gi, '-');

async function runLighthouse(url: string, port: number, cookie: string | null, traceFile: string | null): Promise<Result> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility', 'best-practices'],
    ...(cookie && { extraHeaders: { Cookie: cookie } }),
  });
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  if (traceFile) writeFileSync(traceFile, JSON.stringify(result.artifacts.Trace));
  return result.lhr;
}

/**
 * RUNS runs of the page, and the one nearest their median. A run that could not record its trace (Lighthouse's
 * NO_NAVSTART and the like: "please run Lighthouse again") is run again, twice at the most.
 */
async function medianRun(url: string, port: number, cookie: string | null, name: string): Promise<LighthouseResult> {
  const runs: Result[] = [];
  let failed: Result | undefined;
  for (let tries = 0; runs.length < RUNS && tries < RUNS + 2; tries++) {
    const lhr = await runLighthouse(
      url,
      port,
      cookie,
      TRACES_DIR ? path.join(TRACES_DIR, `${fileName(name)}-${tries + 1}.trace.json`) : null,
    );
    if (lhr.runtimeError) failed = lhr;
    else runs.push(lhr);
  }
  const valid = filterToValidRuns(runs);
  const chosen = valid.length ? computeMedianRun(valid) : (runs[0] ?? failed);
  if (!chosen) throw new Error(`Lighthouse gave no result for ${url}`);
  return chosen as unknown as LighthouseResult;
}

// ---------------------------------------------------------------------------------------------------------------

const cell = (x: number, goalMet: boolean) => (goalMet ? String(x) : `**${x}**`);

function printTable(results: PageResult[]): void {
  out(
    `| page | as | performance | accessibility | best practices | LCP | TBT | JS (first load, over the wire) | DOM elements | long tasks | CPU index | verdict |`,
  );
  out('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    if (r.error && Number.isNaN(r.lcpMs)) {
      out(`| ${r.page.name} | ${r.page.as ?? 'public'} | — | — | — | — | — | — | — | — | — | **NOT met**: ${r.error} |`);
      continue;
    }
    const js = `${cell(Number((r.jsBytes / KB).toFixed(0)), r.jsBytes <= GOAL.jsKb * KB)} KB${r.jsCompressed ? '' : ' (uncompressed)'}`;
    out(
      `| ${r.page.name} (\`${r.page.path.length > 30 ? `${r.page.path.slice(0, 30)}…` : r.page.path}\`) | ${r.page.as ?? 'public'} | ` +
        `${cell(r.performance, r.performance >= GOAL.performance)} | ${cell(r.accessibility, r.accessibility >= GOAL.accessibility)} | ` +
        `${cell(r.bestPractices, r.bestPractices >= GOAL.bestPractices)} | ${r.lcpMs <= GOAL.lcpMs ? secs(r.lcpMs) : `**${secs(r.lcpMs)}**`} | ` +
        `${r.tbtMs <= GOAL.tbtMs ? `${int(r.tbtMs)} ms` : `**${int(r.tbtMs)} ms**`} | ${js} | ${int(r.domElements)} | ` +
        `${r.longTasks.count} (${int(r.longTasks.totalMs)} ms) | ${int(r.benchmarkIndex)} | ${r.missed.length ? `**NOT met**: ${r.missed.join(', ')}` : 'met'} |`,
    );
  }
  out();
  out(
    `Goals: performance ≥ ${GOAL.performance}, accessibility ≥ ${GOAL.accessibility}, best practices ≥ ${GOAL.bestPractices}, ` +
      `LCP ≤ ${secs(GOAL.lcpMs)}, TBT ≤ ${GOAL.tbtMs} ms, JavaScript ≤ ${GOAL.jsKb} KB compressed on first load. ` +
      `${results.filter((r) => !r.missed.length).length} of ${results.length} pages meet them all. ` +
      'Long tasks: the main-thread tasks of 50 ms or more in the simulated phone’s load, their number and time. ' +
      "CPU index: Lighthouse's benchmark index of the machine as it loaded the page, the lower the busier; simulated " +
      'throttling scales the main-thread time it observes to a phone, so a busy machine lengthens TBT and lowers performance.',
  );
}

async function main(): Promise<number> {
  const started = new Date();
  out(`# bench:pages — ${started.toISOString()}`);
  out();
  out(`- machine: ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), Node ${process.version}`);

  if (!['auto', 'always', 'never'].includes(BUILD)) throw new Error(`BENCH_PAGES_BUILD=${BUILD}: auto, always or never`);
  const stale = buildIsStale();
  if (BUILD === 'always' || (BUILD === 'auto' && stale)) {
    progress('npm run build');
    const t = performance.now();
    execFileSync('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
    out(`- built: \`npm run build\` in ${secs(performance.now() - t)}`);
  } else {
    out(`- build: the existing one${stale ? ', older than the sources (BENCH_PAGES_BUILD=never)' : ' (newer than the sources)'}`);
  }

  const seeded = await prepareDatabase();
  out(
    `- database: \`${DB_NAME}\` on ${redact(SERVER_URL)}, ${int(SAMPLES)} samples in ${int(Math.ceil(SAMPLES / PER_MANIFEST))} manifests, ` +
      `${int(REVIEW_WAITING)} waiting for the ${MANAGED.toUpperCase()} sample manager; ${seeded.reused ? `reused (seeded ${seeded.seededAt} in ${secs(seeded.seedMs)})` : `seeded now in ${secs(seeded.seedMs)}`}`,
  );

  const stops: (() => Promise<void>)[] = [];
  try {
    const work = mkdtempSync(path.join(tmpdir(), 'rmb-bench-pages-'));
    stops.unshift(async () => rmSync(work, { recursive: true, force: true }));
    const repositories = await startRepositoryServer({ taxa: buildTaxonRecords().records });
    stops.unshift(async () => repositories.close());
    const svc = await startProcess(
      [...SERVICE_NODE_FLAGS, '.next/server.mjs'],
      {
        ...SERVICE_ENV,
        NODE_ENV: 'production',
        DATABASE_URL: seeded.url,
        DATA_DIR: work,
        NEXTAUTH_SECRET: 'bench-pages-secret',
        LOG_LEVEL: 'warn',
        NEXT_TELEMETRY_DISABLED: '1',
        ...standInUrls(repositories),
        LOCAL_CONTEXTS_URL: repositories.localContextsUrl,
        OLS_URL: repositories.olsUrl,
      },
      '/api/health',
    );
    stops.unshift(() => svc.stop());
    // the service's own address is localhost (lib/config.ts baseUrl): next-auth's cookies and redirects name it
    const base = svc.url.replace('127.0.0.1', 'localhost');
    out(`- service: \`node ${SERVICE_NODE_FLAGS.join(' ')} .next/server.mjs\` on ${base}, NODE_ENV=production`);

    const reportId = await ensureReport(base, seeded);
    const cookies: Record<Role, string> = {
      researcher: await signIn(base, PEOPLE.researcher),
      manager: await signIn(base, PEOPLE.manager),
      admin: await signIn(base, PEOPLE.admin),
    };
    const allPages: PageCase[] = [
      { name: 'home', path: '/', as: 'researcher' },
      { name: 'profiles', path: '/profiles', as: 'researcher' },
      { name: 'a profile', path: `/profiles/${seeded.profileId}`, as: 'researcher' },
      { name: 'manifests', path: '/manifests', as: 'researcher' },
      { name: 'a manifest', path: `/manifests/${seeded.manifestId}`, as: 'researcher' },
      { name: 'a validation report', path: `/manifests/reports/${reportId}`, as: 'researcher' },
      { name: 'review queue', path: '/manifests/review', as: 'manager' },
      { name: 'sample browser', path: '/samples', as: 'manager' },
      { name: 'a sample', path: `/samples/${seeded.svcId}`, as: 'researcher' },
      { name: 'audit', path: '/audit', as: 'manager' },
      { name: 'submissions', path: '/submissions', as: 'researcher' },
      { name: 'studies', path: '/studies', as: 'researcher' },
      { name: 'admin: users', path: '/admin/users', as: 'admin' },
      { name: 'admin: jobs', path: '/admin/jobs', as: 'admin' },
      { name: 'admin: reference data', path: '/admin/reference', as: 'admin' },
      { name: 'admin: statistics', path: '/admin/stats', as: 'admin' },
      { name: 'public dashboard', path: '/dashboard', as: null },
    ];
    const pages = allPages.filter((p) => !ONLY.length || ONLY.some((w) => p.name.includes(w) || p.path.includes(w)));

    const chrome = await chromeLauncher.launch({
      chromePath: CHROME_PATH,
      chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    });
    stops.unshift(async () => chrome.kill());
    const chromeVersion = await fetch(`http://127.0.0.1:${chrome.port}/json/version`)
      .then((r) => r.json() as Promise<{ Browser?: string }>)
      .then(
        (v) => v.Browser ?? '?',
        () => '?',
      );
    for (const dir of [REPORTS_DIR, TRACES_DIR]) if (dir) mkdirSync(dir, { recursive: true });

    const results: PageResult[] = [];
    let lighthouseVersion = '?';
    for (const page of pages) {
      const url = base + page.path;
      const cookie = page.as ? cookies[page.as] : null;
      progress(`${page.name}: ${page.path} as ${page.as ?? 'nobody'}`);
      try {
        await warm(url, cookie);
        const lhr = await medianRun(url, chrome.port, cookie, page.name);
        lighthouseVersion = lhr.lighthouseVersion;
        if (REPORTS_DIR) writeFileSync(path.join(REPORTS_DIR, `${fileName(page.name)}.json`), JSON.stringify(lhr));
        results.push(resultOf(page, lhr, await scriptNamer(lhr, base)));
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        results.push({
          page,
          error: message.slice(0, 200),
          performance: 0,
          accessibility: 0,
          bestPractices: 0,
          lcpMs: Number.NaN,
          tbtMs: Number.NaN,
          jsBytes: 0,
          jsResourceBytes: 0,
          jsCompressed: false,
          domElements: Number.NaN,
          longTasks: { count: 0, totalMs: 0 },
          benchmarkIndex: Number.NaN,
          missed: ['Lighthouse failed'],
          diagnostics: [message],
        });
      }
    }

    out(
      `- Lighthouse ${lighthouseVersion}, default mobile settings (formFactor mobile, simulated throttling), in ${chromeVersion} headless; the median of ${RUNS} run${RUNS === 1 ? '' : 's'} of each page`,
    );
    out(`- run took ${secs(Date.now() - started.getTime())}`);
    out();
    printTable(results);
    const missing = results.filter((r) => r.missed.length);
    if (missing.length) {
      out();
      out('### Why, from Lighthouse’s diagnostics');
      for (const r of missing) {
        out();
        out(`**${r.page.name}** (${r.missed.join('; ')})`);
        out();
        for (const line of r.diagnostics) out(`- ${line}`);
      }
    }
    const warnings = svc.lines.filter((l) => /"level":(40|50|60)/.test(l));
    out();
    out(`- service log: ${warnings.length} warning/error lines${warnings.length ? `; last: ${warnings.at(-1)?.slice(0, 300)}` : ''}`);
    out(
      `- database \`${DB_NAME}\` kept for the next run; drop it with: psql '${redact(SERVER_URL)}' -c 'drop database ${DB_NAME} with (force)'`,
    );
    return missing.length ? 1 : 0;
  } finally {
    for (const stop of stops) await stop().catch((err: unknown) => console.error('cleanup:', err));
  }
}

killProcessesOnSignal();
process.exitCode = await main();
