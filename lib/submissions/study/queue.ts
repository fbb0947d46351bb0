import type { Db } from '@/db/client';
import { dbErrorCode, isUniqueViolation } from '@/db/errors';
import { one } from '@/db/rows';
import { submissions } from '@/db/schema';
import { AppError, Conflict, NotFound } from '@/lib/errors';
import type { JobQueue } from '@/lib/jobs/queue';
import { getStudy } from '@/lib/studies';
import type { Repository } from '@/lib/submissions/contract';
import type { UserRecord } from '@/lib/users/users';
import type { StudySubmitAnswer } from './contract';
import { type StudyActionScope, stateOf, targetsOf } from './scope';

/**
 * Queues a study's submission to one repository. 409 and nothing queued when the repository is not a target of the
 * checklist, its credentials are missing, a submission is already running, or nothing changed since the last one.
 */
export async function queueStudySubmission(
  deps: { db: Db; jobs: JobQueue; requireCredentials: (repository: Repository) => void },
  user: UserRecord,
  scope: StudyActionScope & { repository: Repository },
): Promise<StudySubmitAnswer> {
  const { db } = deps;
  const study = await getStudy(db, user, scope, 'contribute');
  const { repository } = scope;
  if (!(await targetsOf(db, study)).includes(repository)) {
    throw Conflict(`Repository ${repository} is not supported for study submission!`);
  }
  deps.requireCredentials(repository);
  const state = await stateOf(db, study, repository);
  if (state.status === 'processing') throw Conflict('Submission is in progress, please wait until it is completed!');
  if (state.status === 'accepted' || state.status === 'published') throw Conflict('There is no pending change for submission!');
  try {
    // the submission and its job in one transaction: a crash leaves both or neither
    const row = await db.transaction(async (tx) => {
      const inserted = one(
        await tx
          .insert(submissions)
          .values({ kind: 'study', repository, profileId: study.profileId, studyRowId: study.id, createdBy: user.id })
          .returning({ id: submissions.id }),
        'the new submission',
      );
      await deps.jobs.send('study.submit', { submissionId: inserted.id }, { tx });
      return inserted;
    });
    return { status: 'success', message: 'Submission has been scheduled.', state: 'queued', submission_id: row.id, repository };
  } catch (err) {
    // the partial unique index: another request queued it a moment ago
    if (!(err instanceof AppError) && isUniqueViolation(err)) {
      throw Conflict('Submission is in progress, please wait until it is completed!');
    }
    // the study was deleted between the look-up and the insert (its foreign key): it is gone, as for a new request
    if (!(err instanceof AppError) && dbErrorCode(err) === '23503') throw NotFound('Study not found');
    throw err;
  }
}
