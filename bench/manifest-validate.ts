import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { openDatabase } from '../db/client';
import { validationReports } from '../db/schema';
import { createApiApp } from '../lib/api/app';
import { createApiKey } from '../lib/auth/api-keys';
import { CLIENT_ADDRESS_HEADER } from '../lib/auth/client-address';
import { parseConfig } from '../lib/config';
import { startJobQueue } from '../lib/jobs/queue';
import { createLogger } from '../lib/logger';
import { currentDefinition, parseManifest, validateManifest } from '../lib/manifests';
import { createTaxonomyClient } from '../lib/repositories/taxonomy';
import { seedReferenceData } from '../lib/seed';
import { jobDefinitions } from '../lib/server/jobs';
import { createUser } from '../lib/users/users';
import { testContext } from '../tests/fixtures/manifests/context';
import { validRows } from '../tests/fixtures/manifests/generate';
import { buildTaxonRecords } from '../tests/fixtures/manifests/taxa';
import { toXlsx } from '../tests/fixtures/manifests/workbook';
import { startRepositoryServer } from '../tests/support/repository-server';
import { scratchDatabase } from './databases';
import { standInUrls } from './processes';

/** Each figure is the median of `runs` runs one after the other; the ranges are the fastest and slowest. */
export interface ManifestBenchResult {
  rows: number;
  runs: number;
  fileBytes: number;
  exceljsMs: number;
  exceljsRange: [number, number];
  parseMs: number;
  validateMs: number;
  errors: number;
  warnings: number;
  /** the same workbook through the service: upload, the validation job, confirm */
  service: ServicePathResult & { uploadToReportRange: [number, number] };
}

export interface ServicePathResult {
  database: 'PGlite' | 'PostgreSQL';
  /** POST manifest/validate answered (202) */
  uploadAnsweredMs: number;
  /** from the upload to the report complete (or failed), polled every 50 ms */
  uploadToReportMs: number;
  report: { status: string; rows: number; errors: number; warnings: number; failure: string | null };
  /** POST manifest/validate/confirm answered; null when the report could not be confirmed */
  confirmMs: number | null;
  created: number;
}

/** issue 60: upload → report within 1.5× exceljs reading the workbook alone, confirm within 1× */
export const UPLOAD_TO_REPORT_GOAL = 1.5;
export const CONFIRM_GOAL = 1;

const time = async <T>(fn: () => Promise<T>): Promise<[T, number]> => {
  const start = performance.now();
  const value = await fn();
  return [value, performance.now() - start];
};

/**
 * A DTOL manifest of `rows` valid rows (typed like Excel saves them): exceljs reading it alone; parseManifest, then
 * validateManifest with the in-memory taxonomy; then the same workbook through the service (servicePath): uploaded,
 * validated by the job to its report, and confirmed into samples. Each is set beside exceljs's read.
 */
