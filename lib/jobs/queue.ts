import { sql } from 'drizzle-orm';
import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import { CONNECT_TIMEOUT_SECONDS, type Database, type Db } from '@/db/client';
import { rowsOf } from '@/db/rows';
import type { AnyJobData, JobData, JobName, QueueHealth } from './contract';
import { recordDeadLetter } from './dead-letters';
import { startLiveness } from './liveness';
import { beginRun } from './runs';
import { type SweepResult, sweepJobs } from './sweep';

/** Every background job and what it carries: lib/jobs/contract.ts. */
export type { JobData, JobName } from './contract';

export const JOB_NAMES: readonly JobName[] = [
  'manifest.validate',
  'samples.register',
  'tolids.request',
  'registrations.sweep',
  'jobs.sweep',
  'study.submit',
  'rights.check',
  'approvals.remind',
  'email.send',
];

/**
 * The one rule for attempts: pg-boss runs a job at most 1 + RETRY_LIMIT times (a thrown error, or a process that
 * died on it, costs one run), and the last run that fails ends the work through the job's give-up (below). Outages of
 * a repository are not counted here: the work defers itself with back-off (lib/jobs/backoff.ts) and completes the run.
 */
export const RETRY_LIMIT = 3;
export const RUNS_PER_JOB = 1 + RETRY_LIMIT;

/** Which run of its job this is, from pg-boss's own count. */
export interface JobRun {
  jobId: string;
  /** 1 for the first run */
  attempt: number;
  /** no run follows this one if it fails */
  last: boolean;
}

/** A job run by hand (tests, the admin's retry) as if it were the first of several. */
export const FIRST_RUN: JobRun = { jobId: '00000000-0000-0000-0000-000000000000', attempt: 1, last: false };

export type JobHandlers = { [N in JobName]?: (data: JobData[N], run?: JobRun) => Promise<void> };

/**
 * What ends a job's work when its last run failed, or the process running its last run died: the work is marked
 * failed with a reason its owner can read, so nothing waits for it, and a retry is possible.
 */
export type JobGiveUps = { [N in JobName]?: (data: JobData[N], reason: string) => Promise<void> };

export interface JobDefinitions {
  handlers: JobHandlers;
  giveUps: JobGiveUps;
}

export interface SendOptions {
  /**
   * The transaction writing the rows the job needs: the job is inserted in it, so it exists if and only if they do
   * (a crash can leave neither a row without its job nor a job without its row).
   */
  tx?: Db;
  /** run no earlier than this many seconds from now */
  startAfterSeconds?: number;
}

export interface JobQueue {
  send<N extends JobName>(name: N, data: JobData[N], opts?: SendOptions): Promise<void>;
  /**
   * A job of `name` has just been committed: this instance's worker for it looks now instead of at its next poll
   * (up to a second away), for work someone is waiting on. Nothing happens where this instance runs no workers.
   */
  wake(name: JobName): void;
  /** what /api/health reports of the queue */
  health(): Promise<QueueHealth>;
}

export interface RunningQueue {
  queue: JobQueue;
  /** runs the sweep now (the scheduled one runs every minute) */
  sweep(): Promise<SweepResult>;
  stop(): Promise<void>;
}

/**
 * pg-boss's own expiry, a backstop only: a process that dies is noticed by its stopped heartbeat within a minute or
 * two (lib/jobs/sweep.ts). It must outlast the longest honest run, so a study's reads get hours.
 */
const EXPIRE_SECONDS: Record<JobName, number> = {
  'manifest.validate': 30 * 60,
  'samples.register': 2 * 60 * 60,
  'tolids.request': 30 * 60,
  'registrations.sweep': 10 * 60,
  'jobs.sweep': 10 * 60,
  'study.submit': 12 * 60 * 60,
  'rights.check': 30 * 60,
  'approvals.remind': 30 * 60,
  'email.send': 10 * 60,
};

/**
 * Cron jobs and when they run: every instance schedules them, pg-boss keeps one schedule per name. The hourly ones
 * pick only what is due (a sample not looked up for a day, an approver not reminded for REMINDER_DAYS), so a missed
 * hour is caught up at the next.
 */
const SCHEDULES: Partial<Record<JobName, string>> = {
  'registrations.sweep': '* * * * *',
  'jobs.sweep': '* * * * *',
  'rights.check': '23 * * * *',
  'approvals.remind': '41 * * * *',
};
const SCHEDULED = Object.keys(SCHEDULES) as JobName[];

