import { eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '@/db/client';
import { submissions } from '@/db/schema';
import { nextTryDetail, outageDelaySeconds, outageOver } from '@/lib/jobs/backoff';
import { recordDeadLetter } from '@/lib/jobs/dead-letters';
import type { JobQueue, JobRun } from '@/lib/jobs/queue';
import { metrics } from '@/lib/metrics/registry';
import type { RepositoryError } from '@/lib/repositories/errors';

/**
 * A repository that cannot be reached (lib/jobs/backoff.ts): the submission stays open and says why and when it is
 * tried next, and its job's next run is queued with that delay in the same transaction, with whatever else the
 * work shows of the wait (`alsoInTransaction`). After two days of outage the work is given up (`giveUp`) and put on
 * the dead-letter list, as a job that failed for good would be.
 */
export async function deferSubmission(
  deps: { db: Db; jobs: JobQueue; logger: Logger },
  sub: Pick<typeof submissions.$inferSelect, 'id' | 'createdAt' | 'attempts'>,
  err: RepositoryError,
  run: JobRun,
  work: {
    /** the repository, as people name it */
    service: string;
    job: 'samples.register' | 'study.submit' | 'biodata-samples.register';
    /** what to do again when the service is back, said to the owner on giving up */
    again: string;
    giveUp(reason: string): Promise<void>;
    alsoInTransaction?(tx: Db, detail: string, nextAttemptAt: Date): Promise<void>;
  },
): Promise<void> {
  if (outageOver(sub.createdAt)) {
    const reason = `${work.service} could not be reached for two days (last: ${err.message}); ${work.again} when it is back.`;
    deps.logger.error({ err, submission_id: sub.id, job: work.job }, 'gave up after the outage');
    // listed first, as the queue's give-up does (lib/jobs/queue.ts): the submission never shows failed unlisted
    await recordDeadLetter(deps.db, { jobId: run.jobId, name: work.job, data: { submissionId: sub.id }, reason, attempts: sub.attempts });
    await work.giveUp(reason);
    return;
  }
  metrics().repositoryOutages.inc({ service: err.service });
  const delay = outageDelaySeconds(sub.attempts);
  const nextAttemptAt = new Date(Date.now() + delay * 1000);
  const detail = nextTryDetail(work.service, err.message, nextAttemptAt);
  deps.logger.warn(
    { err, submission_id: sub.id, job: work.job, attempt: sub.attempts, next_in_seconds: delay },
    `${work.service} unavailable; deferred`,
  );
  await deps.db.transaction(async (tx) => {
    await tx.update(submissions).set({ status: 'processing', error: detail, updatedAt: sql`now()` }).where(eq(submissions.id, sub.id));
    await work.alsoInTransaction?.(tx, detail, nextAttemptAt);
    await deps.jobs.send(work.job, { submissionId: sub.id }, { tx, startAfterSeconds: delay });
  });
}
