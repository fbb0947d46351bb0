import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { isUniqueViolation } from '@/db/errors';
import { emails, samples, submissions, validationReports } from '@/db/schema';
import type { Config } from '@/lib/config';
import { AppError, Conflict, NotFound } from '@/lib/errors';
import { isUuid } from '@/lib/identifiers/contract';
import { registrableColumns, registrationQueue, routeApprovedSamples } from '@/lib/samples/registration';
import type { UserRecord } from '@/lib/users/users';
import type { FailedJob, RetriedJob } from './contract';
import { deadLetterJson, getDeadLetter, markRetried } from './dead-letters';
import type { JobQueue } from './queue';

/**
 * An admin's retry of given-up work: the work is reopened and its job queued in one transaction with the entry's
 * `retried` mark, so a double click retries once. 409 when the work cannot run again as it was (a report whose upload
 * is gone, a submission superseded by a newer one); the owner then sends it again themselves.
 */
export async function retryDeadLetter(deps: { db: Db; jobs: JobQueue; config: Config }, user: UserRecord, id: string): Promise<RetriedJob> {
  if (!isUuid(id)) throw NotFound('No such failed job');
  const letter = await getDeadLetter(deps.db, id.toLowerCase());
  if (!letter) throw NotFound('No such failed job');
  try {
    return await deps.db.transaction(async (tx) => {
      if (!(await markRetried(tx, letter.id, user.id))) throw Conflict('This job was retried already.');
      const queued = await reopen(tx, deps, deadLetterJson(letter));
      const fresh = await getDeadLetter(tx, letter.id);
      if (!fresh) throw new Error('expected the dead letter just marked retried');
      return { ...deadLetterJson(fresh), queued };
    });
  } catch (err) {
    if (!(err instanceof AppError) && isUniqueViolation(err)) {
      throw Conflict('A newer submission of the same study is open; this one cannot run again.');
    }
    throw err;
  }
}

async function reopen(tx: Db, deps: { jobs: JobQueue; config: Config }, work: FailedJob): Promise<string> {
  switch (work.job) {
    case 'manifest.validate': {
      const [report] = await tx
        .update(validationReports)
        .set({ status: 'pending', failure: null, progress: 0, attempts: 0, finishedAt: null })
        .where(
          and(
            eq(validationReports.id, work.data.reportId),
            eq(validationReports.status, 'failed'),
            sql`${validationReports.upload} is not null`,
          ),
        )
        .returning({ id: validationReports.id });
      if (!report) throw Conflict('The report cannot be validated again: its upload is gone. Upload the manifest again.');
      await deps.jobs.send('manifest.validate', { reportId: report.id }, { tx });
      return `report ${report.id}`;
    }
    case 'study.submit': {
      const [submission] = await tx
        .update(submissions)
        .set({ status: 'pending', error: null, finishedAt: null, updatedAt: sql`now()` })
        .where(and(eq(submissions.id, work.data.submissionId), eq(submissions.status, 'failed')))
        .returning({ id: submissions.id });
      if (!submission) throw Conflict('The submission is no longer failed; nothing to retry.');
      await deps.jobs.send('study.submit', { submissionId: submission.id }, { tx });
      return `submission ${submission.id}`;
    }
    case 'samples.register': {
      const [sub] = await tx.select().from(submissions).where(eq(submissions.id, work.data.submissionId));
      if (!sub) throw Conflict('The registration no longer exists.');
      // its samples that are still rejected after approval: the ones a new registration can take
      const rows = await tx
        .select(registrableColumns)
        .from(samples)
        .where(
          and(
            inArray(samples.id, sub.sampleIds.length ? sub.sampleIds : ['']),
            eq(samples.status, 'rejected'),
            sql`${samples.approvals} <> '{}'::jsonb`,
          ),
        )
        .for('update');
      if (!rows.length) throw Conflict('None of its samples is waiting for registration; they were sent again or decided since.');
      const queued = await routeApprovedSamples(tx, registrationQueue(deps.config, deps.jobs), rows, null);
      return queued.map((q) => `registration ${q.submission_id} (${q.samples} samples)`).join(', ') || `${rows.length} samples waiting`;
    }
    case 'email.send': {
      const [email] = await tx
        .update(emails)
        .set({ status: 'queued', result: null, attempts: 0 })
        .where(and(eq(emails.id, work.data.emailId), eq(emails.status, 'failed')))
        .returning({ id: emails.id });
      if (!email) throw Conflict('The email is no longer failed; nothing to retry.');
      await deps.jobs.send('email.send', { emailId: email.id }, { tx });
      return `email ${email.id}`;
    }
    case 'tolids.request': {
      const ids = work.data.sampleIds;
      await deps.jobs.send('tolids.request', { sampleIds: ids }, { tx });
      return `ToLID request for ${ids.length} samples`;
    }
    default:
      throw Conflict(`A ${work.job} job cannot be retried by hand.`);
  }
}