export async function benchManifestValidate(
  rows = 10_000,
  serverUrl = process.env.BENCH_DATABASE_URL,
  runs = Number(process.env.BENCH_MANIFEST_RUNS ?? 3),
): Promise<ManifestBenchResult> {
  const definition = currentDefinition('dtol');
  const file = await toXlsx(
    definition.fields.map((f) => f.name),
    validRows(definition, rows),
    { typed: true },
  );

  // each step is timed `runs` times, one after the other, and the medians compared: one exceljs read alone moves too
  // much from run to run on a machine of two cores (docs/benchmarks.md, "Big sheets")
  const exceljsRuns: number[] = [];
  const parseRuns: number[] = [];
  const validateRuns: number[] = [];
  const serviceRuns: ServicePathResult[] = [];
  let errors = 0;
  let warnings = 0;
  for (let i = 0; i < runs; i++) {
    const [, exceljsMs] = await time(async () => {
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(file as unknown as ExcelJS.Buffer);
      return wb;
    });
    const [parsed, parseMs] = await time(() => parseManifest(file, 'bench.xlsx', { definition }));
    const [result, validateMs] = await time(() => validateManifest(parsed, definition, testContext({ maxRows: Infinity })));
    exceljsRuns.push(exceljsMs);
    parseRuns.push(parseMs);
    validateRuns.push(validateMs);
    errors = result.errors.length;
    warnings = result.warnings.length;
    serviceRuns.push(await servicePath(file, serverUrl));
  }
  const byReport = [...serviceRuns].sort((a, b) => a.uploadToReportMs - b.uploadToReportMs);
  const middle = byReport[Math.floor(runs / 2)] as ServicePathResult;
  const confirms = serviceRuns.map((r) => r.confirmMs);
  return {
    rows,
    runs,
    fileBytes: file.byteLength,
    exceljsMs: median(exceljsRuns),
    exceljsRange: [Math.min(...exceljsRuns), Math.max(...exceljsRuns)],
    parseMs: median(parseRuns),
    validateMs: median(validateRuns),
    errors,
    warnings,
    service: {
      ...middle,
      uploadAnsweredMs: median(serviceRuns.map((r) => r.uploadAnsweredMs)),
      uploadToReportMs: median(serviceRuns.map((r) => r.uploadToReportMs)),
      uploadToReportRange: [byReport[0]?.uploadToReportMs ?? 0, byReport[runs - 1]?.uploadToReportMs ?? 0],
      confirmMs: confirms.some((c) => c === null) ? null : median(confirms as number[]),
    },
  };
}

