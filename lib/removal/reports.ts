import { eq, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { permits, profiles, validationReports } from '@/db/schema';
import { recordRemovals } from '@/lib/audit/events';
import { Conflict, NotFound } from '@/lib/errors';
import { isUuid } from '@/lib/identifiers/contract';
import { roleAllows, roleOn } from '@/lib/profiles/access';
import type { UserRecord } from '@/lib/users/users';
import { lockProfileFor } from './samples';

const REPORT_NOT_FOUND = 'Validation report not found';

/** Why a report may not be deleted, in words, or null when it may: a confirmed one is the record of its samples. */
export function reportRemovalRefusal(r: { fileName: string; confirmedManifestId: string | null }): string | null {
  if (!r.confirmedManifestId) return null;
  return (
    `The report of ${r.fileName} was confirmed into manifest ${r.confirmedManifestId}: it is the record of how those ` +
    'samples came in. Delete the samples instead; the report goes with the manifest’s last sample.'
  );
}

/**
 * Deletes a validation report that was not confirmed, with its stored rows and the permit PDFs uploaded for it, in
 * one transaction with its audit event. A report still being validated is deleted as well: the validation job
 * writes only to a report that exists, so it finds nothing left to write to and ends. 404 for an unknown report or
 * one the caller may not change (only the profile's owner and admins may); 409 for a confirmed one.
 */
export async function deleteReport(db: Db, user: UserRecord, reportId: string): Promise<void> {
  if (!isUuid(reportId)) throw NotFound(REPORT_NOT_FOUND);
  const id = reportId.toLowerCase();
  await db.transaction(async (tx) => {
    const [head] = await tx.select({ profileId: validationReports.profileId }).from(validationReports).where(eq(validationReports.id, id));
    if (!head) throw NotFound(REPORT_NOT_FOUND);
    // the profile, then the report: the order a confirmation locks them in, so the two take turns
    await lockProfileFor(tx, user, head.profileId, REPORT_NOT_FOUND, 'contribute');
    const [report] = await tx
      .select({
        id: validationReports.id,
        profileId: validationReports.profileId,
        project: validationReports.project,
        fileName: validationReports.fileName,
        status: validationReports.status,
        confirmedManifestId: validationReports.confirmedManifestId,
        rows: sql<number>`coalesce((${validationReports.summary} ->> 'rows')::int, 0)`,
      })
      .from(validationReports)
      .where(eq(validationReports.id, id))
      .for('update');
    if (!report) throw NotFound(REPORT_NOT_FOUND);
    const refusal = reportRemovalRefusal(report);
    if (refusal) throw Conflict(refusal);
    const [uploaded] = await tx.select({ n: sql<number>`count(*)::int` }).from(permits).where(eq(permits.reportId, id));
    // its permits go by the foreign key's cascade
    await tx.delete(validationReports).where(eq(validationReports.id, id));
    await recordRemovals(tx, user, [
      {
        objectType: 'validation_report',
        objectId: id,
        profileId: report.profileId,
        detail: {
          file_name: report.fileName,
          project: report.project,
          status: report.status,
          rows: Number(report.rows),
          permits: Number(uploaded?.n ?? 0),
        },
      },
    ]);
  });
}

/** What the report page says about deleting the report: nothing for who may not, else whether and why not. */
export async function reportRemovalState(
  db: Db,
  user: UserRecord,
  report: { profileId: string; fileName: string; confirmedManifestId: string | null },
): Promise<{ refusal: string | null } | null> {
  const [profile] = await db.select({ id: profiles.id, ownerId: profiles.ownerId }).from(profiles).where(eq(profiles.id, report.profileId));
  if (!profile || !roleAllows(await roleOn(db, user, profile), 'contribute')) return null;
  return { refusal: reportRemovalRefusal(report) };
}
