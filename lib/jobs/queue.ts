import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { Database } from '@/db/client';

/** Every background job and what it carries; ids only, so a job reads the current state when it runs. */
export interface JobData {
  'manifest.validate': { reportId: string };
  'samples.register': { submissionId: string };
  'study.submit': { submissionId: string };
}
export type JobName = keyof JobData;
export type JobHandlers = { [N in JobName]?: (data: JobData[N]) => Promise<void> };

export interface JobQueue {
  send<N extends JobName>(name: N, data: JobData[N]): Promise<void>;
}

export interface RunningQueue {
  queue: JobQueue;
  stop(): Promise<void>;
}

const JOB_NAMES: JobName[] = ['manifest.validate', 'samples.register', 'study.submit'];

// A worker that dies mid-job leaves the job active; after this long pg-boss hands it to another worker.
const EXPIRE_MINUTES = 15;

/** PGlite runs one statement per prepared query, so pg-boss's multi-statement migrations go through exec. */
function pgliteAdapter(database: Database): PgBoss.Db {
  const pg = database.pglite!;
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

/**
 * pg-boss on the service's own database: durable, retried jobs with no extra server. With `workers: false` the
 * instance only enqueues (a web-only process, or a test that runs jobs by hand).
 */
export async function startJobQueue(
  database: Database,
  logger: Logger,
  handlers: JobHandlers,
  opts: { workers?: boolean; pollingIntervalSeconds?: number } = {},
): Promise<RunningQueue> {
  const base: PgBoss.ConstructorOptions = {
    schema: 'pgboss',
    expireInMinutes: EXPIRE_MINUTES,
    retryLimit: 3,
    retryDelay: 5,
    retryBackoff: true,
    // maintenance and cron are for long-lived servers; a worker-less instance skips them
    supervise: opts.workers !== false,
    schedule: false,
  };
  const boss =
    database.kind === 'postgres'
      ? new PgBoss({ ...base, connectionString: database.url, max: 4 })
      : new PgBoss({ ...base, db: pgliteAdapter(database) });
  boss.on('error', (err) => logger.error({ err }, 'job queue error'));
  await boss.start();
  for (const name of JOB_NAMES) await boss.createQueue(name).catch(() => undefined);

  if (opts.workers !== false) {
    for (const name of JOB_NAMES) {
      const handler = handlers[name] as ((data: JobData[JobName]) => Promise<void>) | undefined;
      if (!handler) continue;
      await boss.work<JobData[JobName]>(
        name,
        { pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 1, batchSize: 1 },
        async ([job]) => {
          if (!job) return;
          const started = performance.now();
          try {
            await handler(job.data);
            logger.info({ job: name, job_id: job.id, duration_ms: Math.round(performance.now() - started) }, 'job done');
          } catch (err) {
            logger.error({ err, job: name, job_id: job.id }, 'job failed');
            throw err;
          }
        },
      );
    }
  }

  return {
    queue: {
      async send(name, data) {
        await boss.send(name, data as object);
      },
    },
    stop: () => boss.stop({ graceful: true, wait: true, timeout: 10_000 }),
  };
}
