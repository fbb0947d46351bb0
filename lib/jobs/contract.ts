import { z } from 'zod';
import { UuidSchema } from '../identifiers/contract';

/**
 * The background jobs: what each carries (ids only, so a job reads the current state when it runs), as queued and as
 * kept on the dead-letter list once given up, and what admins see of the queue and of that list.
 *
 * A job declares its data where it is declared (its JobSpec, lib/jobs/spec.ts, in its domain), and adds its name and
 * data to this map there, so that sending it is typed everywhere without this file knowing the job:
 *
 *   declare module '@/lib/jobs/contract' {
 *     interface JobDataByName { 'study.submit': z.infer<typeof SubmitStudyData> }
 *   }
 *
 * The queue's own job, the sweep (lib/jobs/sweep.ts), is the one declared here.
 */
export interface JobDataByName {
  /** scheduled: jobs whose process died and work whose job is gone (lib/jobs/sweep.ts) */
  'jobs.sweep': z.infer<typeof SweepData>;
}

const SweepData = z.strictObject({});

export type JobName = keyof JobDataByName;
export type JobData = JobDataByName;
/** What a dead letter's `data` column holds: the data of its job. */
export type AnyJobData = JobData[JobName];

/** What the contract knows of a job: its name, what it carries, and what it does in words (the admin's Jobs page). */
export interface JobDescription<N extends JobName = JobName> {
  name: N;
  label: string;
  data: z.ZodType<JobData[N]>;
}

/** The queue's own job: what the sweep (lib/jobs/sweep.ts) does, every minute and once when a worker starts. */
export const SWEEP_JOB: JobDescription<'jobs.sweep'> = { name: 'jobs.sweep', label: 'Recovery of lost jobs', data: SweepData };

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
  label: z.string().meta({ description: 'what the job does, in words', example: 'Submission of a study' }),
  reason: z.string(),
  attempts: z.number().int().meta({ description: 'runs of the job before it was given up' }),
  failed: z.iso.datetime(),
  retried: z.iso.datetime().nullable(),
};
const FailedJobFieldsSchema = z.object(failedJobFields);

const QueuedSchema = z.string().meta({ description: 'what was queued again', example: 'report 3f2504e0-4f89-41d3-9a0c-0305e82c3301' });

/** Work given up, typed by its job: `data` is what that job carries. */
export type FailedJob = { [N in JobName]: z.infer<typeof FailedJobFieldsSchema> & { job: N; data: JobData[N] } }[JobName];
export type RetriedJob = FailedJob & { queued: string };

/**
 * The admin API's answers about failed jobs, for the jobs a queue runs (JobQueue.described): one variant per job, so
 * that `data` is documented by `job`. Made where the routes are registered, since only the running service knows
 * every job (lib/server/jobs.ts lists them).
 */
export function failedJobSchemas(jobs: readonly JobDescription[]) {
  const variants = <E extends z.ZodRawShape>(extra: E) => {
    const variant = (job: JobDescription) => z.object({ ...failedJobFields, job: z.literal(job.name), data: job.data, ...extra });
    const [first = SWEEP_JOB, ...rest] = jobs;
    return [variant(first), ...rest.map(variant)] as const;
  };
  const FailedJobSchema = z
    .discriminatedUnion('job', variants({}))
    .meta({ id: 'FailedJob', description: 'Work given up for good: its job, the job’s data, and why' });
  const RetriedJobSchema = z
    .discriminatedUnion('job', variants({ queued: QueuedSchema }))
    .meta({ id: 'RetriedJob', description: 'The entry, marked retried, and what was queued' });
  const FailedJobsSchema = z
    .object({ queue: QueueHealthSchema, number_found: z.number().int(), data: z.array(FailedJobSchema) })
    .meta({ id: 'FailedJobs', description: 'The queue and a page of failed jobs' });
  return { FailedJobSchema, RetriedJobSchema, FailedJobsSchema };
}

export const FailedJobsQuerySchema = z.object({
  open: z.enum(['true', 'false']).default('false').meta({ description: 'true: only those not retried yet' }),
});

/** Not checked as a UUID: an id that is not one is unknown (404), as an id that names nothing is. */
export const FailedJobParamsSchema = z.object({ id: z.string().max(64).meta({ example: '3f2504e0-4f89-41d3-9a0c-0305e82c3301' }) });
