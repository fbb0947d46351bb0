import type { SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '@/db/client';
import type { JobData, JobDescription, JobName, QueueHealth } from './contract';

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

/**
 * A background job, declared where its work lives (the domain's own module) and listed once in lib/server/jobs.ts.
 * The queue (lib/jobs/queue.ts), the sweep (lib/jobs/sweep.ts) and the admin's retry (lib/jobs/retry.ts) loop over
 * the specs and know no domain. The spec carries the job's data schema and its name in words, from which the admin
 * API's list of failed jobs is made; its domain adds the job's name and data to `JobDataByName` (lib/jobs/contract.ts)
 * beside it, so that sending it is typed everywhere. Adding a job is its domain's file and one line in
 * lib/server/jobs.ts.
 *
 * `Deps` is what the job needs from the outside world: the service's job context (lib/server/jobs.ts) must be one.
 */
export interface JobSpec<N extends JobName, Deps> {
  name: N;
  /** what the job does, in words (the admin's Jobs page) */
  label: string;
  /** what it carries: ids only, so that it reads the current state when it runs */
  data: z.ZodType<JobData[N]>;
  /**
   * pg-boss's own expiry, a backstop only: a process that dies is noticed within seconds (lib/jobs/sweep.ts,
   * lib/jobs/liveness.ts). It must outlast the longest honest run.
   */
  expireSeconds: number;
  /** cron: every instance schedules it, pg-boss keeps one schedule per name */
  schedule?: string;
  /** a scheduled job sent once more when a worker starts: a restart picks up what the last process left now */
  runAtStart?: boolean;
  /** a scheduled job whose runs are not news (logged at debug) */
  quiet?: boolean;
  run: (deps: Deps, data: JobData[N], run: JobRun) => Promise<void>;
  /**
   * Ends the work when the job's last run failed, or the process running it died: the work is marked failed with a
   * reason its owner can read, so nothing waits for it, and a retry is possible.
   */
  giveUp?: (deps: Deps, data: JobData[N], reason: string) => Promise<void>;
  /**
   * The open work this job owns, for the sweep: a query of the ids of rows still waiting for it (`id` column), and
   * the key its data carries the id under. Open work whose job is gone is queued again; work whose job failed for
   * good is given up.
   */
  openWork?: { key: keyof JobData[N] & string; open: SQL };
  /**
   * An admin's retry of given-up work: reopens it in `tx` and queues its job there; returns what was queued, in
   * words. Without it the job cannot be retried by hand.
   */
  reopen?: (tx: Db, deps: Deps, data: JobData[N]) => Promise<string>;
  /** recovery of work the domain does without a job (a publication), run by every sweep */
  recover?: (deps: Deps) => Promise<void>;
}

/** Declares a job (only a type check: the spec is returned as it is). */
export const jobSpec = <N extends JobName, Deps>(spec: JobSpec<N, Deps>): JobSpec<N, Deps> => spec;

/** The spec of any job whose needs `Deps` meets: what lib/server/jobs.ts lists. */
export type AnyJobSpec<Deps> = { [N in JobName]: JobSpec<N, Deps> }[JobName];

/** A job bound to the service's context: what the queue runs. */
export interface BoundJob extends JobDescription {
  expireSeconds: number;
  schedule?: string;
  runAtStart: boolean;
  quiet: boolean;
  run(data: unknown, run: JobRun): Promise<void>;
  giveUp?(data: unknown, reason: string): Promise<void>;
  openWork?: { key: string; open: SQL };
  reopen?(tx: Db, data: unknown): Promise<string>;
  recover?(): Promise<void>;
}

/** A spec with its context: the data arrives as the queue stored it, which is what was sent under the job's name. */
function bindJob<N extends JobName, Deps>(spec: JobSpec<N, Deps>, deps: Deps): BoundJob {
  const { run, giveUp, reopen, recover } = spec;
  return {
    name: spec.name,
    label: spec.label,
    data: spec.data,
    expireSeconds: spec.expireSeconds,
    schedule: spec.schedule,
    runAtStart: spec.runAtStart ?? false,
    quiet: spec.quiet ?? false,
    run: (data, r) => run(deps, data as JobData[N], r),
    giveUp: giveUp && ((data, reason) => giveUp(deps, data as JobData[N], reason)),
    openWork: spec.openWork,
    reopen: reopen && ((tx, data) => reopen(tx, deps, data as JobData[N])),
    recover: recover && (() => recover(deps)),
  };
}

/** Each spec bound to the service's context. */
export const bindJobs = <Deps>(specs: readonly AnyJobSpec<Deps>[], deps: Deps): BoundJob[] =>
  // each spec types its own data; bound, the data arrives as sent under the spec's name
  specs.map((spec) => bindJob(spec as JobSpec<JobName, Deps>, deps));

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
  /**
   * Queues a job, in `opts.tx` when given. A job due now is announced as its transaction commits, and the workers of
   * every instance look for it at once (lib/jobs/queue.ts, JOB_DUE_CHANNEL).
   */
  send<N extends JobName>(name: N, data: JobData[N], opts?: SendOptions): Promise<void>;
  /** what /api/health reports of the queue */
  health(): Promise<QueueHealth>;
  /** every job this queue runs, its own included, as the contract knows them (the admin API's failed jobs) */
  described(): readonly JobDescription[];
  /** what a job does, in words */
  label(name: JobName): string;
  /**
   * An admin's retry: the job's own reopen (its spec) reopens the given-up work in `tx` and queues the job there.
   * 409 for a job that cannot be retried by hand.
   */
  reopen(tx: Db, name: JobName, data: unknown): Promise<string>;
}
