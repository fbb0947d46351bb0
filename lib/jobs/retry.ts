import type { Db } from '@/db/client';
import { isUniqueViolation } from '@/db/errors';
import { AppError, Conflict, NotFound } from '@/lib/errors';
import { isUuid } from '@/lib/identifiers/contract';
import type { RetriedJob } from './contract';
import { deadLetterJson, getDeadLetter, markRetried } from './dead-letters';
import type { JobQueue } from './spec';

/**
 * An admin's retry of given-up work: the work is reopened and its job queued in one transaction with the entry's
 * `retried` mark, so a double click retries once. 409 when the work cannot run again as it was (a report whose upload
 * is gone, a submission superseded by a newer one); the owner then sends it again themselves.
 */
export async function retryDeadLetter(deps: { db: Db; jobs: JobQueue }, user: { id: number }, id: string): Promise<RetriedJob> {
  if (!isUuid(id)) throw NotFound('No such failed job');
  const letter = await getDeadLetter(deps.db, id.toLowerCase());
  if (!letter) throw NotFound('No such failed job');
  try {
    return await deps.db.transaction(async (tx) => {
      if (!(await markRetried(tx, letter.id, user.id))) throw Conflict('This job was retried already.');
      const work = deadLetterJson(letter, deps.jobs);
      const queued = await deps.jobs.reopen(tx, work.job, work.data);
      const fresh = await getDeadLetter(tx, letter.id);
      if (!fresh) throw new Error('expected the dead letter just marked retried');
      return { ...deadLetterJson(fresh, deps.jobs), queued };
    });
  } catch (err) {
    if (!(err instanceof AppError) && isUniqueViolation(err)) {
      throw Conflict('A newer submission of the same study is open; this one cannot run again.');
    }
    throw err;
  }
}
