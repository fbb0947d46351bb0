import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '@/db/client';
import { validationReports } from '@/db/schema';
import { AppError } from '@/lib/errors';
import {
  currentDefinition,
  type Issue,
  parseManifest,
  type TaxonomyLookup,
  TaxonomyUnavailableError,
  validateManifest,
} from '@/lib/manifests';
import { storedRowsValue } from '@/lib/manifests/stored-rows';
import { requiredPermits } from '@/lib/permits/required';
import { getProfile } from '@/lib/profiles/profiles';
import { findUpdateChanges } from '@/lib/samples/changes';
import { existingSamplesOf, samplesFingerprint } from '@/lib/samples/existing';
import { getUser } from '@/lib/users/users';
import { MANIFEST_MAX_ROWS } from './create';
import { RowProgress } from './row-progress';
import { validateSampleSheetReport } from './sample-sheet';
import { readUpload } from './stored-upload';

/** A report's validation, run by the `manifest.validate` job (lib/reports/job.ts): its result, or its failure. */

/** Issues in the order of the sheet's cells. */
const byCell = (a: Issue, b: Issue) => (a.row ?? 0) - (b.row ?? 0) || (a.column ?? '').localeCompare(b.column ?? '');

export interface ValidationDeps {
  db: Db;
  taxonomy: TaxonomyLookup;
  logger: Logger;
}

/**
 * The job: parse, validate, and for re-uploads find the field changes and the ones that are not allowed. Every run
 * ends in `complete` or `failed`; only a taxonomy outage is thrown back, so the queue runs it again, and the give-up
 * of its last run (giveUpValidation) fails the report with the reason.
 */
export async function runValidation(deps: ValidationDeps, reportId: string): Promise<void> {
  const { db } = deps;
  const { upload: _upload, ...columns } = getTableColumns(validationReports);
  const [report] = await db
    .update(validationReports)
    .set({ status: 'running', progress: 5, attempts: sql`${validationReports.attempts} + 1` })
    .where(and(eq(validationReports.id, reportId), sql`${validationReports.status} in ('pending', 'running')`))
    .returning(columns);
  if (!report) return; // already finished: a redelivered job has nothing to do
  try {
    const upload = await readUpload(db, reportId);
    if (!upload) throw new Error('the uploaded file is gone');
    if (report.project === 'biodata') {
      await validateSampleSheetReport(deps, report, upload);
      return;
    }
    const definition = currentDefinition(report.project);
    const parsed = await parseManifest(upload, report.fileName, { definition, maxRows: MANIFEST_MAX_ROWS });
    const progress = new RowProgress(db, reportId, parsed.rows);
    await progress.started();
    const fingerprint = await samplesFingerprint(db, report.profileId);
    const uploader = await getUser(db, report.userId);
    const profile = await getProfile(db, uploader, report.profileId);
    const result = await validateManifest(parsed, definition, {
      taxonomy: progress.counting(deps.taxonomy),
      existingSamples: existingSamplesOf(db),
      profileId: report.profileId,
      profileTitle: profile.title,
      associatedProjectTypes: profile.associatedTypes,
      maxRows: MANIFEST_MAX_ROWS,
    });
    await progress.finished();
    const update =
      result.mode === 'update'
        ? await findUpdateChanges(db, { matches: result.matches, rows: result.normalised, parsed, definition, uploader })
        : { changes: [], errors: [] as Issue[] };
    const errors = [...result.errors, ...update.errors].sort(byCell);
    const permits = requiredPermits(
      result.normalised,
      result.mode === 'update' ? { changes: update.changes, matches: result.matches } : undefined,
    );
    await db
      .update(validationReports)
      .set({
        status: 'complete',
        progress: 100,
        summary: { rows: result.rows, errors: errors.length, warnings: result.warnings.length },
        errors,
        warnings: result.warnings,
        rows: errors.length ? null : storedRowsValue({ normalised: result.normalised, matches: result.matches }),
        mode: result.mode,
        changes: update.changes,
        permits,
        samplesFingerprint: fingerprint,
        upload: null,
        finishedAt: sql`now()`,
      })
      .where(eq(validationReports.id, reportId));
  } catch (err) {
    if (err instanceof TaxonomyUnavailableError) {
      await db
        .update(validationReports)
        .set({ status: 'pending', progress: 0, summary: { rows: 0, errors: 0, warnings: 0 } })
        .where(eq(validationReports.id, reportId));
      throw err;
    }
    const failure = err instanceof AppError ? err.message : 'The manifest could not be validated because of an internal error.';
    if (!(err instanceof AppError)) deps.logger.error({ err, report_id: reportId }, 'validation failed');
    await failReport(db, reportId, failure);
  }
}

/** Ends a report that is still pending or running as failed, with the reason its readers are given. */
export async function failReport(db: Db, reportId: string, failure: string, opts: { keepUpload?: boolean } = {}): Promise<void> {
  await db
    .update(validationReports)
    .set({ status: 'failed', failure, ...(!opts.keepUpload && { upload: null }), progress: 100, finishedAt: sql`now()` })
    .where(and(eq(validationReports.id, reportId), sql`${validationReports.status} in ('pending', 'running')`));
}
