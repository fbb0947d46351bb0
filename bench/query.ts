import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import type { SQL } from 'drizzle-orm';
import postgres from 'postgres';
import { type Database, openDatabase } from '../db/client';
import { createApiApp } from '../lib/api/app';
import type { ApiApp, ApiDeps } from '../lib/api/context';
import { parseConfig } from '../lib/config';
import { createLogger } from '../lib/logger';
import { manifestCondition } from '../lib/query/manifests';
import { fieldCondition } from '../lib/query/sample-field';
import {
  type Lookup,
  lookupBatchQuery,
  lookupOneQuery,
  type SampleKey,
  type SampleOrder,
  sampleBatchQuery,
  sampleRowColumns,
  shapeQuery,
} from '../lib/query/sample-rows';
import { createdCondition, taxonCondition } from '../lib/query/samples';
import type { BatchQuery } from '../lib/query/sql';
import { BATCH_SIZE, type PageRequest } from '../lib/query/stream';
import { type BulkInfo, type Exec, execArraysFor, execFor, seedBulkSamples } from './query-seed';

type ExecArrays = ReturnType<typeof execArraysFor>;

/**
 * The query API on a large table: seeds SAMPLES samples (default 1,000,000 on PostgreSQL, 20,000 on PGlite) into a
 * database of its own, then for the main endpoints prints the median latency through the API (the Hono app,
 * in-process, body read to the end) next to the same statements run directly on the driver, the index each uses,
 * and the peak memory while streaming the CSV of every sample.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test SAMPLES=1000000 npx tsx bench/query.ts
 */

export interface QueryBenchOptions {
  /** a PostgreSQL server: a database is created on it and dropped afterwards; PGlite in memory when absent */
  url?: string;
  samples?: number;
  /** timed runs per endpoint (after two warm-up runs) */
  runs?: number;
  log?: (line: string) => void;
}

/** The statements a sample query runs: its batches, and the count of a result longer than its first batch. */
interface Statements {
  batch: (req: PageRequest<SampleKey>) => BatchQuery;
  /** absent for a look-up, whose few rows are always whole */
  count?: SQL;
  order: SampleOrder;
}

interface Case {
  name: string;
  path: string;
  /** the statements the endpoint runs, for the direct-SQL timing and the plan */
  statements?: Statements;
}

const listed = (where: SQL, order: SampleOrder = 'id'): Statements => ({
  batch: (req) => sampleBatchQuery(where, order, req),
  count: where,
  order,
});
// the statement a look-up runs, as the API runs it (lib/query/sample-rows.ts): of one value, the sample's row alone
// (the profile's title from those the service has read); of a few, one statement with the titles in it
const lookedUp = (lookup: Lookup): Statements => ({
  batch: (req) => lookupOneQuery(lookup, req) ?? lookupBatchQuery(lookup, req),
  order: 'id',
});

export interface CaseResult {
  name: string;
  path: string;
  rows: number;
  apiMs: number;
  sqlMs: number | null;
  indexes: string;
}

