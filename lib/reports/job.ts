import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { validationReports } from '@/db/schema';
import type { JobQueue } from '@/lib/jobs/queue';
import { type RowJobData, reopenFailed, rowJobSpec } from '@/lib/jobs/row-job';
import { failReport, runValidation, type ValidationDeps } from './validation';

/** The `manifest.validate` job: what it carries, its give-up, and how an admin runs it again. */

/**
 * The give-up of `manifest.validate`: its last run failed or its process died. The upload is kept, so an admin can
 * run the validation again from the dead-letter list.
 */
export async function giveUpValidation(db: Db, reportId: string, reason: string): Promise<void> {
  await failReport(db, reportId, reason, { keepUpload: true });
}

declare module '@/lib/jobs/contract' {
  interface JobDataByName {
    'manifest.validate': RowJobData<'reportId'>;
  }
}

/** `manifest.validate`: a report's validation, run as soon as its upload commits. */
export const validateManifestJob = rowJobSpec({
  name: 'manifest.validate',
  key: 'reportId',
  label: 'Validation of a manifest',
  expireSeconds: 30 * 60,
  open: sql`select id::text as id from validation_reports where status in ('pending', 'running')`,
  run: (deps: ValidationDeps & { jobs: JobQueue }, reportId) => runValidation(deps, reportId),
  giveUp: (deps, reportId, reason) => giveUpValidation(deps.db, reportId, reason),
  requeue: {
    noun: 'report',
    refused: 'The report cannot be validated again: its upload is gone. Upload the manifest again.',
    reopen: (tx, reportId) =>
      reopenFailed(
        tx,
        validationReports,
        reportId,
        { status: 'pending', failure: null, progress: 0, attempts: 0, finishedAt: null },
        sql`${validationReports.upload} is not null`,
      ),
  },
});
