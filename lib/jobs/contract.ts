import { z } from 'zod';
import { SvcIdSchema, UuidSchema } from '../identifiers/contract';

/**
 * The background jobs: what each carries (ids only, so a job reads the current state when it runs), as queued and as
 * kept on the dead-letter list once given up, and what admins see of the queue and of that list.
 */

export const JOB_DATA = {
  'manifest.validate': z.object({ reportId: UuidSchema }),
  'samples.register': z.object({ submissionId: UuidSchema }),
  /** ToLIDs for the specimens of these samples, waiting in awaiting_tolid */
  'tolids.request': z.object({ sampleIds: z.array(SvcIdSchema) }),
  /** scheduled: approved samples that are due to be sent on (lib/samples/registration.ts) */
  'registrations.sweep': z.strictObject({}),
  /** scheduled: jobs whose process died and work whose job is gone (lib/jobs/sweep.ts) */
  'jobs.sweep': z.strictObject({}),
  'study.submit': z.object({ submissionId: UuidSchema }),
  /** scheduled: private samples whose traditional-knowledge project is looked up again at the Local Contexts Hub */
  'rights.check': z.strictObject({}),
  /** scheduled: a digest to each approver of the samples waiting for them longer than REMINDER_DAYS */
  'approvals.remind': z.strictObject({}),
  'email.send': z.object({ emailId: UuidSchema }),
} as const;

export type JobName = keyof typeof JOB_DATA;
export type JobData = { [N in JobName]: z.infer<(typeof JOB_DATA)[N]> };
/** What a dead letter's `data` column holds: the data of its job. */
export type AnyJobData = JobData[JobName];

export const QueueHealthSchema = z
  .object({
    waiting: z.number().int().meta({ description: 'jobs due to run and not yet taken' }),
    oldest_waiting_seconds: z.number().int().meta({ description: 'how long the oldest of them has waited' }),
    active: z.number().int(),
    dead_letters: z.number().int().meta({ description: 'work given up and not retried' }),
  })
  .meta({ id: 'QueueHealth' });
export type QueueHealth = z.infer<typeof QueueHealthSchema>;

const failedJobFields = {
  id: UuidSchema,
  job_id: UuidSchema.nullable().meta({ description: 'the job of the queue, when there was one' }),
  reason: z.string(),
  attempts: z.number().int().meta({ description: 'runs of the job before it was given up' }),
  failed: z.iso.datetime(),
  retried: z.iso.datetime().nullable(),
};

const QueuedSchema = z.string().meta({ description: 'what was queued again', example: 'report 3f2504e0-4f89-41d3-9a0c-0305e82c3301' });

/** One variant per job, so that `data` is typed by `job`. */
const jobVariants = <E extends z.ZodRawShape>(extra: E) => {
  const variant = <N extends JobName>(job: N) => z.object({ ...failedJobFields, job: z.literal(job), data: JOB_DATA[job], ...extra });
  return [
    variant('manifest.validate'),
    variant('samples.register'),
    variant('tolids.request'),
    variant('registrations.sweep'),
    variant('jobs.sweep'),
    variant('study.submit'),
    variant('rights.check'),
    variant('approvals.remind'),
    variant('email.send'),
  ] as const;
};

export const FailedJobSchema = z
  .discriminatedUnion('job', jobVariants({}))
  .meta({ id: 'FailedJob', description: 'Work given up for good: its job, the job’s data, and why' });
export type FailedJob = z.infer<typeof FailedJobSchema>;

export const RetriedJobSchema = z
  .discriminatedUnion('job', jobVariants({ queued: QueuedSchema }))
  .meta({ id: 'RetriedJob', description: 'The entry, marked retried, and what was queued' });
export type RetriedJob = z.infer<typeof RetriedJobSchema>;

export const FailedJobsQuerySchema = z.object({
  open: z.enum(['true', 'false']).default('false').meta({ description: 'true: only those not retried yet' }),
});

export const FailedJobsSchema = z
  .object({ queue: QueueHealthSchema, number_found: z.number().int(), data: z.array(FailedJobSchema) })
  .meta({ id: 'FailedJobs', description: 'The queue and a page of failed jobs' });
export type FailedJobs = z.infer<typeof FailedJobsSchema>;

/** Not checked as a UUID: an id that is not one is unknown (404), as an id that names nothing is. */
export const FailedJobParamsSchema = z.object({ id: z.string().max(64).meta({ example: '3f2504e0-4f89-41d3-9a0c-0305e82c3301' }) });