/** PGlite runs one statement per prepared query, so pg-boss's multi-statement migrations go through exec. */
function pgliteAdapter(database: Database): PgBoss.Db {
  const pg = database.pglite;
  if (!pg) throw new Error('expected the PGlite instance of a PGlite database');
  return {
    async executeSql(text: string, values: unknown[]) {
      if (!values?.length) {
        const results = await pg.exec(text);
        return { rows: (results[results.length - 1]?.rows ?? []) as unknown[] as never[] };
      }
      const result = await pg.query(text, values);
      return { rows: result.rows as never[] };
    },
  };
}

/** A job parameter as the pg driver pg-boss is written for would send it: plain objects as JSON, undefined as null. */
const asParam = (v: unknown): unknown =>
  v === undefined
    ? null
    : v !== null && typeof v === 'object' && !(v instanceof Date) && !Array.isArray(v) && !Buffer.isBuffer(v)
      ? JSON.stringify(v)
      : v;

/** The driver under a Drizzle transaction: a PGlite transaction (`query`) or a postgres-js one (`unsafe`). */
interface DriverTransaction {
  query?: (text: string, params: unknown[]) => Promise<{ rows: unknown[] }>;
  unsafe?: (text: string, params: unknown[]) => Promise<unknown[]>;
}

/**
 * pg-boss's SQL run on the connection of a Drizzle transaction. Its statements use a placeholder several times
 * with one meaning (`right($5, 1)` then `CAST($5 …)`), so they go to the driver as written, with their parameters,
 * rather than through Drizzle's query builder, which would bind each use separately.
 */
export function transactionAdapter(tx: Db): PgBoss.Db {
  const driver = (tx as unknown as { session?: { client?: DriverTransaction } }).session?.client;
  if (!driver?.query && !driver?.unsafe) throw new Error('the transaction exposes no driver to send jobs on');
  return {
    async executeSql(text: string, values: unknown[] = []) {
      const params = values.map(asParam);
      if (driver.unsafe) return { rows: (await driver.unsafe(text, params)) as never[] };
      if (driver.query) return { rows: (await driver.query(text, params)).rows as never[] };
      throw new Error('the transaction exposes no driver to send jobs on');
    },
  };
}

export const reasonOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * pg-boss on the service's own database: durable, retried jobs with no extra server. With `workers: false` the
 * instance only enqueues (a web-only process, or a test that runs jobs by hand).
 */
