/**
 * `npm run bench:registration` (issue 60): `samples` DTOL samples approved in one decision, timed from the approval
 * to the moment every one of them holds its accessions, against the Webin stand-in answering each call after a delay
 * (1 s, then 3 s: the real Webin's range), on PostgreSQL (a database of its own, dropped afterwards), with the built
 * service as the deployment runs it. Prints, per delay, a markdown table beside the goals: the samples registered
 * within twice the Webin calls' own time (calls × delay), and at most one call per 100 samples.
 *
 *   BENCH_DATABASE_URL    the PostgreSQL server (default postgres://postgres@127.0.0.1:5432/test)
 *   REGISTRATION_SAMPLES  how many samples (default 2,000)
 *   REGISTRATION_DELAYS   Webin's answer delays to run, in ms, comma-separated (default 1000,3000)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import postgres from 'postgres';
import { SERVICE_ENV, SERVICE_NODE_FLAGS } from '../scripts/node-flags.mjs';
import { buildTaxonRecords } from '../tests/fixtures/manifests/taxa';
import { acceptSamples, adminKey, pendingDtolSamples, serviceApi } from '../tests/support/dtol-samples';
import { type RecordedRequest, startRepositoryServer } from '../tests/support/repository-server';
import { scratchDatabase } from './databases';
import { buildService, killProcesses, type Proc, startProcess } from './processes';

const SERVER_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ADMIN = { username: 'registration-admin', password: 'registration-admin-password' };
const progress = (line: string) => console.error(`  … ${line}`);

/** Goals of issue 60. */
const GOALS = { timeOverCalls: 2, callsPer100: 1 };

interface RegistrationRun {
  samples: number;
  delayMs: number;
  /** every Webin request from the approval on (submissions, polls, the reports service) */
  webinCalls: number;
  /** the calls by kind: `submit ADD`, `poll`, `report`, … */
  callsByKind: Record<string, number>;
  /** samples in each SAMPLE_SET document ENA applied or refused, in the order sent */
  documents: { objects: number; success: boolean; atMs: number }[];
  /** from the approval's request to the last sample holding its accessions */
  totalMs: number;
  /** the approval's own request */
  approvalMs: number;
  /** when each Webin call reached the stand-in, from the approval's request */
  arrivalsMs: number[];
  /** from the approval's request to the first Webin call */
  firstCallMs: number;
  /** from the approval's request to the last Webin answer (at the latest of its delay and the stand-in's work) */
  lastCallMs: number;
  registered: number;
  distinctBiosamples: number;
  /** ADD documents ENA applied that named each sample (1 each when exactly once) */
  addsPerSample: number[];
}

