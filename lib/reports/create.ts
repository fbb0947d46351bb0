import { randomUUID } from 'node:crypto';
import type { Db } from '@/db/client';
import { one } from '@/db/rows';
import { validationReports } from '@/db/schema';
import { Invalid } from '@/lib/errors';
import type { JobQueue } from '@/lib/jobs/queue';
import { checkManifestFile, currentDefinition, isManifestProject } from '@/lib/manifests';
import { getProfile } from '@/lib/profiles/profiles';
import { isTolProject } from '@/lib/projects/contract';
import { findChecklist } from '@/lib/sample-checklists/store';
import type { UserRecord } from '@/lib/users/users';
import type { ReportProject } from './contract';

/**
 * A validation report, from the upload: the workbook stored and the `manifest.validate` job queued with it. The
 * report's life (docs/tol-manifests.md §2): create.ts, job.ts (the validation), read.ts (who may read it, lists),
 * json.ts (its answers), permits.ts (its permit step), confirm.ts (into samples), issues.ts (grouped for the page).
 */

/** The reference stops at 1,000 rows; the broker validates ten times that in seconds (bench/manifest-validate.ts). */
export const MANIFEST_MAX_ROWS = 10_000;

/**
 * Stores the upload and returns the report id at once; the `manifest.validate` job, queued in the same transaction,
 * does the work.
 */
export async function createValidationReport(
  db: Db,
  jobs: JobQueue,
  user: UserRecord,
  input: { profileId: string; fileName: string; bytes: Uint8Array },
): Promise<Pick<typeof validationReports.$inferSelect, 'id' | 'status'>> {
  const profile = await getProfile(db, user, input.profileId, 'contribute');
  if (!isManifestProject(profile.type)) {
    throw Invalid(`Profile type '${profile.type}' has no sample manifest: only ASG, DTOL, DTOLENV and ERGA profiles do.`);
  }
  return storeReport(db, jobs, user, {
    ...input,
    profileId: profile.id,
    project: profile.type,
    version: currentDefinition(profile.type).version,
  });
}

/**
 * A sample sheet of one of ENA's checklists (POST /api/profiles/{id}/samples): stored as a report of a biodata
 * profile's samples, whose version is the checklist's id, and validated by the same job (lib/biodata-samples).
 */
export async function createSampleSheetReport(
  db: Db,
  jobs: JobQueue,
  user: UserRecord,
  input: { profileId: string; checklistId: string; fileName: string; bytes: Uint8Array },
): Promise<Pick<typeof validationReports.$inferSelect, 'id' | 'status'>> {
  const profile = await getProfile(db, user, input.profileId, 'contribute');
  if (isTolProject(profile.type)) {
    throw Invalid(
      `A ${profile.type.toUpperCase()} profile registers its samples with its Tree of Life manifests, not a checklist's sheet.`,
    );
  }
  const checklist = await findChecklist(db, input.checklistId);
  if (checklist.kind !== 'sample')
    throw Invalid(`${checklist.id} is a sequence checklist: samples are registered against a sample checklist.`);
  return storeReport(db, jobs, user, { ...input, profileId: profile.id, project: 'biodata', version: checklist.id });
}

/** The upload stored with its report, and the validation job queued in the same transaction. */
async function storeReport(
  db: Db,
  jobs: JobQueue,
  user: UserRecord,
  input: { profileId: string; project: ReportProject; version: string; fileName: string; bytes: Uint8Array },
): Promise<Pick<typeof validationReports.$inferSelect, 'id' | 'status'>> {
  // other file types (415), non-spreadsheets and workbooks without the data sheet (422) are refused before anything is stored
  await checkManifestFile(input.bytes, input.fileName);
  return db.transaction(async (tx) => {
    const row = one(
      await tx
        .insert(validationReports)
        .values({
          id: randomUUID(),
          userId: user.id,
          profileId: input.profileId,
          project: input.project,
          version: input.version,
          fileName: input.fileName,
          fileSize: input.bytes.length,
          // the request's bytes themselves, not a copy
          upload: Buffer.from(input.bytes.buffer, input.bytes.byteOffset, input.bytes.byteLength),
        })
        // not the upload: on PGlite every copy of it out of the database stays in its memory for good
        .returning({ id: validationReports.id, status: validationReports.status }),
      'the new report',
    );
    await jobs.send('manifest.validate', { reportId: row.id }, { tx });
    return row;
  });
}
