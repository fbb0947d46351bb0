import { sql } from 'drizzle-orm';
import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import { CONNECT_TIMEOUT_SECONDS, type Database, type Db } from '@/db/client';
import { rowsOf } from '@/db/rows';
import { Conflict } from '@/lib/errors';
import { announceJob, listenForJobs } from './announce';
import { type AnyJobData, type JobDescription, type JobName, type QueueHealth, SWEEP_JOB } from './contract';
import { DUE_JOB, QUEUED_JOB, UNRETRIED_DEAD_LETTER } from './counts';
import { recordDeadLetter } from './dead-letters';
import { startLiveness } from './liveness';
import { beginRun, HEARTBEAT_SECONDS } from './runs';
import type { BoundJob, JobQueue, JobRun } from './spec';
import { type SweepContext, type SweepDeps, type SweepResult, sweepJobs, watchDeadRuns } from './sweep';

/**
 * The one rule for attempts: pg-boss runs a job at most 1 + RETRY_LIMIT times (a thrown error, or a process that
 * died on it, costs one run), and the last run that fails ends the work through the job's give-up (below). Outages of
 * a repository are not counted here: the work defers itself with back-off (lib/jobs/backoff.ts) and completes the run.
 */
export const RETRY_LIMIT = 3;
export const RUNS_PER_JOB = 1 + RETRY_LIMIT;

export { FIRST_RUN, type JobRun } from './spec';

/** The jobs an instance runs, each bound to the service's context (lib/server/jobs.ts lists them). */
export interface JobDefinitions {
  jobs: BoundJob[];
}

export type { JobQueue } from './spec';

export interface RunningQueue {
  queue: JobQueue;
  /** runs the sweep now (the scheduled one runs every minute; on PostgreSQL dead runs are looked for every few seconds) */
  sweep(): Promise<SweepResult>;
  stop(): Promise<void>;
}

