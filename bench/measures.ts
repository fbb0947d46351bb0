/**
 * `npm run bench:measures`: each special measure of the service (docs/benchmarks.md, "Why the special measures are
 * there") measured on its own, in one run: the service as shipped and, beside it, one variant of it per measure with
 * that measure alone taken out, all running at once on bench:http's database, their requests interleaved round by
 * round, so that each variant meets the same machine at the same moment. A second process of the shipped service is
 * the control: how far two identical services differ in the same run is the noise any gain is read against.
 *
 *   - the WebAssembly field copier: a bundle built with lib/standards/writers.ts told that no layout's values can be
 *     copied (what the copier handles is then written by the layout's own functions, as for other rows);
 *   - each performance change of the postgres.js patch (patches/postgres+3.4.9+00N): a copy of the driver with every
 *     change but that one, in the variant's own node_modules, which the bundle resolves before the project's;
 *   - each V8 flag of scripts/node-flags.mjs: the service started without it;
 *   - the C allocator's thresholds (SERVICE_ENV): the service started without them.
 *
 * For each: the latency ratios of issue 28's table ((HTTP − floor) / natural SQL, the SQL's median shared by all
 * variants), throughput at 50 connections, and the query API's JSON and CSV of every sample (rows/s and RSS growth).
 * The gain of a measure on a goal is how much worse the goal's figure is without it, relative to the shipped service.
 *
 *   ROUNDS          measured rounds per request and variant (default 80); MEASURES_LATENCY=0 skips them
 *   WARMUP_SECONDS  each request's warm-up on each variant (default 3)
 *   BENCH_SECONDS   each autocannon run (default 5), THROUGHPUT_PASSES times per variant (default 4)
 *   EXPORT_ROWS     the newest samples each export reads (default 200,000; 0: every sample), EXPORT_PASSES times
 *                   per variant (default 3); MEASURES_EXPORTS=0 skips them
 *   MEASURES        a comma-separated subset of the variants' names (default all)
 *
 * Each pass of throughput and exports takes the variants in a new random order, and the figure is the median of the
 * passes: a service measured first or last in every pass would otherwise read the machine's moment, not itself.
 *
 * It needs `npm run bench:http`'s database (rmb_bench_http, seeded by that bench) and a PostgreSQL server accepting
 * the variants' connections (each holds up to 14: its pool and its job queue's). No assertion on time: it is a
 * benchmark. Run it on a quiet machine.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { build, type Plugin } from 'esbuild';
import postgres from 'postgres';
import { SERVICE_ENV, SERVICE_NODE_FLAGS } from '../scripts/node-flags.mjs';
import { serverBuildOptions } from '../scripts/server-build-options.mjs';
import { buildTaxonRecords } from '../tests/fixtures/manifests/taxa';
import { startRepositoryServer } from '../tests/support/repository-server';
import { agent, type Case, casesOf, countNewlines, FLOOR_PATH, median, probeOf, request, rowsOf } from './http-cases';
import { killProcessesOnSignal, type Proc, rssOf, standInUrls, startProcess } from './processes';

const root = path.resolve(import.meta.dirname, '..');
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DB_NAME = process.env.BENCH_DB_NAME ?? 'rmb_bench_http';
const ROUNDS = Number(process.env.ROUNDS ?? 80);
const WARMUP_MS = 1000 * Number(process.env.WARMUP_SECONDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const EXPORTS = process.env.MEASURES_EXPORTS !== '0';
const LATENCY = process.env.MEASURES_LATENCY !== '0';
const THROUGHPUT_PASSES = Number(process.env.THROUGHPUT_PASSES ?? 4);
const EXPORT_ROWS = Number(process.env.EXPORT_ROWS ?? 200_000);
const EXPORT_PASSES = Number(process.env.EXPORT_PASSES ?? 3);
const WORK = path.join(root, '.data', 'measures');
const CONNECTIONS_PER_SERVICE = 14;
const MiB = 1024 * 1024;

const out = (line = '') => console.log(line);
const progress = (line: string) => console.error(`  … ${line}`);
const int = (x: number) => Math.round(x).toLocaleString('en');
const pct = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(0)}%`;

/** One service to measure: the shipped one, its control, or the shipped one less one measure. */
interface Variant {
  name: string;
  /** what is taken out, and where it lives */
  measure: string;
  where: string;
  flags: readonly string[];
  env: Readonly<Record<string, string>>;
  /** the driver's patches this variant leaves out (its own copy of postgres.js), none for the project's */
  withoutPatch?: string;
  /** a change to the bundle's sources */
  plugin?: Plugin;
}

