import type { Db } from '@/db/client';
import type { ReportPermit } from '@/lib/permits/contract';
import { type PermitUpload, storeReportPermits } from '@/lib/permits/permits';
import { getProfile } from '@/lib/profiles/profiles';
import type { UserRecord } from '@/lib/users/users';
import { getReport } from './read';

/**
 * The permit step of a report: the PDFs its manifest names, for those who may add to its profile (a viewer sees the
 * report but is refused, 403); lib/permits stores them.
 */
export async function uploadPermits(db: Db, user: UserRecord, reportId: string, files: PermitUpload[]): Promise<ReportPermit[]> {
  const report = await getReport(db, user, reportId);
  await getProfile(db, user, report.profileId, 'contribute');
  return storeReportPermits(db, user, report, files);
}
