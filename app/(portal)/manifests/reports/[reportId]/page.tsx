import type { Metadata } from 'next';
import { Suspense } from 'react';
import { ReportView } from '@/components/manifests/report-view';
import { permitsOfReport } from '@/lib/permits/permits';
import { getReportSummary, reportNames, reportSummaryJson } from '@/lib/reports/reports';
import { pageData } from '@/lib/server/page-data';

export const metadata: Metadata = { title: 'Validation report' };

/**
 * A validation report as a page of its own: it survives a reload and opens for whoever the API lets read it (its
 * uploader, the profile's owner, admins); anyone else gets the portal's 404.
 */
export default async function ReportPage({ params }: { params: Promise<{ reportId: string }> }) {
  const { reportId } = await params;
  const { report, names } = await pageData(async (db, u) => {
    const row = await getReportSummary(db, u, reportId);
    const permits = row.status === 'complete' ? await permitsOfReport(db, row) : [];
    return { report: { ...reportSummaryJson(row), permits }, names: await reportNames(db, row) };
  });
  return (
    <Suspense fallback={<p aria-busy="true">Loading the report…</p>}>
      <ReportView report={report} profileTitle={names.profileTitle} uploadedBy={names.uploadedBy} />
    </Suspense>
  );
}
