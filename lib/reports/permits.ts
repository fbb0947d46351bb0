import type { Db } from '@/db/client';
import type { ReportPermit } from '@/lib/permits/contract';
import { type PermitUpload, storeReportPermits } from '@/lib/permits/permits';
import type { UserRecord } from '@/lib/users/users';
import { getReport } from './read';

/** The permit step of a report: the PDFs its manifest names, for those who may see the report (lib/permits stores them). */
export async function uploadPermits(db: Db, user: UserRecord, reportId: string, files: PermitUpload[]): Promise<ReportPermit[]> {
  return storeReportPermits(db, user, await getReport(db, user, reportId), files);
}
