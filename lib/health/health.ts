import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { type Config, externalServices } from '@/lib/config';
import type { FileStore } from '@/lib/files/store';
import type { JobQueue } from '@/lib/jobs/queue';
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

/** The database, the queue (oldest waiting job) and the storage, each answered within three seconds. */
export async function checkHealth(deps: {
  db: Db;
  kind: 'pglite' | 'postgres';
  jobs: JobQueue;
  files: FileStore;
  config: Config;
}): Promise<Health> {
  const [database, queue, storage, hub] = await Promise.all([
    timed('the database', () => deps.db.execute(sql`select 1`)),
    timed('the job queue', () => deps.jobs.health()),
    timed('the storage', () => deps.files.check()),
    timed('the last Local Contexts Hub check', () => hubCheck(deps.db)),
  ]);
  return {
    status: !database.check.ok ? 'down' : queue.check.ok && storage.check.ok ? 'ok' : 'degraded',
    database: { ...database.check, kind: deps.kind },
    queue: { ...queue.check, ...queue.value },
    storage: { ...storage.check, kind: deps.files.kind },
    services: externalServices(deps.config),
    local_contexts: hub.value ?? { ok: null, detail: hub.check.error ?? 'unknown', checked_at: null },
  };
}