export interface QueryBenchResult {
  engine: 'postgres' | 'pglite';
  samples: number;
  seedMs: number;
  indexMs: number;
  tableMb: number;
  indexMb: number;
  cases: CaseResult[];
  stream: { rows: number; mb: number; ms: number; rssBaseMb: number; rssPeakMb: number; heapBaseMb: number; heapPeakMb: number };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

async function timeIt(fn: () => Promise<unknown>, runs: number): Promise<number> {
  for (let i = 0; i < 2; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return median(times);
}

const ID = Object.keys(sampleRowColumns).indexOf('id');
const TIME_CREATED = Object.keys(sampleRowColumns).indexOf('timeCreated');

/**
 * What the API runs for a sample query: keyset batches until one comes back short, and the grouped count when the
 * first batch is full (a shorter result is counted from its rows: lib/query/stream.ts, summarisedRows).
 */
async function directSql(exec: ExecArrays, db: ApiDeps['db'], { batch, count, order }: Statements): Promise<number> {
  let after: SampleKey | null = null;
  let n = 0;
  for (;;) {
    const q = batch({ after, limit: BATCH_SIZE, offset: 0 }).toSQL();
    const rows = await exec(q.sql, q.params);
    n += rows.length;
    const last = rows[rows.length - 1];
    if (after === null && rows.length === BATCH_SIZE && count) {
      const c = shapeQuery(db, count).toSQL();
      await exec(c.sql, c.params);
    }
    if (rows.length < BATCH_SIZE || !last) return n;
    after = { id: String(last[ID]), t: order === 'newest' ? String(last[TIME_CREATED]) : null };
  }
}

async function indexesUsed(exec: Exec, { batch }: Statements): Promise<string> {
  const q = batch({ after: null, limit: BATCH_SIZE, offset: 0 }).toSQL();
  const [row] = await exec(`explain (format json) ${q.sql}`, q.params);
  const value = Object.values(row ?? {})[0];
  const plan = (typeof value === 'string' ? JSON.parse(value) : value) as { Plan: Record<string, unknown> }[];
  const found: string[] = [];
  const walk = (n: Record<string, unknown>) => {
    if (n['Relation Name'] === 'samples' || String(n['Index Name'] ?? '').startsWith('samples')) {
      found.push(n['Index Name'] ? `${n['Node Type']} ${n['Index Name']}` : String(n['Node Type']));
    }
    for (const c of (n.Plans as Record<string, unknown>[] | undefined) ?? []) walk(c);
  };
  walk(plan[0]!.Plan);
  return found.join(' + ');
}

async function readAll(api: ApiApp, p: string): Promise<{ bytes: number; rows: number }> {
  const res = await api.request(p);
  if (res.status !== 200) throw new Error(`${p}: ${res.status} ${await res.text()}`);
  const body = await res.text();
  const parsed = JSON.parse(body) as { data: unknown[] } | number;
  const rows = typeof parsed === 'number' ? parsed : parsed.data.length;
  return { bytes: body.length, rows };
}

/** Streams the CSV of every sample, sampling memory while it flows; the body is counted, never kept. */
async function streamAll(api: ApiApp): Promise<QueryBenchResult['stream']> {
  global.gc?.();
  const base = process.memoryUsage();
  let rssPeak = base.rss;
  let heapPeak = base.heapUsed;
  const sample = () => {
    const m = process.memoryUsage();
    rssPeak = Math.max(rssPeak, m.rss);
    heapPeak = Math.max(heapPeak, m.heapUsed);
  };
  const timer = setInterval(sample, 25);
  const started = performance.now();
  const res = await api.request('/api/sample/1970-01-01T00:00:00+00:00/2100-01-01T00:00:00+00:00?return_type=csv');
  const reader = res.body!.getReader();
  let bytes = 0;
  let newlines = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    for (let i = 0; i < value.length; i++) if (value[i] === 10) newlines++;
    sample();
  }
  clearInterval(timer);
  return {
    rows: newlines - 1,
    mb: mb(bytes),
    ms: performance.now() - started,
    rssBaseMb: mb(base.rss),
    rssPeakMb: mb(rssPeak),
    heapBaseMb: mb(base.heapUsed),
    heapPeakMb: mb(heapPeak),
  };
}

/** Secondary indexes of samples are dropped for the bulk load and rebuilt after it, as one would for a migration. */
async function withoutIndexes(exec: Exec, load: () => Promise<void>): Promise<number> {
  const defs = (await exec(
    `select indexname, indexdef from pg_indexes where tablename in ('samples', 'sample_updates') and indexname not like '%_pkey'`,
  )) as { indexname: string; indexdef: string }[];
  for (const d of defs) await exec(`drop index if exists "${d.indexname}"`);
  await load();
  const t = performance.now();
  for (const d of defs) await exec(d.indexdef);
  return performance.now() - t;
}

export async function benchQuery(opts: QueryBenchOptions = {}): Promise<QueryBenchResult> {
  const log = opts.log ?? ((line: string) => console.error(line));
  const samples = opts.samples ?? (opts.url ? 1_000_000 : 20_000);
  const runs = opts.runs ?? 15;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'rmb-bench-'));
  let database: Database | undefined;
  let dropDatabase = async () => {};
  try {
    let url: string | undefined;
    if (opts.url) {
      const name = `rmb_bench_${randomBytes(4).toString('hex')}`;
      const admin = postgres(opts.url, { max: 1, onnotice: () => {} });
      await admin.unsafe(`create database ${name}`);
      await admin.end();
      const u = new URL(opts.url);
      u.pathname = `/${name}`;
      url = u.toString();
      dropDatabase = async () => {
        const a = postgres(opts.url as string, { max: 1, onnotice: () => {} });
        await a.unsafe(`drop database if exists ${name} with (force)`);
        await a.end();
      };
    }
    database = await openDatabase({ url, max: 4 });
    const exec = execFor(database);
    const execArrays = execArraysFor(database);
    const db = database.db;

    log(`seeding ${samples.toLocaleString('en')} samples on ${database.kind}…`);
    let info: BulkInfo | undefined;
    const seedStart = performance.now();
    const indexMs = await withoutIndexes(exec, async () => {
      info = await seedBulkSamples(exec, { samples, log });
    });
    const seedMs = performance.now() - seedStart - indexMs;
    // what autovacuum does soon after a bulk load: statistics, and a visibility map for index-only counts
    await exec('vacuum analyze samples');
    await exec('vacuum analyze sample_updates');
    const probe = (info as BulkInfo).probe;
    const [size] = await exec(`select pg_table_size('samples') as t, pg_indexes_size('samples') as i`);

    const config = parseConfig({ DATA_DIR: dataDir, NEXTAUTH_SECRET: 'bench' });
    const deps: ApiDeps = {
      db,
      config,
      logger: createLogger('silent'),
      jobs: {
        send: async () => {},
        health: async () => ({ waiting: 0, oldest_waiting_seconds: 0, active: 0, dead_letters: 0 }),
        described: () => [],
        label: (name) => name,
        reopen: async () => '',
      },
      databaseKind: 'pglite',
    };
    const api = createApiApp(deps);

    // 576 samples a day (one every 150 s from 2020-01-01)
    const day = ['2020-01-02T00:00:00+00:00', '2020-01-03T00:00:00+00:00'] as const;
    const cases: Case[] = [
      {
        name: 'sample by svc_id',
        path: `/api/sample/svc_id/${probe.svcId}`,
        statements: lookedUp({ column: 'id', values: [probe.svcId] }),
      },
      {
        name: 'sample by biosampleAccession',
        path: `/api/sample/biosampleAccessions/${probe.biosampleAccession}`,
        statements: lookedUp({ column: 'biosampleAccession', values: [probe.biosampleAccession] }),
      },
      { name: 'samples by taxon_id', path: `/api/sample/taxon_id/${probe.taxonId}`, statements: listed(taxonCondition(probe.taxonId)) },
      { name: 'samples of a manifest', path: `/api/manifest/${probe.manifestId}`, statements: listed(manifestCondition(probe.manifestId)) },
      {
        name: 'samples of one day',
        path: `/api/sample/${day[0]}/${day[1]}`,
        statements: listed(createdCondition(day[0], day[1]), 'newest'),
      },
      {
        name: 'sample_field substring',
        path: `/api/sample/sample_field/SCIENTIFIC_NAME/${encodeURIComponent(probe.scientificName)}`,
        statements: listed(fieldCondition('SCIENTIFIC_NAME', probe.scientificName)),
      },
      { name: 'manifest sample_status', path: `/api/manifest/${probe.manifestId}/sample_status` },
      { name: 'audit of a manifest', path: `/api/audit/sample/manifest_id/${probe.manifestId}` },
      { name: 'manifest ids (all)', path: '/api/manifest' },
      { name: 'number_of_samples/dtol', path: '/api/stats/number_of_samples/dtol' },
    ];

    const results: CaseResult[] = [];
    for (const c of cases) {
      const { rows } = await readAll(api, c.path);
      const apiMs = await timeIt(() => readAll(api, c.path), runs);
      const { statements } = c;
      const sqlMs = statements ? await timeIt(() => directSql(execArrays, db, statements), runs) : null;
      const indexes = statements ? await indexesUsed(exec, statements) : '';
      results.push({ name: c.name, path: c.path, rows, apiMs, sqlMs, indexes });
      log(`  ${c.name}: ${rows} rows, API ${apiMs.toFixed(1)} ms${sqlMs === null ? '' : `, SQL ${sqlMs.toFixed(1)} ms`}`);
    }

    log('streaming the CSV of every sample…');
    const stream = await streamAll(api);
    return {
      engine: database.kind,
      samples,
      seedMs,
      indexMs,
      tableMb: mb(Number(size?.t)),
      indexMb: mb(Number(size?.i)),
      cases: results,
      stream,
    };
  } finally {
    await database?.close();
    await dropDatabase();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function formatQueryBench(r: QueryBenchResult): string {
  const pad = (s: string, n: number) => s.padEnd(n);
  const lines = [
    `query: ${r.samples.toLocaleString('en')} samples on ${r.engine} (table ${r.tableMb} MB, indexes ${r.indexMb} MB); ` +
      `bulk load ${(r.seedMs / 1000).toFixed(1)} s, index build ${(r.indexMs / 1000).toFixed(1)} s`,
    `  ${pad('endpoint', 30)} ${pad('rows', 6)} ${pad('API median', 12)} ${pad('SQL median', 12)} plan (first batch)`,
    ...r.cases.map(
      (c) =>
        `  ${pad(c.name, 30)} ${pad(String(c.rows), 6)} ${pad(`${c.apiMs.toFixed(1)} ms`, 12)} ${pad(c.sqlMs === null ? '—' : `${c.sqlMs.toFixed(1)} ms`, 12)} ${c.indexes}`,
    ),
    `  CSV of every sample: ${r.stream.rows.toLocaleString('en')} rows, ${r.stream.mb} MB in ${(r.stream.ms / 1000).toFixed(1)} s; ` +
      `RSS ${r.stream.rssBaseMb} -> peak ${r.stream.rssPeakMb} MB, heap ${r.stream.heapBaseMb} -> peak ${r.stream.heapPeakMb} MB`,
  ];
  return lines.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const samples = process.env.SAMPLES ? Number(process.env.SAMPLES) : undefined;
  console.log(formatQueryBench(await benchQuery({ url: process.env.BENCH_DATABASE_URL, samples })));
}
