import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { AnyJobData, JobName } from '../../lib/jobs/contract';
import { users } from './users';

/**
 * The jobs running now, one row per pg-boss job a worker holds, with the heartbeat its process writes while it
 * works. A job that is active in pg-boss but whose heartbeat stopped belongs to a process that died: the sweep
 * (lib/jobs/sweep.ts) hands it back to the queue within a minute or two instead of waiting for pg-boss's expiry.
 */
export const jobRuns = pgTable('job_runs', {
  jobId: uuid('job_id').primaryKey(),
  name: text('name').notNull(),
  /** the process: host, pid and a random suffix */
  instance: text('instance').notNull(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Work that failed for good: the last run of its job failed, the process running it died on its last run, its job
 * was lost, or a repository stayed unreachable past the give-up time. Admins see the list and can retry each.
 */
export const deadLetters = pgTable(
  'dead_letters',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** the pg-boss job, when there was one */
    jobId: uuid('job_id'),
    /** the job's name (lib/jobs/contract.ts) */
    name: text('name').$type<JobName>().notNull(),
    /** the data of the job named, as it was queued */
    data: jsonb('data').$type<AnyJobData>().notNull(),
    reason: text('reason').notNull(),
    /** runs of the job before it was given up */
    attempts: integer('attempts').notNull().default(0),
    failedAt: timestamp('failed_at', { withTimezone: true }).notNull().defaultNow(),
    retriedAt: timestamp('retried_at', { withTimezone: true }),
    retriedBy: integer('retried_by').references(() => users.id),
  },
  (t) => [index('dead_letters_failed_idx').on(t.failedAt)],
);

/** Counters of rate-limiter-flexible's RateLimiterDrizzle: shared by every instance on the database. */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    points: integer('points').notNull(),
    expire: timestamp('expire', { withTimezone: true }),
  },
  (t) => [index('rate_limits_expire_idx').on(t.expire)],
);