const driverPatches = readdirSync(path.join(root, 'patches'))
  .filter((f) => f.startsWith('postgres+'))
  .sort();
/** the patches that are a bug fix or a feature the service relies on, not a speed-up: never left out */
const NOT_SPEED = ['001+closed-socket-write', '007+raw-column-parser'];

const noCopier: Plugin = {
  name: 'no-field-copier',
  setup(b) {
    b.onLoad({ filter: /lib[\\/]standards[\\/]writers\.ts$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      const from = 'const leading = copiedValues(layout);';
      if (!text.includes(from)) throw new Error(`${args.path} no longer has "${from}": update bench/measures.ts`);
      return { contents: text.replace(from, 'const leading = 0;'), loader: 'ts' };
    });
  },
};

function variants(): Variant[] {
  const shipped = { flags: SERVICE_NODE_FLAGS, env: SERVICE_ENV };
  const all: Variant[] = [
    { name: 'shipped', measure: 'the service as shipped', where: '', ...shipped },
    { name: 'control', measure: 'a second process of the same', where: '', ...shipped },
    { name: 'no-copier', measure: 'the WebAssembly field copier', where: 'lib/standards/field-copier.wat', ...shipped, plugin: noCopier },
    ...driverPatches
      .filter((f) => !NOT_SPEED.some((n) => f.includes(n)))
      .map((f) => {
        const id = /\+(\d{3}\+[^.]+)\.patch$/.exec(f)?.[1] ?? f;
        return {
          name: `no-${id}`,
          measure: `driver: ${id.slice(4).replaceAll('-', ' ')}`,
          where: `patches/${f}`,
          ...shipped,
          withoutPatch: f,
        };
      }),
    ...SERVICE_NODE_FLAGS.map((flag) => ({
      name: `no-flag${flag.replace(/=.*/, '')}`,
      measure: `V8 flag ${flag}`,
      where: 'scripts/node-flags.mjs',
      flags: SERVICE_NODE_FLAGS.filter((f) => f !== flag),
      env: SERVICE_ENV,
    })),
    { name: 'no-malloc-env', measure: 'glibc allocator thresholds', where: 'scripts/node-flags.mjs', flags: SERVICE_NODE_FLAGS, env: {} },
  ];
  const chosen = process.env.MEASURES?.split(',').map((s) => s.trim());
  return chosen ? all.filter((v) => v.name === 'shipped' || v.name === 'control' || chosen.includes(v.name)) : all;
}

// ---------------------------------------------------------------------------------------------------------------
// Building the variants

const patchArgs = (dir: string, file: string, reverse: boolean) => [
  ...(reverse ? ['-R'] : []),
  '-p3',
  '--batch',
  '--silent',
  '--no-backup-if-mismatch',
  '-d',
  dir,
  '-i',
  path.join(root, 'patches', file),
];

/** postgres.js as published: the project's copy with every patch reversed, newest first. */
function pristineDriver(dir: string): void {
  cpSync(path.join(root, 'node_modules', 'postgres'), dir, { recursive: true });
  for (const file of [...driverPatches].reverse()) execFileSync('patch', patchArgs(dir, file, true));
}