export async function startJobQueue(
  database: Database,
  logger: Logger,
  /** the handlers and give-ups, given the queue they may send follow-up jobs to */
  definitionsOf: (queue: JobQueue) => JobDefinitions,
  opts: {
    workers?: boolean;
    pollingIntervalSeconds?: number;
    /** before a failed job runs again: this many seconds, doubling each run (default 5) */
    retryDelaySeconds?: number;
  } = {},
): Promise<RunningQueue> {
  const db = database.db;
  const workers = opts.workers !== false;
  const base: PgBoss.ConstructorOptions = {
    schema: 'pgboss',
    expireInSeconds: 30 * 60,
    retryLimit: RETRY_LIMIT,
    retryDelay: opts.retryDelaySeconds ?? 5,
    retryBackoff: true,
    // maintenance and cron are for long-lived servers; a worker-less instance skips them
    supervise: workers,
    schedule: workers,
  };
  const boss =
    database.kind === 'postgres'
      ? // the pool options pg-boss hands to node-postgres as they are; its typings name only some of them
        new PgBoss({
          ...base,
          connectionString: database.url,
          max: 4,
          connectionTimeoutMillis: CONNECT_TIMEOUT_SECONDS * 1000,
        } as PgBoss.ConstructorOptions)
      : new PgBoss({ ...base, db: pgliteAdapter(database) });
  // node-postgres hangs the whole client (its pool, its sockets) on its errors: log what tells the cause
  boss.on('error', (err: Error & { code?: string }) =>
    logger.error({ err: { type: err.name, message: err.message, code: err.code, stack: err.stack } }, 'job queue error'),
  );
  await boss.start();
  const existing = new Set((await boss.getQueues()).map((q) => q.name));
  for (const name of JOB_NAMES) if (!existing.has(name)) await boss.createQueue(name);

  const workerIds = new Map<JobName, string>();
  const queue: JobQueue = {
    async send(name, data, sendOpts = {}) {
      await boss.send(name, data as object, {
        expireInSeconds: EXPIRE_SECONDS[name],
        ...(sendOpts.tx && { db: transactionAdapter(sendOpts.tx) }),
        ...(sendOpts.startAfterSeconds !== undefined && { startAfter: Math.max(0, Math.round(sendOpts.startAfterSeconds)) }),
      });
    },
    wake(name) {
      const worker = workerIds.get(name);
      if (worker) boss.notifyWorker(worker);
    },
    health: () => queueHealth(db),
  };
  const { handlers, giveUps } = definitionsOf(queue);
  const liveness = await startLiveness(database, logger);
  const instance = liveness.instance;

  /** Ends the work of a job that will not run again, and puts it on the dead-letter list. */
  const giveUp = async (name: JobName, jobId: string | null, data: unknown, reason: string, attempts: number) => {
    const end = giveUps[name] as ((d: unknown, r: string) => Promise<void>) | undefined;
    try {
      if (end) await end(data, reason);
    } finally {
      // pg-boss hands back what was sent under this name
      if (end) await recordDeadLetter(db, { jobId, name, data: data as AnyJobData, reason, attempts });
    }
  };

  const processStartedAt = new Date();
  const sweep = () =>
    sweepJobs(
      { db, logger, queue, giveUp },
      {
        liveness,
        processStartedAt,
        failJob: async (name, id, reason) => {
          await boss.fail(name, id, { message: reason });
        },
      },
    );

  if (workers) {
    for (const [name, cron] of Object.entries(SCHEDULES) as [JobName, string][]) {
      await boss.schedule(name, cron, {}, { expireInSeconds: EXPIRE_SECONDS[name] });
    }
    for (const name of JOB_NAMES) {
      const handler = (name === 'jobs.sweep' ? () => sweep().then(() => undefined) : handlers[name]) as
        | ((data: unknown, run: JobRun) => Promise<void>)
        | undefined;
      if (!handler) continue;
      const worker = await boss.work<unknown>(
        name,
        { pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 1, batchSize: 1, includeMetadata: true },
        async ([job]) => {
          if (!job) return;
          const run: JobRun = { jobId: job.id, attempt: job.retryCount + 1, last: job.retryCount >= job.retryLimit };
          const started = performance.now();
          const heartbeat = await beginRun(db, logger, { jobId: job.id, name, instance });
          try {
            await handler(job.data, run);
            // the sweeps run every minute: their runs are not news
            logger[SCHEDULED.includes(name) ? 'debug' : 'info'](
              { job: name, job_id: job.id, attempt: run.attempt, duration_ms: Math.round(performance.now() - started) },
              'job done',
            );
          } catch (err) {
            if (run.last) {
              logger.error({ err, job: name, job_id: job.id, attempt: run.attempt }, 'job failed for good; its work is marked failed');
              await giveUp(name, job.id, job.data, reasonOf(err), run.attempt).catch((e: unknown) =>
                logger.error({ err: e, job: name, job_id: job.id }, 'the failed job’s work could not be marked failed; the sweep will'),
              );
            } else {
              logger.warn({ err, job: name, job_id: job.id, attempt: run.attempt }, 'job failed; it will run again');
            }
            throw err;
          } finally {
            await heartbeat.end();
          }
        },
      );
      workerIds.set(name, worker);
    }
    // once now, not a minute from now: a restart picks up what the last process left
    await boss.send('jobs.sweep', {}, { expireInSeconds: EXPIRE_SECONDS['jobs.sweep'] });
    await boss.send('registrations.sweep', {}, { expireInSeconds: EXPIRE_SECONDS['registrations.sweep'] });
  }

  return {
    queue,
    sweep,
    stop: async () => {
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
      await liveness.stop();
    },
  };
}

async function queueHealth(db: Db): Promise<QueueHealth> {
  const [row] = rowsOf<{ waiting: number; oldest: number; active: number; dead: number }>(
    await db.execute(sql`
      select
        (select count(*)::int from pgboss.job where state in ('created', 'retry') and start_after <= now()) as waiting,
        (select coalesce(extract(epoch from now() - min(start_after)), 0)::int from pgboss.job
          where state in ('created', 'retry') and start_after <= now()) as oldest,
        (select count(*)::int from pgboss.job where state = 'active') as active,
        (select count(*)::int from dead_letters where retried_at is null) as dead`),
  );
  return {
    waiting: Number(row?.waiting ?? 0),
    oldest_waiting_seconds: Number(row?.oldest ?? 0),
    active: Number(row?.active ?? 0),
    dead_letters: Number(row?.dead ?? 0),
  };
}
