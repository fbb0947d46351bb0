import { eq, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { validationReports } from '@/db/schema';
import { biodataFingerprint, storedSamplesOf } from '@/lib/biodata-samples/stored';
import { validateSampleSheet } from '@/lib/biodata-samples/validate';
import { AppError } from '@/lib/errors';
import { parseManifest, type TaxonomyLookup } from '@/lib/manifests';
import { storedRowsValue } from '@/lib/manifests/stored-rows';
import { findChecklist } from '@/lib/sample-checklists/store';
import { MANIFEST_MAX_ROWS } from './create';

/**
 * The validation of a biodata profile's sample sheet (lib/reports/validation.ts hands it over): read as a manifest is,
 * checked against its checklist (lib/biodata-samples/validate.ts), and written as a report is, so that the report's
 * pages, JSON, CSV and confirmation are the same.
 */
export async function validateSampleSheetReport(
  deps: { db: Db; taxonomy: TaxonomyLookup },
  report: { id: string; profileId: string; version: string; fileName: string },
  upload: Uint8Array,
): Promise<void> {
  const { db } = deps;
  const checklist = await findChecklist(db, report.version).catch((err: unknown) => {
    if (err instanceof AppError && err.code === 'not_found') {
      throw new AppError('invalid', `The checklist ${report.version} is no longer known: download its template again and fill it.`);
    }
    throw err;
  });
  const parsed = await parseManifest(upload, report.fileName, { maxRows: MANIFEST_MAX_ROWS });
  await db
    .update(validationReports)
    .set({ progress: 25, summary: { rows: 0, errors: 0, warnings: 0, rows_total: parsed.rows.length, rows_checked: 0 } })
    .where(eq(validationReports.id, report.id));
  const fingerprint = await biodataFingerprint(db, report.profileId);
  const stored = await storedSamplesOf(db, report.profileId);
  const result = await validateSampleSheet(parsed, checklist, { taxonomy: deps.taxonomy, stored, maxRows: MANIFEST_MAX_ROWS });
  await db
    .update(validationReports)
    .set({
      status: 'complete',
      progress: 100,
      summary: { rows: result.rows, errors: result.errors.length, warnings: result.warnings.length },
      errors: result.errors,
      warnings: result.warnings,
      rows: result.errors.length ? null : storedRowsValue({ normalised: result.normalised, matches: result.matches }),
      mode: result.matches.length ? 'update' : 'create',
      changes: result.changes,
      samplesFingerprint: fingerprint,
      upload: null,
      finishedAt: sql`now()`,
    })
    .where(eq(validationReports.id, report.id));
}