/** Builds each variant's bundle (and driver) under .data/measures/<name>. */
async function prepare(vs: Variant[]): Promise<void> {
  rmSync(WORK, { recursive: true, force: true });
  const pristine = path.join(WORK, 'pristine-postgres');
  pristineDriver(pristine);
  const shipped = path.join(WORK, 'shipped-bundle');
  await build(serverBuildOptions({ 'api-server': path.join(root, 'server', 'api.ts') }, shipped));
  for (const v of vs) {
    const dir = path.join(WORK, v.name);
    if (v.plugin) await build({ ...serverBuildOptions({ 'api-server': path.join(root, 'server', 'api.ts') }, dir), plugins: [v.plugin] });
    else cpSync(shipped, dir, { recursive: true });
    if (v.withoutPatch) {
      const driver = path.join(dir, 'node_modules', 'postgres');
      mkdirSync(path.dirname(driver), { recursive: true });
      cpSync(pristine, driver, { recursive: true });
      for (const file of driverPatches.filter((f) => f !== v.withoutPatch)) {
        try {
          execFileSync('patch', patchArgs(driver, file, false));
        } catch {
          throw new Error(`${file} does not apply without ${v.withoutPatch}: the two are one change, measure them together`);
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Measuring

interface Running extends Variant {
  proc: Proc;
}

const time = async (fn: () => Promise<unknown>) => {
  const t = performance.now();
  await fn();
  return performance.now() - t;
};

const shuffled = <T>(xs: T[]): T[] => {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [a[i], a[j]] = [a[j] as T, a[i] as T];
  }
  return a;
};

async function get(base: string, p: string): Promise<Buffer> {
  const res = await request(base, p);
  if (res.status !== 200) throw new Error(`${base}${p}: ${res.status} ${res.body.toString('utf8').slice(0, 200)}`);
  return res.body;
}

/** (HTTP − floor) / SQL for each variant: every variant's floor and endpoint, and the SQL, interleaved by round. */
async function latency(vs: Running[], c: Case, sql: postgres.Sql): Promise<Map<string, number>> {
  const rows = new Set<number>();
  for (const v of vs) rows.add(rowsOf(await get(v.proc.url, c.path)));
  if (rows.size !== 1) throw new Error(`${c.name}: the variants answer different rows (${[...rows].join(', ')})`);
  const query = () => sql.unsafe(c.text, c.params as postgres.ParameterOrJSON<never>[]);
  for (const v of vs) {
    const until = performance.now() + WARMUP_MS;
    while (performance.now() < until) {
      await get(v.proc.url, FLOOR_PATH);
      await get(v.proc.url, c.path);
      await query();
    }
  }
  const floor = new Map(vs.map((v) => [v.name, [] as number[]]));
  const api = new Map(vs.map((v) => [v.name, [] as number[]]));
  const sqlTimes: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    for (const v of shuffled(vs)) {
      floor.get(v.name)?.push(await time(() => get(v.proc.url, FLOOR_PATH)));
      api.get(v.name)?.push(await time(() => get(v.proc.url, c.path)));
      sqlTimes.push(await time(query));
    }
  }
  const s = median(sqlTimes);
  return new Map(vs.map((v) => [v.name, (median(api.get(v.name) ?? []) - median(floor.get(v.name) ?? [])) / s]));
}

const cannon = (opts: autocannon.Options) =>
  new Promise<autocannon.Result>((resolve, reject) => {
    autocannon(opts, (err, result) => (err ? reject(err) : resolve(result)));
  });

/** Requests per second at 50 connections on one look-up: the median of THROUGHPUT_PASSES passes over the variants. */
async function throughput(vs: Running[], p: string): Promise<Map<string, number>> {
  const rates = new Map(vs.map((v) => [v.name, [] as number[]]));
  for (let pass = 0; pass < THROUGHPUT_PASSES; pass++) {
    for (const v of shuffled(vs)) {
      await cannon({ url: v.proc.url + p, connections: 10, duration: 1 });
      const r = await cannon({ url: v.proc.url + p, connections: 50, duration: SECONDS });
      if (r.non2xx || r.errors) throw new Error(`${v.name}: ${r.non2xx} non-2xx, ${r.errors} errors at 50 connections`);
      rates.get(v.name)?.push(r.requests.average);
    }
  }
  return new Map([...rates].map(([k, xs]) => [k, median(xs)]));
}

interface ExportFigure {
  rowsPerSecond: number;
  rssGrowthMb: number;
}

/**
 * A whole export read from each variant, EXPORT_PASSES times: the median rows per second, and the largest RSS growth
 * over its start.
 */
async function exports(vs: Running[], p: string, kind: 'csv' | 'json'): Promise<Map<string, ExportFigure>> {
  const passes = new Map(vs.map((v) => [v.name, [] as ExportFigure[]]));
  for (let pass = 0; pass < EXPORT_PASSES; pass++) for (const v of shuffled(vs)) passes.get(v.name)?.push(await exportOnce(v, p, kind));
  return new Map(
    [...passes].map(([name, fs]) => [
      name,
      { rowsPerSecond: median(fs.map((f) => f.rowsPerSecond)), rssGrowthMb: Math.max(...fs.map((f) => f.rssGrowthMb)) },
    ]),
  );
}

async function exportOnce(v: Running, p: string, kind: 'csv' | 'json'): Promise<ExportFigure> {
  const base = rssOf(v.proc.pid);
  let peak = base;
  const timer = setInterval(() => {
    peak = Math.max(peak, rssOf(v.proc.pid));
  }, 100);
  let lines = 0;
  let head = '';
  const started = performance.now();
  try {
    await request(v.proc.url, p, {
      keep: false,
      onChunk: (chunk) => {
        if (kind === 'csv') lines += countNewlines(chunk);
        else if (head.length < 200) head += chunk.toString('utf8', 0, Math.min(chunk.length, 200));
      },
    });
  } finally {
    clearInterval(timer);
  }
  const rows = kind === 'csv' ? lines - 1 : Number(/"number_found":(\d+)/.exec(head)?.[1]);
  return { rowsPerSecond: rows / ((performance.now() - started) / 1000), rssGrowthMb: (peak - base) / MiB };
}

// ---------------------------------------------------------------------------------------------------------------
// The run

async function main(): Promise<void> {
  // the allocator's settings are read at start: a variant without them must not inherit them from this shell (an
  // empty value is not their absence)
  for (const k of Object.keys(SERVICE_ENV)) delete process.env[k];
  const url = (() => {
    const u = new URL(SERVER_URL);
    u.pathname = `/${DB_NAME}`;
    return u.toString();
  })();
  const sql = postgres(url, { max: 1, onnotice: () => {}, connection: { application_name: 'rmb-bench-measures' } });
  const vs = variants();
  const stops: (() => Promise<unknown>)[] = [() => sql.end()];
  try {
    const [seeded] = await sql`select to_regclass('bench_http_seed') is not null as present`.catch(() => [{ present: false }]);
    if (!seeded?.present) throw new Error(`database ${DB_NAME} is not seeded: run \`npm run bench:http\` first`);
    const [{ max_connections: limit } = { max_connections: '0' }] = await sql`show max_connections`;
    const needed = vs.length * CONNECTIONS_PER_SERVICE + 10;
    if (Number(limit) < needed)
      throw new Error(
        `PostgreSQL accepts ${limit} connections; ${vs.length} services need ${needed}: ALTER SYSTEM SET max_connections = ${needed} and restart it`,
      );
    const [{ samples } = { samples: 0 }] = await sql`select samples from bench_http_seed`;
    const probe = await probeOf((text, params) => sql.unsafe(text, params as postgres.ParameterOrJSON<never>[]));
    progress(`building ${vs.length} variants under ${path.relative(root, WORK)}`);
    await prepare(vs);
    const repositories = await startRepositoryServer({ taxa: buildTaxonRecords().records });
    stops.unshift(async () => repositories.close());
    const running: Running[] = [];
    for (const v of vs) {
      progress(`starting ${v.name}`);
      const proc = await startProcess(
        [...v.flags, path.join(WORK, v.name, 'api-server.mjs')],
        {
          ...v.env,
          NODE_ENV: 'production',
          DATABASE_URL: url,
          NEXTAUTH_SECRET: 'bench-measures-secret',
          LOG_LEVEL: 'warn',
          ...standInUrls(repositories),
        },
        '/api/health',
      );
      stops.unshift(() => proc.stop());
      running.push({ ...v, proc });
    }

    out(`# bench:measures — ${new Date().toISOString()}`);
    out();
    out(`- machine: ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), Node ${process.version}; ${int(Number(samples))} samples`);
    out(
      `- ${vs.length} services at once; ${ROUNDS} rounds per request, interleaved in a new random order each round, after ${WARMUP_MS / 1000} s of warm-up on each`,
    );
    out();
    const cases = LATENCY ? casesOf(probe) : [];
    const ratios = new Map<string, Map<string, number>>();
    for (const c of cases) {
      progress(`latency: ${c.name}`);
      ratios.set(c.short, await latency(running, c, sql));
    }
    // the newest EXPORT_ROWS samples: the query API's list from the creation time of the last of them
    const [{ from } = { from: '1970-01-01T00:00:00Z' }] = EXPORT_ROWS
      ? await sql`select to_char(time_created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"') as from
          from samples order by time_created desc offset ${EXPORT_ROWS - 1} limit 1`
      : [];
    const all = `/api/sample/${encodeURIComponent(String(from))}/2100-01-01T00:00:00+00:00`;
    progress('throughput');
    const rps = await throughput(running, `/api/sample/svc_id/${probe.svcId}`);
    if (EXPORTS) progress(`exports of ${EXPORT_ROWS ? int(EXPORT_ROWS) : 'every'} samples: CSV, then JSON`);
    const csv = EXPORTS ? await exports(running, `${all}?return_type=csv`, 'csv') : null;
    const json = EXPORTS ? await exports(running, all, 'json') : null;

    out('## Figures of each service');
    out();
    const head = [
      'variant',
      ...cases.map((c) => c.short),
      'req/s',
      ...(csv ? ['CSV rows/s', 'CSV RSS +MB', 'JSON rows/s', 'JSON RSS +MB'] : []),
    ];
    out(`| ${head.join(' | ')} |`);
    out(`|${head.map(() => '---').join('|')}|`);
    for (const v of running) {
      const cells = [
        v.name,
        ...cases.map((c) => (ratios.get(c.short)?.get(v.name) ?? Number.NaN).toFixed(2)),
        int(rps.get(v.name) ?? 0),
        ...(csv && json ? [csv, json].flatMap((e) => [int(e.get(v.name)?.rowsPerSecond ?? 0), int(e.get(v.name)?.rssGrowthMb ?? 0)]) : []),
      ];
      out(`| ${cells.join(' | ')} |`);
    }

    // how much worse each goal's figure is without the measure, relative to the shipped service
    const gains = (name: string): [string, number][] => {
      const worse = (shipped: number, without: number) => (without - shipped) / Math.abs(shipped);
      const list: [string, number][] = cases.map((c) => [
        c.short,
        worse(ratios.get(c.short)?.get('shipped') ?? 0, ratios.get(c.short)?.get(name) ?? 0),
      ]);
      list.push(['req/s', ((rps.get('shipped') ?? 0) - (rps.get(name) ?? 0)) / (rps.get(name) ?? 1)]);
      for (const [label, e] of [
        ['CSV', csv],
        ['JSON', json],
      ] as const) {
        if (!e) continue;
        const a = e.get('shipped');
        const b = e.get(name);
        if (a && b) {
          list.push([`${label} rows/s`, (a.rowsPerSecond - b.rowsPerSecond) / b.rowsPerSecond]);
          // memory: the growth without it over the shipped one's, as a share of the goal's 100 MB
          list.push([`${label} RSS`, (b.rssGrowthMb - a.rssGrowthMb) / 100]);
        }
      }
      return list;
    };
    out();
    out('## Each measure on its own: how much worse each goal’s figure is without it');
    out();
    out('| measure | where | largest gain (goal) | every goal | kept (≥ 10%, beyond the control) |');
    out('|---|---|---|---|---|');
    const noise = new Map(gains('control').map(([k, g]) => [k, Math.abs(g)]));
    for (const v of running.filter((r) => r.name !== 'shipped')) {
      const list = gains(v.name);
      const [goal, best] = list.reduce((a, b) => (b[1] > a[1] ? b : a));
      const beyond = list.filter(([k, g]) => g >= 0.1 && g > 2 * (noise.get(k) ?? 0));
      out(
        `| ${v.measure} | ${v.where || '—'} | ${pct(best)} (${goal}) | ${list.map(([k, g]) => `${k} ${pct(g)}`).join(', ')} | ${
          v.name === 'control' ? 'the noise' : beyond.length ? `kept: ${beyond.map(([k]) => k).join(', ')}` : 'no'
        } |`,
      );
    }
  } finally {
    for (const stop of stops) await stop().catch((err: unknown) => console.error('cleanup:', err));
    agent.destroy();
  }
}

killProcessesOnSignal();
await main();
