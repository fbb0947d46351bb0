import { desc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { pageWithTotal } from '@/db/rows';
import { deadLetters } from '@/db/schema';
import type { FailedJob, JobData, JobName, QueueHealth } from './contract';
import type { JobQueue } from './spec';

export type DeadLetterRow = typeof deadLetters.$inferSelect;

/** Puts given-up work on the list admins see (the portal's Jobs page, GET /admin/jobs/failed). */
export async function recordDeadLetter<N extends JobName>(
  db: Db,
  entry: { jobId: string | null; name: N; data: JobData[N]; reason: string; attempts: number },
): Promise<void> {
  await db.insert(deadLetters).values({
    jobId: entry.jobId,
    name: entry.name,
    data: entry.data,
    reason: entry.reason,
    attempts: entry.attempts,
  });
}

/** Newest first; `open` only those not retried yet. */
export async function listDeadLetters(db: Db, opts: { limit: number; offset: number; open?: boolean }) {
  const where = opts.open ? isNull(deadLetters.retriedAt) : undefined;
  return pageWithTotal(db, db.select().from(deadLetters).where(where).$dynamic(), [desc(deadLetters.failedAt), desc(deadLetters.id)], opts);
}

export async function getDeadLetter(db: Db, id: string): Promise<DeadLetterRow | undefined> {
  const [row] = await db.select().from(deadLetters).where(eq(deadLetters.id, id));
  return row;
}

/** Marks the entry retried; false when someone else retried it first. */
export async function markRetried(db: Db, id: string, userId: number): Promise<boolean> {
  const rows = await db
    .update(deadLetters)
    .set({ retriedAt: sql`now()`, retriedBy: userId })
    .where(sql`${deadLetters.id} = ${id} and ${deadLetters.retriedAt} is null`)
    .returning({ id: deadLetters.id });
  return rows.length > 0;
}

/** The entry as the admin API answers it, the job named in words by the queue that runs it. */
export function deadLetterJson(r: DeadLetterRow, jobs: Pick<JobQueue, 'label'>): FailedJob {
  const letter = {
    id: r.id,
    job: r.name,
    job_id: r.jobId,
    label: jobs.label(r.name),
    data: r.data,
    reason: r.reason,
    attempts: r.attempts,
    failed: r.failedAt.toISOString(),
    retried: r.retriedAt?.toISOString() ?? null,
  };
  // recordDeadLetter writes a job's name and its data together; the row's two columns cannot say so to TypeScript
  return letter as FailedJob;
}

/** GET /admin/jobs as it answers, and the Jobs page reads its first page: the queue now and a page of given-up work. */
export async function failedJobsAnswer(
  deps: { db: Db; jobs: Pick<JobQueue, 'health' | 'label'> },
  page: { limit: number; offset: number; open?: boolean },
): Promise<{ queue: QueueHealth; number_found: number; data: FailedJob[] }> {
  const [queue, { rows, total }] = await Promise.all([deps.jobs.health(), listDeadLetters(deps.db, page)]);
  return { queue, number_found: total, data: rows.map((r) => deadLetterJson(r, deps.jobs)) };
}
