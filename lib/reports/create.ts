import { randomUUID } from 'node:crypto';
import type { Db } from '@/db/client';
import { one } from '@/db/rows';
import { validationReports } from '@/db/schema';
import { Invalid } from '@/lib/errors';
import type { JobQueue } from '@/lib/jobs/queue';
import { checkManifestFile, currentDefinition, isManifestProject } from '@/lib/manifests';
import { getProfile } from '@/lib/profiles/profiles';
import type { UserRecord } from '@/lib/users/users';

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
  // other file types (415), non-spreadsheets and workbooks without the data sheet (422) are refused before anything is stored
  await checkManifestFile(input.bytes, input.fileName);
  const project = profile.type;
  const definition = currentDefinition(project);
  const report = await db.transaction(async (tx) => {
    const row = one(
      await tx
        .insert(validationReports)
        .values({
          id: randomUUID(),
          userId: user.id,
          profileId: profile.id,
          project,
          version: definition.version,
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
  return report;
}