const median = (xs: number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

const ADMIN = { username: 'bench-manifest-admin', password: 'bench-manifest-admin-password' };

/**
 * The workbook through the service as it runs, in this process: the API app, the job queue with its workers and
 * the validation job, the taxonomy client (with its cache table) against the repositories' local stand-in, on the
 * embedded database in a directory of its own or, with `serverUrl`, a database of its own on that PostgreSQL server
 * (dropped afterwards). The upload, polling and confirm are requests to the API app.
 */
async function servicePath(file: Uint8Array, serverUrl?: string): Promise<ServicePathResult> {
  const repositories = await startRepositoryServer({ taxa: buildTaxonRecords().records });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'rmb-bench-manifest-'));
  const scratch = serverUrl ? await scratchDatabase(serverUrl, 'rmb_bench_manifest_') : undefined;
  const url = scratch?.url;
  const config = parseConfig({
    ...standInUrls(repositories),
    DATA_DIR: dataDir,
    NEXTAUTH_SECRET: `bench-${randomBytes(8).toString('hex')}`,
  });
  const logger = createLogger('warn');
  const database = await openDatabase({ url, pgliteDir: url ? undefined : path.join(dataDir, 'pglite') });
  try {
    await seedReferenceData(database.db);
    const taxonomy = createTaxonomyClient({ baseUrl: config.ENA_TAXONOMY_URL, db: database.db, logger });
    const queue = await startJobQueue(database, logger, (jobs) => jobDefinitions({ db: database.db, config, logger, taxonomy, jobs }));
    try {
      const api = createApiApp({ db: database.db, config, logger, jobs: queue.queue, databaseKind: database.kind });
      const admin = await createUser(database.db, { ...ADMIN, isAdmin: true, memberOf: ['dtol'] });
      const { key } = await createApiKey(database.db, admin.id);
      const call = async <T>(p: string, init: RequestInit = {}): Promise<T> => {
        const headers = new Headers(init.headers);
        headers.set('authorization', `token ${key}`);
        headers.set(CLIENT_ADDRESS_HEADER, 'bench');
        const res = await api.request(p, { ...init, headers });
        if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${p}: ${res.status} ${(await res.text()).slice(0, 500)}`);
        return (await res.json()) as T;
      };
      const json = { 'content-type': 'application/json' };
      const profile = await call<{ id: string }>('/api/profiles', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ title: 'Big sheets', description: 'made by bench/manifest-validate.ts', type: 'dtol' }),
      });
      const fd = new FormData();
      fd.set('profile_id', profile.id);
      fd.set('file', new File([new Uint8Array(file)], 'bench.xlsx'));
      const started = performance.now();
      const { report_id } = await call<{ report_id: string }>('/api/manifest/validate', { method: 'POST', body: fd });
      const uploadAnsweredMs = performance.now() - started;
      // the report's state read from its table, not through the API: in this process each request's key check and
      // report read took the embedded database's one thread from the job, every 50 ms
      let status: { status: string; summary: { rows: number; errors: number; warnings: number }; failure: string | null };
      for (;;) {
        const [row] = await database.db
          .select({ status: validationReports.status, summary: validationReports.summary, failure: validationReports.failure })
          .from(validationReports)
          .where(eq(validationReports.id, report_id));
        if (!row) throw new Error(`report ${report_id} is gone`);
        status = row;
        if (status.status === 'complete' || status.status === 'failed') break;
        if (performance.now() - started > 15 * 60_000) throw new Error('the validation did not finish within 15 minutes');
        await new Promise((r) => setTimeout(r, 50));
      }
      const uploadToReportMs = performance.now() - started;
      const report = { status: status.status, ...status.summary, failure: status.failure };
      const database_ = database.kind === 'postgres' ? 'PostgreSQL' : 'PGlite';
      if (status.status !== 'complete' || status.summary.errors > 0) {
        return { database: database_, uploadAnsweredMs, uploadToReportMs, report, confirmMs: null, created: 0 };
      }
      const confirmStart = performance.now();
      const confirmed = await call<{ created: number }>('/api/manifest/validate/confirm', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ validation_report_id: report_id }),
      });
      const confirmMs = performance.now() - confirmStart;
      return { database: database_, uploadAnsweredMs, uploadToReportMs, report, confirmMs, created: confirmed.created };
    } finally {
      await queue.stop();
    }
  } finally {
    await database.close();
    await repositories.close();
    rmSync(dataDir, { recursive: true, force: true });
    await scratch?.drop();
  }
}

export function formatManifestBench(r: ManifestBenchResult): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const v = r.service;
  const verdict = (ratio: number, goal: number) => `${ratio.toFixed(2)}× exceljs, goal ≤ ${goal}×: ${ratio <= goal ? 'met' : 'NOT met'}`;
  return [
    `manifest-validate: ${r.rows} DTOL rows, ${(r.fileBytes / 1024 / 1024).toFixed(1)} MiB xlsx; medians of ${r.runs} runs`,
    `  exceljs load        ${s(r.exceljsMs)}  (${s(r.exceljsRange[0])} to ${s(r.exceljsRange[1])})`,
    `  parseManifest       ${s(r.parseMs)}  (${(r.parseMs / r.exceljsMs).toFixed(2)}× exceljs)`,
    `  validateManifest    ${s(r.validateMs)}  (${(r.validateMs / r.exceljsMs).toFixed(2)}× exceljs; ${r.errors} errors, ${r.warnings} warnings)`,
    `  parse + validate    ${s(r.parseMs + r.validateMs)}  (${((r.parseMs + r.validateMs) / r.exceljsMs).toFixed(2)}× exceljs)`,
    `  through the service on ${v.database} (report: ${v.report.status}, ${v.report.rows} rows, ${v.report.errors} errors, ${v.report.warnings} warnings${v.report.failure ? `; ${v.report.failure}` : ''})`,
    `    upload answered   ${s(v.uploadAnsweredMs)}  (${(v.uploadAnsweredMs / r.exceljsMs).toFixed(2)}× exceljs)`,
    `    upload → report   ${s(v.uploadToReportMs)}  (${verdict(v.uploadToReportMs / r.exceljsMs, UPLOAD_TO_REPORT_GOAL)}; ${s(v.uploadToReportRange[0])} to ${s(v.uploadToReportRange[1])})`,
    v.confirmMs === null
      ? '    confirm           not attempted: the report is not complete without errors'
      : `    confirm           ${s(v.confirmMs)}  (${verdict(v.confirmMs / r.exceljsMs, CONFIRM_GOAL)}; ${v.created} samples created)`,
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(formatManifestBench(await benchManifestValidate()));
}
