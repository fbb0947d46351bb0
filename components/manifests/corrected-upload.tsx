import Link from 'next/link';
import type { ValidationReportSummary } from '@/lib/reports/contract';
import { UploadPanel } from './upload-panel';

/**
 * Where the corrected file goes: a manifest's upload, here; a checklist's sample sheet, on its profile's page with
 * the same checklist picked (components/biodata-samples/sample-sheet-upload.tsx).
 */
export function CorrectedUpload({ report }: { report: Pick<ValidationReportSummary, 'manifest_type' | 'version' | 'profile_id'> }) {
  if (report.manifest_type !== 'BIODATA') return <UploadPanel profileId={report.profile_id} />;
  const href = `/profiles/${report.profile_id}?${new URLSearchParams({ checklist: report.version })}#add-samples`;
  return (
    <p>
      <Link className="button" href={href}>
        Upload the corrected {report.version} sheet
      </Link>
    </p>
  );
}
