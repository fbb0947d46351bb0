import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '@/db/client';
import { validationReports } from '@/db/schema';
import { Conflict } from '@/lib/errors';
import { UuidSchema } from '@/lib/identifiers/contract';
import type { JobQueue } from '@/lib/jobs/queue';
import { jobSpec } from '@/lib/jobs/spec';
import { failReport, runValidation, type ValidationDeps } from './validation';

/** The `manifest.validate` job: what it carries, its give-up, and how an admin runs it again. */

/**
 * The give-up of `manifest.validate`: its last run failed or its process died. The upload is kept, so an admin can
 * run the validation again from the dead-letter list.
 */
export async function giveUpValidation(db: Db, reportId: string, reason: string): Promise<void> {
  await failReport(db, reportId, reason, { keepUpload: true });
}

const ValidateManifestData = z.object({ reportId: UuidSchema });

declare module '@/lib/jobs/contract' {
  interface JobDataByName {
    'manifest.validate': z.infer<typeof ValidateManifestData>;
  }
}

/** `manifest.validate`: a report's validation, run as soon as its upload commits. */
export const validateManifestJob = jobSpec({
  name: 'manifest.validate',
  label: 'Validation of a manifest',
  data: ValidateManifestData,
  expireSeconds: 30 * 60,
  run: (deps: ValidationDeps & { jobs: JobQueue }, data) => runValidation(deps, data.reportId),
  giveUp: (deps, data, reason) => giveUpValidation(deps.db, data.reportId, reason),
  openWork: { key: 'reportId', open: sql`select id::text as id from validation_reports where status in ('pending', 'running')` },
  async reopen(tx, deps, data) {
    const [report] = await tx
      .update(validationReports)
      .set({ status: 'pending', failure: null, progress: 0, attempts: 0, finishedAt: null })
      .where(
        and(eq(validationReports.id, data.reportId), eq(validationReports.status, 'failed'), sql`${validationReports.upload} is not null`),
      )
      .returning({ id: validationReports.id });
    if (!report) throw Conflict('The report cannot be validated again: its upload is gone. Upload the manifest again.');
    await deps.jobs.send('manifest.validate', { reportId: report.id }, { tx });
    return `report ${report.id}`;
  },
});
