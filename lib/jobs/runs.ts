import { eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '@/db/client';
import { jobRuns } from '@/db/schema';

/** How often a running job says it is alive (and how often each instance looks for runs whose process is gone). */
export const HEARTBEAT_SECONDS = 2;
/** A job taken by a process that never wrote its run record is dead after this long. */
export const DEAD_AFTER_SECONDS = 90;
/**
 * On PostgreSQL: an instance's lock (lib/jobs/liveness.ts) seen free on two looks at least this far apart, its
 * heartbeat not moving in between, means its process is gone. A live process whose lock connection dropped takes
 * the lock again, and beats, within HEARTBEAT_SECONDS, well inside this window.
 */
export const LOCK_FREE_CONFIRM_SECONDS = 5;
/** On PostgreSQL: its lock free and silent this long is enough on one look (a run found by a sweep long after). */
export const LOCK_FREE_AND_QUIET_SECONDS = 30;
/**
 * A restart of PostgreSQL drops every instance's lock until its process takes it again: for this long after the
 * database server started, a free lock proves nothing, and only SILENT_FOR_GOOD_SECONDS counts.
 */
export const DATABASE_RESTART_GRACE_SECONDS = 60;
/** Silent this long, whatever the lock says (a process cut off from the database): treated as gone. */
export const SILENT_FOR_GOOD_SECONDS = 5 * 60;

/**
 * Records that this process runs the job and keeps the record's heartbeat fresh until `end`. A heartbeat that
 * cannot be written (the database restarting) is logged and tried again at the next beat; the job goes on.
 */
export async function beginRun(
  db: Db,
  logger: Logger,
  run: { jobId: string; name: string; instance: string },
): Promise<{ end(): Promise<void> }> {
  await db
    .insert(jobRuns)
    .values({ jobId: run.jobId, name: run.name, instance: run.instance })
    .onConflictDoUpdate({ target: jobRuns.jobId, set: { instance: run.instance, startedAt: sql`now()`, heartbeatAt: sql`now()` } });
  const timer = setInterval(() => {
    db.update(jobRuns)
      .set({ heartbeatAt: sql`now()` })
      .where(eq(jobRuns.jobId, run.jobId))
      .catch((err: unknown) => logger.warn({ err, job: run.name, job_id: run.jobId }, 'job heartbeat not written'));
  }, HEARTBEAT_SECONDS * 1000);
  timer.unref();
  return {
    async end() {
      clearInterval(timer);
      await db
        .delete(jobRuns)
        .where(eq(jobRuns.jobId, run.jobId))
        .catch((err: unknown) => logger.warn({ err, job: run.name, job_id: run.jobId }, 'job run record not removed; the sweep will'));
    },
  };
}
