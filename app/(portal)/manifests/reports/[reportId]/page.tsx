import type { Metadata } from 'next';
import { ManifestImagesStep } from '@/components/images/image-upload';
import { reportGroupsKey } from '@/components/manifests/report-query';
import { ReportView } from '@/components/manifests/report-view';
import { DeleteAction } from '@/components/ui/delete-action';
import { asSent, Prefetched } from '@/components/ui/prefetched';
import { AppError } from '@/lib/errors';
import { permitsOfReport } from '@/lib/permits/permits';
import { roleAllows } from '@/lib/profiles/access';
import { getProfile } from '@/lib/profiles/profiles';
import { reportRemovalState } from '@/lib/removal/reports';
import { issueGroupsOf } from '@/lib/reports/issues';
import { reportSummaryJson } from '@/lib/reports/json';
import { getReportSummary, reportNames } from '@/lib/reports/read';
import { pageData } from '@/lib/server/page-data';

export const metadata: Metadata = { title: 'Validation report' };

/**
 * A validation report as a page of its own: it survives a reload and opens for whoever the API lets read it (its
 * uploader, the profile's owner, admins); anyone else gets the portal's 404.
 */
export default async function ReportPage({ params }: { params: Promise<{ reportId: string }> }) {
  const { reportId } = await params;
  const { report, names, removal, contributes, groups } = await pageData(async (db, u) => {
    const row = await getReportSummary(db, u, reportId);
    const complete = row.status === 'complete';
    const permits = complete ? await permitsOfReport(db, row) : [];
    // the report's uploader may have lost their share of the profile since: they read the report, add no images
    const profile = await getProfile(db, u, row.profileId).catch((e: unknown) => {
      if (e instanceof AppError && (e.code === 'not_found' || e.code === 'forbidden')) return null;
      throw e;
    });
    return {
      report: { ...reportSummaryJson(row), permits },
      names: await reportNames(db, row),
      removal: await reportRemovalState(db, u, row),
      contributes: roleAllows(profile?.role ?? null, 'contribute'),
      // the errors and warnings come with the page, so that a phone draws them with the summary
      groups: complete && row.summary.errors + row.summary.warnings > 0 ? asSent(await issueGroupsOf(db, row)) : undefined,
    };
  });
  return (
    <>
      <Prefetched answers={groups ? [[reportGroupsKey(report.report_id), groups]] : []}>
        <ReportView report={report} profileTitle={names.profileTitle} uploadedBy={names.uploadedBy} />
      </Prefetched>
      {/* specimen photos are a Tree of Life manifest's: a checklist's sample sheet has no specimens */}
      {report.confirmed_manifest_id && report.manifest_type !== 'BIODATA' ? (
        <ManifestImagesStep manifestId={report.confirmed_manifest_id} contributes={contributes} />
      ) : null}
      {/* under a heading of its own, so that it is not read as deleting the photos above it */}
      {removal && (
        <section aria-labelledby="delete-report">
          <h2 id="delete-report">Delete this validation report</h2>
          <DeleteAction
            noun="validation report"
            name={report.file_name}
            url={`/api/manifest/validate/report/${report.report_id}`}
            refusal={removal.refusal}
            redirectTo={`/profiles/${report.profile_id}`}
          >
            The validation report of {report.file_name} will be deleted from profile {names.profileTitle}, with its stored rows and any
            permit PDFs uploaded for it. A validation still running stops.
          </DeleteAction>
        </section>
      )}
    </>
  );
}
