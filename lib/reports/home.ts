import type { Db } from '@/db/client';
import { missingPermitsOfReports } from '@/lib/permits/permits';
import type { UserRecord } from '@/lib/users/users';
import { listReports, type ReportSummary } from './read';

/** The recent reports the home page looks through: enough for what waits, not the Manifests page's whole list. */
const RECENT_REPORTS = 50;

/** A validated manifest that waits for permit PDFs, with the files it still needs. */
export type ReportAwaitingPermits = ReportSummary & { missingPermits: string[] };

/** What the user's recent reports ask of them, each list newest first. */
export interface ReportsWaiting {
  /** validated without errors, every permit in: the user confirms them */
  toConfirm: ReportSummary[];
  /** validated without errors, but an ERGA manifest whose permit PDFs have not all arrived */
  awaitingPermits: ReportAwaitingPermits[];
  /** validated with errors: the manifest is corrected and uploaded again */
  toCorrect: ReportSummary[];
  /** still being validated */
  validating: ReportSummary[];
}

/**
 * The home page's reports: the user's recent ones sorted by what they wait for. The permits every validated ERGA
 * manifest still needs are read in one statement for all of them.
 */
export async function reportsWaiting(db: Db, user: UserRecord): Promise<ReportsWaiting> {
  const { rows } = await listReports(db, user, { limit: RECENT_REPORTS, offset: 0 });
  const unconfirmed = rows.filter((r) => r.status === 'complete' && !r.confirmedManifestId);
  const missing = await missingPermitsOfReports(
    db,
    unconfirmed.filter((r) => r.summary.errors === 0),
  );
  return {
    toConfirm: unconfirmed.filter((r) => r.summary.errors === 0 && !missing.has(r.id)),
    awaitingPermits: unconfirmed.flatMap((r) => {
      const files = missing.get(r.id);
      return files ? [{ ...r, missingPermits: files }] : [];
    }),
    toCorrect: unconfirmed.filter((r) => r.summary.errors > 0),
    validating: rows.filter((r) => r.status === 'pending' || r.status === 'running'),
  };
}
