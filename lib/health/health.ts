import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { briefly } from '@/lib/concurrency';
import { type Config, externalServices } from '@/lib/config';
import type { FileStore } from '@/lib/files/store';
import type { JobQueue } from '@/lib/jobs/queue';
import { checklistsCheck } from '@/lib/sample-checklists/refresh';
import { hubCheck } from '@/lib/samples/hub';
import type { Check, Health } from './contract';

// a health check answers within this, whatever is down
const CHECK_TIMEOUT_MS = 3000;

async function timed<T>(what: string, run: () => Promise<T>): Promise<{ check: Check; value?: T }> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    const value = await Promise.race([
      run(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} did not answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
      }),
    ]);
    return { check: { ok: true, latency_ms: Math.round(performance.now() - started) }, value };
  } catch (err) {
    return {
      check: { ok: false, latency_ms: Math.round(performance.now() - started), error: err instanceof Error ? err.message : String(err) },
    };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * How long the queue's figures, the storage's answer and the last Local Contexts Hub check are kept: a load balancer or
 * a monitor polling every second then costs one query, not a write to the storage and five reads each time (`deep`
 * checks them now).
 */
export const HEALTH_CHECKS_KEPT_SECONDS = 5;

interface HealthDeps {
  db: Db;
  kind: 'pglite' | 'postgres';
  jobs: JobQueue;
  files: FileStore;
  config: Config;
}

/** The parts of the health answer that may be a few seconds old: the queue, the storage and the hub's last check. */
const checkKeptParts = async (deps: HealthDeps) => {
  const [queue, storage, hub, checklists] = await Promise.all([
    timed('the job queue', () => deps.jobs.health()),
    timed('the storage', () => deps.files.check()),
    // written by the hourly rights check and the daily checklists' refresh, so a few seconds old is as good as now
    timed('the last Local Contexts Hub check', () => hubCheck(deps.db)),
    timed('the last read of ENA’s checklists', () => checklistsCheck(deps.db)),
  ]);
  return { queue, storage, hub, checklists, checkedAt: new Date() };
};
// keyed by the queue, which lives as long as the service; a failed check is kept too (it is an answer, not an error)
const recentKeptParts = briefly(HEALTH_CHECKS_KEPT_SECONDS * 1000, (_jobs: JobQueue, deps: HealthDeps) => checkKeptParts(deps));

/**
 * The database (asked every time: it decides between 200 and 503), the queue (oldest waiting job), the storage and
 * the hub's last check, each answered within three seconds; all but the database as checked at most
 * HEALTH_CHECKS_KEPT_SECONDS ago, or now when `deep`.
 */
export async function checkHealth(deps: HealthDeps, opts: { deep?: boolean } = {}): Promise<Health> {
  const [database, { queue, storage, hub, checklists, checkedAt }] = await Promise.all([
    timed('the database', () => deps.db.execute(sql`select 1`)),
    opts.deep ? checkKeptParts(deps) : recentKeptParts(deps.jobs, deps),
  ]);
  return {
    checked_at: checkedAt.toISOString(),
    status: !database.check.ok ? 'down' : queue.check.ok && storage.check.ok ? 'ok' : 'degraded',
    database: { ...database.check, kind: deps.kind },
    queue: { ...queue.check, ...queue.value },
    storage: { ...storage.check, kind: deps.files.kind },
    services: externalServices(deps.config),
    local_contexts: hub.value ?? { ok: null, detail: hub.check.error ?? 'unknown', checked_at: null },
    ena_checklists: checklists.value ?? { ok: null, detail: checklists.check.error ?? 'unknown', checked_at: null },
  };
}
