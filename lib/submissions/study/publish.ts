import { eq, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { isUniqueViolation } from '@/db/errors';
import { one } from '@/db/rows';
import { submissions } from '@/db/schema';
import { Conflict, Invalid, Unavailable } from '@/lib/errors';
import { isTransient, RepositoryError } from '@/lib/repositories/errors';
import { getStudy, type StudyRow } from '@/lib/studies';
import type { Repository, SubmissionAccessions } from '@/lib/submissions/contract';
import type { UserRecord } from '@/lib/users/users';
import { merge, saveAccessions } from './accessions';
import type { StudyPublishAnswer } from './contract';
import { type StudyActionScope, type StudyClients, stateOf, targetsOf } from './scope';

/**
 * ENA: releases the held project now, or moves its hold date; Zenodo: publishes the deposition (DOI). Synchronous:
 * the repository answers in one call.
 */
export async function publishStudy(
  deps: { db: Db } & StudyClients,
  user: UserRecord,
  scope: StudyActionScope & { repository: Repository; holdUntil?: string },
) {
  const { db } = deps;
  const study = await getStudy(db, user, scope, 'contribute');
  if (!(await targetsOf(db, study)).includes(scope.repository))
    throw Conflict(`Repository ${scope.repository} is not supported for study submission!`);
  const state = await stateOf(db, study, scope.repository);
  if (state.status === 'processing') throw Conflict('Submission is in progress, please wait until it is completed!');
  if (state.status === 'published') throw Conflict('Submission is already published!');
  if (state.status === 'rejected') throw Conflict('Submission is rejected, please fix the errors and resubmit!');
  if (!state.accession) throw Conflict('Please do the submission first!');
  if (scope.repository === 'ena' && scope.holdUntil && !/^\d{4}-\d{2}-\d{2}$/.test(scope.holdUntil)) {
    throw Invalid("'hold_until' must be a date YYYY-MM-DD");
  }
  if (scope.repository === 'ena' && !scope.holdUntil && study.accessions.ena?.state === 'PUBLIC') {
    throw Conflict(`Study ${study.studyId} is already released. No action taken.`);
  }
  // two identical requests at once: the second meets the first's claim and answers 409, so the repository is asked once
  const claim = await claimPublication(db, user, study, scope.repository);
  try {
    const result = await publishAt(deps, study, scope, state.accession);
    await db
      .update(submissions)
      .set({ status: result.status, accessions: result.accessions, finishedAt: sql`now()`, updatedAt: sql`now()` })
      .where(eq(submissions.id, claim));
    return result.body;
  } catch (err) {
    // nothing was published: the claim goes, and the study's state is what it was
    await db.delete(submissions).where(eq(submissions.id, claim));
    if (isTransient(err)) throw Unavailable(`${err.message}; nothing was published. Try again in a few minutes.`);
    if (err instanceof RepositoryError) throw Conflict(`The repository refused the publication: ${err.message}`);
    throw err;
  }
}

async function publishAt(
  deps: { db: Db } & StudyClients,
  study: StudyRow,
  scope: StudyActionScope & { repository: Repository; holdUntil?: string },
  accession: string,
): Promise<{ status: 'accepted' | 'published'; accessions: SubmissionAccessions; body: StudyPublishAnswer }> {
  const { db } = deps;

  if (scope.repository === 'ena') {
    const client = deps.ena();
    const receipt = scope.holdUntil ? await client.hold(accession, scope.holdUntil) : await client.release(accession);
    if (!receipt.success) throw Conflict(`Couldn't release project due to the following errors: ${receipt.errors.join(' ')}`);
    const ena = scope.holdUntil
      ? { state: 'PRIVATE' as const, release_date: scope.holdUntil }
      : { state: 'PUBLIC' as const, release_date: new Date().toISOString() };
    await saveAccessions(db, study.id, (a) => merge(a, 'ena', ena));
    return {
      status: 'accepted',
      accessions: { study: accession, ...ena },
      body: {
        status: 'success' as const,
        message: scope.holdUntil
          ? `Study ${study.studyId} will be released by ENA on ${scope.holdUntil}.`
          : `Study ${study.studyId} has been released successfully to ENA.`,
        accession,
        ...ena,
      },
    };
  }
  const published = await deps.zenodo().publish(accession);
  const zenodo = { study: String(published.id), state: published.state, doi: published.doi };
  await saveAccessions(db, study.id, (a) => merge(a, 'zenodo', zenodo));
  return {
    status: 'published',
    accessions: zenodo,
    body: { status: 'success' as const, message: `${study.studyId} has been published to Zenodo.`, doi: published.doi },
  };
}

/** The publication's row, processing while the repository is asked; the partial unique index admits one at a time. */
async function claimPublication(db: Db, user: UserRecord, study: StudyRow, repository: Repository): Promise<string> {
  try {
    const row = one(
      await db
        .insert(submissions)
        .values({
          kind: 'study',
          repository,
          action: 'publish',
          profileId: study.profileId,
          studyRowId: study.id,
          status: 'processing',
          createdBy: user.id,
        })
        .returning({ id: submissions.id }),
      'the new publication',
    );
    return row.id;
  } catch (err) {
    if (isUniqueViolation(err)) throw Conflict('Submission is in progress, please wait until it is completed!');
    throw err;
  }
}