// the queue's own job (lib/jobs/sweep.ts): every minute, and once when a worker starts
const SWEEP_TIMING = { expireSeconds: 10 * 60, schedule: '* * * * *', runAtStart: true, quiet: true } as const;
// a job sent under a name no spec declares (none is, but pg-boss needs a number)
const DEFAULT_EXPIRE_SECONDS = 30 * 60;

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
    // pg-boss floors a doubling delay at 1 s: a delay of 0 (a test's queue) is asked for plainly, so it stays 0
    retryBackoff: (opts.retryDelaySeconds ?? 5) > 0,
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

  const workerIds = new Map<JobName, string>();
  // filled once the definitions are made (they may send jobs, so they are given the queue first)
  const specs = new Map<JobName, BoundJob>();
  const described: JobDescription[] = [];
  const expiry = (name: JobName) => specs.get(name)?.expireSeconds ?? DEFAULT_EXPIRE_SECONDS;
  const queue: JobQueue = {
    async send(name, data, sendOpts = {}) {
      const startAfter = sendOpts.startAfterSeconds === undefined ? 0 : Math.max(0, Math.round(sendOpts.startAfterSeconds));
      await boss.send(name, data as object, {
        expireInSeconds: expiry(name),
        ...(sendOpts.tx && { db: transactionAdapter(sendOpts.tx) }),
        ...(startAfter > 0 && { startAfter }),
      });
      if (startAfter === 0) await announceJob(sendOpts.tx ?? db, name);
    },
    health: () => queueHealth(db),
    described: () => described,
    label: (name) => described.find((j) => j.name === name)?.label ?? name,
    async reopen(tx, name, data) {
      const reopen = specs.get(name)?.reopen;
      if (!reopen) throw Conflict(`A ${name} job cannot be retried by hand.`);
      return reopen(tx, data);
    },
  };
  for (const job of definitionsOf(queue).jobs) specs.set(job.name, job);
  described.push(...specs.values(), SWEEP_JOB);
  const existing = new Set((await boss.getQueues()).map((q) => q.name));
  for (const { name } of described) if (!existing.has(name)) await boss.createQueue(name);
  const liveness = await startLiveness(database, logger);
  const instance = liveness.instance;
  const wake = (name: string) => {
    const worker = workerIds.get(name as JobName);
    if (worker) boss.notifyWorker(worker);
  };

  /** Puts a job that will not run again on the dead-letter list, and ends its work. */
  const giveUp = async (name: JobName, jobId: string | null, data: unknown, reason: string, attempts: number) => {
    const end = specs.get(name)?.giveUp;
    if (!end) return;
    // the letter first: whoever sees the work failed (a user, a test, an admin's page) finds it listed for a retry;
    // each is tried whether or not the other fails
    try {
      // pg-boss hands back what was sent under this name
      await recordDeadLetter(db, { jobId, name, data: data as AnyJobData, reason, attempts });
    } finally {
      await end(data, reason);
    }
  };

  const sweepDeps: SweepDeps = { db, logger, queue, giveUp, jobs: [...specs.values()] };
  const sweepContext: SweepContext = {
    liveness,
    processStartedAt: new Date(),
    failJob: async (tx, name, id, reason) => {
      await boss.fail(name, id, { message: reason }, { db: transactionAdapter(tx) });
    },
  };
  const sweep = () => sweepJobs(sweepDeps, sweepContext);
  const sweepJob: BoundJob = { ...SWEEP_JOB, ...SWEEP_TIMING, run: () => sweep().then(() => undefined) };

  if (workers) {
    const running = [sweepJob, ...specs.values()];
    for (const job of running) {
      if (job.schedule) await boss.schedule(job.name, job.schedule, {}, { expireInSeconds: job.expireSeconds });
    }
    for (const job of running) {
      const { name } = job;
      const worker = await boss.work<unknown>(
        name,
        { pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 1, batchSize: 1, includeMetadata: true },
        async ([pgJob]) => {
          if (!pgJob) return;
          // pg-boss waits out its polling interval after a job as after an empty look: where one job was, the next
          // may be waiting (a queue of emails, a backlog after a restart), so the worker looks again at once
          wake(name);
          const run: JobRun = { jobId: pgJob.id, attempt: pgJob.retryCount + 1, last: pgJob.retryCount >= pgJob.retryLimit };
          const started = performance.now();
          const heartbeat = await beginRun(db, logger, { jobId: pgJob.id, name, instance });
          try {
            await job.run(pgJob.data, run);
            logger[job.quiet ? 'debug' : 'info'](
              { job: name, job_id: pgJob.id, attempt: run.attempt, duration_ms: Math.round(performance.now() - started) },
              'job done',
            );
          } catch (err) {
            if (run.last) {
              logger.error({ err, job: name, job_id: pgJob.id, attempt: run.attempt }, 'job failed for good; its work is marked failed');
              await giveUp(name, pgJob.id, pgJob.data, reasonOf(err), run.attempt).catch((e: unknown) =>
                logger.error({ err: e, job: name, job_id: pgJob.id }, 'the failed job’s work could not be marked failed; the sweep will'),
              );
            } else {
              logger.warn({ err, job: name, job_id: pgJob.id, attempt: run.attempt }, 'job failed; it will run again');
            }
            throw err;
          } finally {
            await heartbeat.end();
          }
        },
      );
      workerIds.set(name, worker);
    }
    // those that say so once now, not at their next schedule: a restart picks up what the last process left
    for (const job of running) if (job.runAtStart) await boss.send(job.name, {}, { expireInSeconds: job.expireSeconds });
  }
  const unlisten = workers ? await listenForJobs(database, wake) : async () => {};
  // where other processes share the database, the jobs of one that died are taken over within seconds
  let watching: Promise<unknown> | null = null;
  const watch =
    workers && !liveness.exclusive
      ? setInterval(() => {
          watching ??= watchDeadRuns(sweepDeps, sweepContext)
            .catch((err: unknown) => logger.warn({ err }, 'could not look for jobs of stopped processes; looking again shortly'))
            .finally(() => {
              watching = null;
            });
        }, HEARTBEAT_SECONDS * 1000)
      : null;
  watch?.unref();

  return {
    queue,
    sweep,
    stop: async () => {
      if (watch) clearInterval(watch);
      await unlisten().catch((err: unknown) => logger.warn({ err }, 'could not stop listening for sent jobs'));
      await watching;
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
      await liveness.stop();
    },
  };
}

async function queueHealth(db: Db): Promise<QueueHealth> {
  const [row] = rowsOf<{ waiting: number; oldest: number; active: number; dead: number }>(
    await db.execute(sql`
      select
        (select count(*)::int from pgboss.job where ${QUEUED_JOB} and ${DUE_JOB}) as waiting,
        (select coalesce(extract(epoch from now() - min(start_after)), 0)::int from pgboss.job
          where ${QUEUED_JOB} and ${DUE_JOB}) as oldest,
        (select count(*)::int from pgboss.job where state = 'active') as active,
        (select count(*)::int from dead_letters where ${UNRETRIED_DEAD_LETTER}) as dead`),
  );
  return {
    waiting: Number(row?.waiting ?? 0),
    oldest_waiting_seconds: Number(row?.oldest ?? 0),
    active: Number(row?.active ?? 0),
    dead_letters: Number(row?.dead ?? 0),
  };
}
