import { rmSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { acceptSamples, adminKey, browseManifest, pendingDtolSamples, serviceApi, until } from './dtol-samples';
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

export async function resumeAfterCrash(
  server: RepositoryServer,
  /** pgliteTemplate: the test suite's dump of a migrated database, to start the embedded one from (service-process.ts) */
  /** serviceBundle: the service to run (service-process.ts), when no test runner gives the suite's */
  opts: { samples: number; databaseUrl?: string; pgliteTemplate?: string; timeoutMs?: number; serviceBundle?: string },
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
    svc = await startService({ ...env, RMB_PAUSE_AT: 'registration:samples-answered' }, opts.serviceBundle);
    const running = () => svc as ServiceProcess;
    const api = serviceApi(() => running().url);
    const key = await adminKey(api, ADMIN);
    const { manifestId: manifest_id, ids } = await pendingDtolSamples(api, key, {
      samples: opts.samples,
      title: `Resume ${Date.now()}`,
      timeoutMs,
      log: () => running().lines,
    });
    await acceptSamples(api, key, ids);

    // the specimens are kept, ENA answers the samples' ADD, and the process dies before it keeps the answer
    await running().waitForLine(/RMB_PAUSED registration:samples-answered/, timeoutMs);
    await running().kill();
    const callsBeforeCrash = server.ena.submissions.length + server.ena.reports.length;
    const submissionsBefore = server.ena.submissions.length;
    const reportsBefore = server.ena.reports.length;

    const restarted = performance.now();
    const restartedAt = Date.now();
    svc = await startService(env, opts.serviceBundle);
    const upMs = performance.now() - restarted;
    const registration = await until(
      async () =>
        (
          await api.call<{ data: { kind: string; status: string; receipts: unknown[]; submission_id: string }[] }>(
            '/api/submissions',
            {},
            key,
          )
        ).body.data.find((s) => s.kind === 'samples'),
      (s) => !!s && s.status !== 'pending' && s.status !== 'processing',
      'the registration to resume',
      timeoutMs,
      () => running().lines,
    );
    const resumeMs = performance.now() - restarted;

    const registered = await browseManifest<{ status: string; biosampleAccession: string | null }>(api, key, manifest_id);
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
