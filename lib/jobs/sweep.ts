import { type SQL, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '@/db/client';
import { rowsOf } from '@/db/rows';
import { announceJob } from './announce';
import type { JobName } from './contract';
import type { Liveness } from './liveness';
import { DEAD_AFTER_SECONDS, HEARTBEAT_SECONDS, SILENT_FOR_GOOD_SECONDS } from './runs';
import type { BoundJob, JobQueue } from './spec';

/**
 * The sweep (`jobs.sweep`, every minute and once when a worker starts) keeps the promise that every job ends:
 *
 * 1. A job pg-boss shows active whose process is gone (lib/jobs/liveness.ts) is failed back to pg-boss, which runs
 *    it again at once (the run cost an attempt), or, if that was its last run, its work is given up with the reason.
 *    On PostgreSQL every worker instance also looks for such jobs every HEARTBEAT_SECONDS (`watchDeadRuns`), so
 *    another instance takes over within seconds, not at the next minute's sweep.
 * 2. Open work whose job is gone (never sent, or lost) is queued again; open work whose job failed for good is
 *    given up. "Open": a report pending or running, a submission pending or processing, an email queued.
 * 3. Each job's domain recovers what it does without a job (a publication left processing by a process that died).
 */

export interface SweepDeps {
  db: Db;
  logger: Logger;
  queue: JobQueue;
  giveUp(name: JobName, jobId: string | null, data: unknown, reason: string, attempts: number): Promise<void>;
  /** the jobs: the open work each owns, and the recoveries of their domains */
  jobs: BoundJob[];
}

/** Open work of a job: the rows still waiting for it, and the key its data carries their id under. */
interface OpenWork {
  name: JobName;
  key: string;
  open: SQL;
}

export interface SweepContext {
  liveness: Liveness;
  processStartedAt: Date;
  /** fails an active job back to pg-boss, in `tx` */
  failJob(tx: Db, name: JobName, id: string, reason: string): Promise<void>;
}

export interface SweepResult {
  /** active jobs handed back to the queue (or given up) because their process died */
  dead: number;
  /** open work queued again because its job was gone */
  requeued: number;
  /** open work given up because its job failed for good */
  givenUp: number;
}

export async function sweepJobs(deps: SweepDeps, ctx: SweepContext): Promise<SweepResult> {
  const result: SweepResult = { dead: 0, requeued: 0, givenUp: 0 };
  await handBackDeadRuns(deps, ctx, result);
  await dropStaleRuns(deps.db);
  for (const job of deps.jobs) if (job.openWork) await recoverLostWork(deps, { name: job.name, ...job.openWork }, result);
  for (const job of deps.jobs) await job.recover?.();
  if (result.dead || result.requeued || result.givenUp) deps.logger.warn({ ...result }, 'job sweep recovered work');
  return result;
}

interface ActiveJob {
  id: string;
  name: JobName;
  data: unknown;
  retry_count: number;
  retry_limit: number;
  started_on: string;
  started_before_us: boolean;
  started_seconds: number;
  instance: string | null;
  heartbeat_at: string | null;
  heartbeat_seconds: number | null;
}

/** The active jobs whose process is gone: see lib/jobs/liveness.ts and lib/jobs/runs.ts. */
async function deadJobs(jobs: ActiveJob[], ctx: SweepContext): Promise<ActiveJob[]> {
  const { liveness } = ctx;
  const gone = await liveness.deadAmong(
    jobs.flatMap((j) =>
      j.instance && j.instance !== liveness.instance && j.heartbeat_at !== null
        ? [{ instance: j.instance, heartbeatAt: j.heartbeat_at, heartbeatSeconds: j.heartbeat_seconds ?? 0 }]
        : [],
    ),
  );
  return jobs.filter((j) => {
    if (!j.instance) return j.started_seconds > DEAD_AFTER_SECONDS || (liveness.exclusive && j.started_before_us);
    if (j.instance === liveness.instance) return false;
    return (j.heartbeat_seconds ?? 0) > SILENT_FOR_GOOD_SECONDS || gone.has(j.instance);
  });
}

async function handBackDeadRuns(deps: SweepDeps, ctx: SweepContext, result: SweepResult) {
  const { db } = deps;
  const active = rowsOf<ActiveJob>(
    await db.execute(sql`
      select j.id::text as id, j.name, j.data, j.retry_count, j.retry_limit, j.started_on::text as started_on,
        j.started_on < ${ctx.processStartedAt.toISOString()}::timestamptz as started_before_us,
        extract(epoch from now() - j.started_on)::int as started_seconds,
        r.instance, r.heartbeat_at::text as heartbeat_at, extract(epoch from now() - r.heartbeat_at)::int as heartbeat_seconds
      from pgboss.job j
      left join job_runs r on r.job_id = j.id
      where j.state = 'active'`),
  );
  for (const job of await deadJobs(active, ctx)) {
    const reason = `The process running it stopped${job.instance ? ` (${job.instance})` : ''} before it finished.`;
    // only the run found dead: a sweep of another instance may have handed it back already, and a worker taken it
    const handedBack = await db.transaction(async (tx) => {
      const still = rowsOf<{ one: number }>(
        await tx.execute(sql`
          select 1 as one from pgboss.job
          where id = ${job.id}::uuid and state = 'active' and started_on = ${job.started_on}::timestamptz
          for update`),
      );
      if (!still.length) return false;
      await ctx.failJob(tx, job.name, job.id, reason);
      // its process is gone, not held up by something that may pass: the next run need not wait out the retry delay
      await tx.execute(sql`update pgboss.job set start_after = now() where id = ${job.id}::uuid and state = 'retry'`);
      await tx.execute(sql`delete from job_runs where job_id = ${job.id}::uuid`);
      if (job.retry_count < job.retry_limit) await announceJob(tx, job.name);
      return true;
    });
    if (!handedBack) continue;
    result.dead += 1;
    if (job.retry_count >= job.retry_limit) {
      await deps.giveUp(job.name, job.id, job.data, `${reason} It had run ${job.retry_count + 1} times.`, job.retry_count + 1);
      result.givenUp += 1;
    }
  }
}

/**
 * Between sweeps, on PostgreSQL: when another instance's run has missed a heartbeat, the active jobs are looked at
 * as the sweep does (its lock, twice, lib/jobs/liveness.ts), and those of a process that is gone handed back.
 */
export async function watchDeadRuns(deps: SweepDeps, ctx: SweepContext): Promise<SweepResult> {
  const result: SweepResult = { dead: 0, requeued: 0, givenUp: 0 };
  const late = rowsOf<{ one: number }>(
    await deps.db.execute(sql`
      select 1 as one from job_runs
      where instance <> ${ctx.liveness.instance} and heartbeat_at < now() - make_interval(secs => ${HEARTBEAT_SECONDS + 1})
      limit 1`),
  );
  if (!late.length) return result;
  await handBackDeadRuns(deps, ctx, result);
  if (result.dead) deps.logger.warn({ ...result }, 'job sweep recovered work');
  return result;
}

/** Records of runs whose job is no longer active (a process that died between the two writes). */
async function dropStaleRuns(db: Db) {
  await db.execute(sql`
    delete from job_runs r
    where r.heartbeat_at < now() - make_interval(secs => ${DEAD_AFTER_SECONDS})
      and not exists (select 1 from pgboss.job j where j.id = r.job_id and j.state = 'active')`);
}

async function recoverLostWork(deps: SweepDeps, work: OpenWork, result: SweepResult) {
  const { db } = deps;
  const lost = rowsOf<{ id: string; failed: boolean; runs: number }>(
    await db.execute(sql`
      with open_work as (${work.open})
      select w.id,
        exists (select 1 from pgboss.job j where j.name = ${work.name} and j.data->>${work.key} = w.id and j.state = 'failed')
          or exists (select 1 from pgboss.archive a where a.name = ${work.name} and a.data->>${work.key} = w.id and a.state = 'failed') as failed,
        (select coalesce(max(j.retry_count) + 1, 0)::int from pgboss.job j where j.name = ${work.name} and j.data->>${work.key} = w.id) as runs
      from open_work w
      where not exists (
        select 1 from pgboss.job j
        where j.name = ${work.name} and j.data->>${work.key} = w.id and j.state in ('created', 'retry', 'active'))`),
  );
  for (const w of lost) {
    const data = { [work.key]: w.id } as never;
    if (w.failed) {
      await deps.giveUp(work.name, null, data, `Its job failed ${w.runs || 'several'} times without finishing.`, w.runs);
      result.givenUp += 1;
    } else if (await requeueOnce(deps, work, w.id)) {
      result.requeued += 1;
    }
  }
}

/**
 * Queues lost work again, once however many instances sweep at the same moment: under a lock on the work's id, the
 * job is sent only if no other sweep has sent one since this one looked.
 */
async function requeueOnce(deps: SweepDeps, work: OpenWork, id: string): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`${work.name}:${id}`}))`);
    const queued = rowsOf<{ one: number }>(
      await tx.execute(sql`
        select 1 as one from pgboss.job j
        where j.name = ${work.name} and j.data->>${work.key} = ${id} and j.state in ('created', 'retry', 'active')
        limit 1`),
    );
    if (queued.length) return false;
    await deps.queue.send(work.name, { [work.key]: id } as never, { tx });
    return true;
  });
}
