import { eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '@/db/client';
import { studies, submissions } from '@/db/schema';
import { AppError } from '@/lib/errors';
import { FIRST_RUN, type JobQueue, type JobRun } from '@/lib/jobs/queue';
import { type RowJobData, reopenFailed, rowJobSpec } from '@/lib/jobs/row-job';
import { isTransient, RepositoryError } from '@/lib/repositories/errors';
import { deferSubmission } from '../deferral';
import { beginAttempt, failSubmission, finishSubmission } from '../submissions';
import { submitToEna } from './ena';
import type { AssemblyDeps } from './ena-assemblies';
import type { StudyClients } from './scope';
import { submitToZenodo } from './zenodo';

export type StudyJobDeps = { db: Db; logger: Logger; baseUrl: string; jobs: JobQueue } & StudyClients & AssemblyDeps;

const SERVICE_NAMES = { ena: 'ENA', zenodo: 'Zenodo' } as const;

/**
 * The `study.submit` job: an ENA PROJECT (added once, modified afterwards) with its reads, or a Zenodo deposition with
 * the study's files. The repository's refusal rejects it; an outage defers it with back-off for up to two days
 * (lib/jobs/backoff.ts), resuming from what was recorded; an error of our own is thrown, so the queue runs it again,
 * and its last run's give-up (giveUpStudySubmission) marks it failed.
 */
export async function runStudySubmission(deps: StudyJobDeps, submissionId: string, run: JobRun = FIRST_RUN) {
  const { db } = deps;
  const sub = await beginAttempt(db, submissionId);
  if (!sub?.studyRowId) return;
  const [study] = await db.select().from(studies).where(eq(studies.id, sub.studyRowId));
  if (!study) {
    await finishSubmission(db, submissionId, { status: 'rejected', error: 'The study no longer exists.' });
    return;
  }
  try {
    const accessions =
      sub.repository === 'ena'
        ? await submitToEna(deps, deps.ena(), submissionId, study, sub.progress)
        : await submitToZenodo(deps, deps.zenodo(), submissionId, study, sub.progress);
    await finishSubmission(db, submissionId, { status: 'accepted', accessions });
  } catch (err) {
    // a document ENA's schemas would refuse (lib/repositories/ena/build.ts says why) is refused here, before sending
    const unsendable = err instanceof AppError && err.code === 'invalid';
    if (unsendable || (err instanceof RepositoryError && !isTransient(err))) {
      await finishSubmission(db, submissionId, { status: 'rejected', error: err.message });
      return;
    }
    if (!isTransient(err)) throw err;
    await deferSubmission(deps, sub, err, run, {
      service: SERVICE_NAMES[sub.repository],
      job: 'study.submit',
      again: 'submit again',
      giveUp: async (reason) => {
        await failSubmission(db, submissionId, reason);
      },
    });
  }
}

/** The give-up of `study.submit`: its last run failed or its process died; a new submission is accepted after this. */
export async function giveUpStudySubmission(db: Db, submissionId: string, reason: string): Promise<void> {
  await failSubmission(
    db,
    submissionId,
    `The submission could not be completed (${reason}); submit it again, or report it with the submission id ${submissionId}.`,
  );
}

// a publication answers within the HTTP client's time limits; one still processing after this was interrupted
const PUBLICATION_STALE_MINUTES = 15;

declare module '@/lib/jobs/contract' {
  interface JobDataByName {
    'study.submit': RowJobData<'submissionId'>;
  }
}

/** `study.submit`: a study at ENA or Zenodo; the reads of a large study may take hours. */
export const submitStudyJob = rowJobSpec({
  name: 'study.submit',
  key: 'submissionId',
  label: 'Submission of a study',
  expireSeconds: 12 * 60 * 60,
  open: sql`select id::text as id from submissions where kind = 'study' and action = 'submit' and status in ('pending', 'processing')`,
  run: (deps: StudyJobDeps, submissionId, run) => runStudySubmission(deps, submissionId, run),
  giveUp: (deps, submissionId, reason) => giveUpStudySubmission(deps.db, submissionId, reason),
  requeue: {
    noun: 'submission',
    refused: 'The submission is no longer failed; nothing to retry.',
    reopen: (tx, submissionId) =>
      reopenFailed(tx, submissions, submissionId, { status: 'pending', error: null, finishedAt: null, updatedAt: sql`now()` }),
  },
  // a publication (synchronous, no job) left processing by a process that died is marked failed
  async recover(deps) {
    await deps.db.execute(sql`
      update submissions
      set status = 'failed',
          error = 'The publication was interrupted before the repository answered; check the record there and try again.',
          finished_at = now(), updated_at = now()
      where action = 'publish' and status = 'processing'
        and updated_at < now() - make_interval(mins => ${PUBLICATION_STALE_MINUTES})`);
  },
});
