import { rmSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { currentDefinition } from '@/lib/manifests';
import { validRows } from '../fixtures/manifests/generate';
import { toXlsx } from '../fixtures/manifests/workbook';
import type { RepositoryServer } from './repository-server';
import { type ServiceProcess, serviceDataDir, startService } from './service-process';

/**
 * A registration of `samples` DTOL samples killed with SIGKILL after ENA answered their ADD and before the answer
 * was kept (RMB_PAUSE_AT=registration:samples-answered), then resumed by a new process on the same database: what
 * the resume cost in time and in Webin calls. Shared by the crash test (tests/crash.test.ts) and `npm run bench`.
 * No test runner here, so the bench can run it.
 */

export interface ResumeOutcome {
  samples: number;
  database: 'PGlite' | 'PostgreSQL';
  /** from the restart to the registration accepted */
  resumeMs: number;
  /** from the restart to the new process answering (its start-up alone) */
  upMs: number;
  /** from the restart to the resumed process's first Webin call (start-up, and the job found again) */
  firstCallMs: number;
  /** Webin calls of the resumed process: submissions (ADD, RECEIPT, …) and reports */
  webinCalls: number;
  submissionCalls: { actions: string[]; success: boolean; objects: number }[];
  reportCalls: number[];
  /** Webin calls of the killed process, for comparison */
  callsBeforeCrash: number;
  /** what the registration ended with */
  status: string;
  accepted: number;
  distinctBiosamples: number;
  /** ADD documents ENA applied that named one of these samples, per sample (1 each when exactly once) */
  appliedAddsPerSample: number[];
  receipts: number;
}

const ADMIN = { username: 'resume-admin', password: 'resume-admin-password' };
const json = { 'content-type': 'application/json' };

/** Reads until done; a refused connection is read again (a process busy resuming may drop one), up to the time limit. */
async function until<T>(
  read: () => Promise<T>,
  done: (v: T) => boolean,
  what: string,
  timeoutMs: number,
  log?: () => string[],
): Promise<T> {
  const end = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const v = await read();
      if (done(v)) return v;
    } catch (err) {
      if (!(err instanceof TypeError)) throw err;
      lastError = err;
    }
    if (Date.now() > end) {
      const tail = log?.().slice(-20).join('\n') ?? '';
      throw new Error(`timed out waiting for ${what}${lastError ? ` (last: ${String(lastError)})` : ''}\n${tail}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

export async function resumeAfterCrash(
  server: RepositoryServer,
  /** pgliteTemplate: the test suite's dump of a migrated database, to start the embedded one from (service-process.ts) */
  opts: { samples: number; databaseUrl?: string; pgliteTemplate?: string; timeoutMs?: number },
): Promise<ResumeOutcome> {
  const timeoutMs = opts.timeoutMs ?? 600_000;
  const dataDir = await serviceDataDir('rmb-resume-', opts.databaseUrl ? undefined : opts.pgliteTemplate);
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    ...(opts.databaseUrl && { DATABASE_URL: opts.databaseUrl }),
    NEXTAUTH_SECRET: 'resume-secret',
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    ...server.enaSettings,
    TOLID_URL: 'http://127.0.0.1:9/tolid',
    LOG_LEVEL: 'warn',
  };
  let svc: ServiceProcess | null = null;
  try {
    svc = await startService({ ...env, RMB_PAUSE_AT: 'registration:samples-answered' });
    const running = () => svc as ServiceProcess;
    const call = async <T>(p: string, init: RequestInit = {}, key?: string): Promise<{ status: number; body: T }> => {
      const headers = new Headers(init.headers);
      if (key) headers.set('authorization', `token ${key}`);
      const res = await fetch(running().url + p, { ...init, headers });
      return { status: res.status, body: (await res.json().catch(() => null)) as T };
    };
    const must = <T>(r: { status: number; body: T }, status: number, what: string): T => {
      if (r.status !== status) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body;
    };
    const { token: key } = must(
      await call<{ token: string }>('/api/apiKey', { method: 'POST', headers: json, body: JSON.stringify(ADMIN) }),
      200,
      'sign-in',
    );
    const profile = must(
      await call<{ id: string }>(
        '/api/profiles',
        { method: 'POST', headers: json, body: JSON.stringify({ title: `Resume ${Date.now()}`, description: '', type: 'dtol' }) },
        key,
      ),
      201,
      'profile',
    );
    const dtol = currentDefinition('dtol');
    const fd = new FormData();
    fd.set('profile_id', profile.id);
    const workbook = await toXlsx(
      dtol.fields.map((f) => f.name),
      validRows(dtol, opts.samples),
      { typed: true },
    );
    fd.set('file', new File([new Uint8Array(workbook)], 'resume.xlsx'));
    const { report_id } = must(
      await call<{ report_id: string }>('/api/manifest/validate', { method: 'POST', body: fd }, key),
      202,
      'upload',
    );
    const report = await until(
      async () => (await call<{ status: string; errors: unknown[] }>(`/api/manifest/validate/report/${report_id}`, {}, key)).body,
      (r) => r.status === 'complete' || r.status === 'failed',
      'the validation',
      timeoutMs,
      () => running().lines,
    );
    if (report.status !== 'complete' || report.errors.length) throw new Error(`validation: ${JSON.stringify(report).slice(0, 500)}`);
    const { manifest_id } = must(
      await call<{ manifest_id: string }>(
        '/api/manifest/validate/confirm',
        { method: 'POST', headers: json, body: JSON.stringify({ validation_report_id: report_id }) },
        key,
      ),
      200,
      'confirm',
    );
    const ids: string[] = [];
    for (let offset = 0; ; offset += 100) {
      const page = must(
        await call<{ data: { svc_id: string }[] }>(`/api/samples/browse?manifest_id=${manifest_id}&limit=100&offset=${offset}`, {}, key),
        200,
        'browse',
      );
      ids.push(...page.data.map((s) => s.svc_id));
      if (page.data.length < 100) break;
    }
    if (ids.length !== opts.samples) throw new Error(`expected ${opts.samples} samples, browsed ${ids.length}`);
    must(
      await call(
        '/api/sample/decision',
        { method: 'POST', headers: json, body: JSON.stringify({ svc_ids: ids, decision: 'accept' }) },
        key,
      ),
      200,
      'acceptance',
    );

    // the specimens are kept, ENA answers the samples' ADD, and the process dies before it keeps the answer
    await running().waitForLine(/RMB_PAUSED registration:samples-answered/, timeoutMs);
    await running().kill();
    const callsBeforeCrash = server.ena.submissions.length + server.ena.reports.length;
    const submissionsBefore = server.ena.submissions.length;
    const reportsBefore = server.ena.reports.length;

    const restarted = performance.now();
    const restartedAt = Date.now();
    svc = await startService(env);
    const upMs = performance.now() - restarted;
    const registration = await until(
      async () =>
        (
          await call<{ data: { kind: string; status: string; receipts: unknown[]; submission_id: string }[] }>('/api/submissions', {}, key)
        ).body.data.find((s) => s.kind === 'samples'),
      (s) => !!s && s.status !== 'pending' && s.status !== 'processing',
      'the registration to resume',
      timeoutMs,
      () => running().lines,
    );
    const resumeMs = performance.now() - restarted;

    const registered: { status: string; biosampleAccession: string | null }[] = [];
    for (let offset = 0; ; offset += 100) {
      const page = must(
        await call<{ data: { status: string; biosampleAccession: string | null }[] }>(
          `/api/samples/browse?manifest_id=${manifest_id}&limit=100&offset=${offset}`,
          {},
          key,
        ),
        200,
        'browse',
      );
      registered.push(...page.data);
      if (page.data.length < 100) break;
    }
    const submissionCalls = server.ena.submissions
      .slice(submissionsBefore)
      .map((s) => ({ actions: s.actions, success: s.success, objects: s.objects.length }));
    const reportCalls = server.ena.reports.slice(reportsBefore).map((r) => r.ids.length);
    const firstCall = Math.min(
      ...server.ena.submissions.slice(submissionsBefore).map((s) => s.at.getTime()),
      ...server.ena.reports.slice(reportsBefore).map((r) => r.at.getTime()),
    );
    const idSet = new Set(ids);
    const applied = new Map(ids.map((id) => [id, 0]));
    for (const s of server.ena.submissions) {
      if (!s.success || !s.actions.includes('ADD')) continue;
      for (const o of s.objects) if (idSet.has(o.alias)) applied.set(o.alias, (applied.get(o.alias) ?? 0) + 1);
    }
    return {
      samples: opts.samples,
      database: opts.databaseUrl ? 'PostgreSQL' : 'PGlite',
      resumeMs,
      upMs,
      firstCallMs: Number.isFinite(firstCall) ? firstCall - restartedAt : Number.NaN,
      webinCalls: submissionCalls.length + reportCalls.length,
      submissionCalls,
      reportCalls,
      callsBeforeCrash,
      status: registration?.status ?? 'missing',
      accepted: registered.filter((s) => s.status === 'accepted').length,
      distinctBiosamples: new Set(registered.flatMap((s) => s.biosampleAccession ?? [])).size,
      appliedAddsPerSample: [...applied.values()],
      receipts: registration?.receipts.length ?? 0,
    };
  } finally {
    await svc?.stop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
