import type { Db } from '@/db/client';
import type { ReportPermit } from '@/lib/permits/contract';
import type { UserRecord } from '@/lib/users/users';
import { reportManifestTypeOf, type ValidationReport, type ValidationReportState, type ValidationReportSummary } from './contract';

import { listReports, type ReportSummary, type ReportView } from './read';

/** A report as the API answers with it: whole, summarised for lists and polls, or its state. */

/** docs/architecture.md, Decision 12, plus the reference's names (validation_report_id, submitted, content). */
export function reportJson(r: ReportView, permits: ReportPermit[]): ValidationReport {
  return {
    ...common(r),
    content: r.status === 'failed' ? (r.failure ?? '') : r.errors.map((e) => e.message).join('\n'),
    errors: r.errors,
    warnings: r.warnings,
    changes: r.changes,
    // ERGA: the permit PDFs the manifest names and whether each has arrived; confirming waits for all
    permits,
  };
}

/** A report in a list: its first error messages as `content`, and the permits it names (not whether they arrived). */
export function reportSummaryJson(r: ReportSummary): ValidationReportSummary {
  return {
    ...common(r),
    content: r.content,
    permits: r.permits.map((p) => ({ ...p, received: false, stored_name: null, size_in_bytes: null, uploaded: null })),
  };
}

/** Where a report stands, for polling. */
export function reportStateJson(r: ReportSummary): ValidationReportState {
  const { report_id, status, progress, summary, failure, finished, confirmed_manifest_id, file_name, manifest_type, version } = common(r);
  return { report_id, status, progress, summary, failure, finished, confirmed_manifest_id, file_name, manifest_type, version };
}

function common(r: ReportView | ReportSummary) {
  return {
    report_id: r.id,
    validation_report_id: r.id,
    status: r.status,
    progress: r.progress,
    profile_id: r.profileId,
    manifest_type: reportManifestTypeOf(r.project),
    version: r.version,
    file_name: r.fileName,
    created: r.createdAt.toISOString(),
    submitted: r.createdAt.toISOString(),
    finished: r.finishedAt?.toISOString() ?? null,
    summary: r.summary,
    mode: r.mode,
    failure: r.failure,
    confirmed_manifest_id: r.confirmedManifestId,
  };
}

/** A page of the caller's reports (or a profile's) as POST/GET manifest/validations answers it, with the total. */
export async function reportSummaries(
  db: Db,
  user: UserRecord,
  opts: Parameters<typeof listReports>[2],
): Promise<{ rows: ValidationReportSummary[]; total: number }> {
  const { rows, total } = await listReports(db, user, opts);
  return { rows: rows.map(reportSummaryJson), total };
}