/** What a Webin request is, for the breakdown of the calls. */
function kindOf(r: RecordedRequest): string {
  if (/\/submit\/poll\//.test(r.path)) return 'poll';
  if (/\/report\//.test(r.path)) return 'report';
  if (/\/submit(\/queue)?\/?$/.test(r.path)) return /\/queue\/?$/.test(r.path) ? 'queue' : 'submit';
  return r.path;
}

async function benchRegistration(entry: string, samples: number, delayMs: number): Promise<RegistrationRun> {
  const database = await scratchDatabase(SERVER_URL, 'rmb_bench_registration_');
  const databaseUrl = database.url;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'rmb-bench-registration-'));
  const server = await startRepositoryServer({ taxa: buildTaxonRecords().records, webinDelayMs: delayMs });
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  let svc: Proc | null = null;
  try {
    svc = await startProcess(
      [...SERVICE_NODE_FLAGS, entry],
      {
        ...SERVICE_ENV,
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl,
        NEXTAUTH_SECRET: 'registration-bench-secret',
        ADMIN_USERNAME: ADMIN.username,
        ADMIN_PASSWORD: ADMIN.password,
        ...server.enaSettings,
        // no ToLID service: the samples go to ENA with their approval
        TOLID_URL: 'http://127.0.0.1:9/tolid',
      },
      '/api/health',
    );
    const running = svc;
    const api = serviceApi(() => running.url);
    const key = await adminKey(api, ADMIN);
    progress(`${samples} samples: uploading and validating the manifest`);
    const { manifestId, ids } = await pendingDtolSamples(api, key, {
      samples,
      title: `Registration ${Date.now()}`,
      timeoutMs: 600_000,
      log: () => running.lines,
    });
    const requestsBefore = server.requests.length;
    const submissionsBefore = server.ena.submissions.length;
    progress(`Webin answering after ${delayMs} ms: approving ${samples} samples`);

    const startedAt = Date.now();
    const started = performance.now();
    await acceptSamples(api, key, ids);
    const approvalMs = performance.now() - started;
    let registered = 0;
    for (;;) {
      const [row] = await sql<{ registered: number; refused: number }[]>`
        select count(*) filter (where status = 'accepted' and biosample_accession is not null and sra_accession is not null)::int as registered,
               count(*) filter (where status = 'rejected')::int as refused
        from samples where manifest_id = ${manifestId}`;
      registered = row?.registered ?? 0;
      if (registered === samples) break;
      if (row && row.refused > 0) throw new Error(`${row.refused} samples rejected:\n${running.lines.slice(-20).join('\n')}`);
      if (performance.now() - started > 1_800_000) throw new Error(`${registered} of ${samples} registered after 30 minutes`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const totalMs = performance.now() - started;

    const calls = server.requests.slice(requestsBefore).filter((r) => r.service === 'ena');
    const callsByKind: Record<string, number> = {};
    for (const r of calls) {
      const kind = kindOf(r);
      callsByKind[kind] = (callsByKind[kind] ?? 0) + 1;
    }
    const sent = server.ena.submissions.slice(submissionsBefore);
    const idSet = new Set(ids);
    const adds = new Map(ids.map((id) => [id, 0]));
    for (const s of sent) {
      if (!s.success || !s.actions.includes('ADD')) continue;
      for (const o of s.objects) if (idSet.has(o.alias)) adds.set(o.alias, (adds.get(o.alias) ?? 0) + 1);
    }
    const [distinct] = await sql<{ n: number }[]>`
      select count(distinct biosample_accession)::int as n from samples where manifest_id = ${manifestId}`;
    // a call's answer leaves the stand-in `delayMs` after it arrived
    const arrivals = calls.map((r) => r.at.getTime() - startedAt);
    return {
      samples,
      delayMs,
      webinCalls: calls.length,
      callsByKind,
      documents: sent.map((s) => ({ objects: s.objects.length, success: s.success, atMs: s.at.getTime() - startedAt })),
      totalMs,
      approvalMs,
      arrivalsMs: arrivals,
      firstCallMs: arrivals.length ? Math.min(...arrivals) : Number.NaN,
      // a call is answered `delayMs` after it arrived, or once the stand-in is done with it when that takes longer
      lastCallMs: Math.max(...arrivals.map((a) => a + delayMs), ...sent.map((s) => s.at.getTime() - startedAt)),
      registered,
      distinctBiosamples: distinct?.n ?? 0,
      addsPerSample: [...adds.values()],
    };
  } finally {
    await sql.end();
    await svc?.stop().catch(() => undefined);
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
    await database.drop();
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** A run as a small markdown table beside the goals, and what it was made of. */
function formatRegistrationRun(r: RegistrationRun): string {
  const budgetMs = r.webinCalls * r.delayMs;
  const ratio = r.totalMs / budgetMs;
  const per100 = (r.webinCalls / r.samples) * 100;
  const timeMet = ratio <= GOALS.timeOverCalls;
  const callsMet = per100 <= GOALS.callsPer100;
  const once = r.addsPerSample.every((n) => n === 1);
  const kinds = Object.entries(r.callsByKind)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');
  // each document as it reached Webin: its objects, and when, from the approval's request
  const documents = r.documents.map((d) => `${d.objects}${d.success ? '' : ' refused'} at ${seconds(d.atMs)}`).join(', ');
  return [
    `### Webin answering each call after ${r.delayMs / 1000} s`,
    '',
    '| samples | Webin calls | calls × delay | time to the last accession | ratio | verdict |',
    '| ---: | ---: | ---: | ---: | ---: | --- |',
    `| ${r.samples.toLocaleString('en')} | ${r.webinCalls} (${per100.toFixed(2)} per 100 samples) | ${seconds(budgetMs)} | ${seconds(r.totalMs)} | ${ratio.toFixed(2)} | ${timeMet ? 'met' : 'NOT met'} (≤ ${GOALS.timeOverCalls}×); calls ${callsMet ? 'met' : 'NOT met'} (≤ ${GOALS.callsPer100} per 100) |`,
    '',
    `- calls: ${kinds}, reaching the stand-in at ${r.arrivalsMs.map(seconds).join(', ')}`,
    `- documents (objects each, when the stand-in had applied them): ${documents}`,
    `- the approval's request ${seconds(r.approvalMs)}; first Webin call at ${seconds(r.firstCallMs)}, last answer at ${seconds(r.lastCallMs)}`,
    `- ${r.registered} samples registered, ${r.distinctBiosamples} distinct BioSample accessions; each sample added ${once ? 'exactly once' : `${[...new Set(r.addsPerSample)].join('/')} times`}`,
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const samples = Number(process.env.REGISTRATION_SAMPLES ?? 2_000);
  const delays = (process.env.REGISTRATION_DELAYS ?? '1000,3000').split(',').map(Number);
  try {
    progress('building the service (scripts/build-server.mjs)');
    const entry = buildService('bench-registration');
    console.log(`## Registration end to end: ${samples.toLocaleString('en')} DTOL samples on PostgreSQL\n`);
    for (const delayMs of delays) console.log(`${formatRegistrationRun(await benchRegistration(entry, samples, delayMs))}\n`);
  } finally {
    killProcesses();
  }
}
