'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { plural } from '@/components/ui/words';
import { ApiError, api } from '@/lib/client/api';
import type { ReportPermit } from '@/lib/permits/contract';
import type { ValidationReportSummary } from '@/lib/reports/contract';
import { CorrectedUpload } from './corrected-upload';
import { PermitStep } from './permit-step';
import styles from './report.module.css';

/** Confirm (after the permits), or what was confirmed, or what to do about the errors. */
export function NextStep({ report }: { report: ValidationReportSummary }) {
  const router = useRouter();
  const qc = useQueryClient();
  const [permits, setPermits] = useState<ReportPermit[]>(report.permits);
  const [seen, setSeen] = useState(report.permits);
  // the server's answer replaces what this page holds when the page's data is read again
  if (seen !== report.permits) {
    setSeen(report.permits);
    setPermits(report.permits);
  }
  const confirm = useMutation({
    mutationFn: () => api.POST('/api/manifest/validate/confirm', { body: { validation_report_id: report.report_id } }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: ['validations'] });
      // a sample sheet's samples are listed on its profile's page
      void qc.invalidateQueries({ queryKey: ['biodata-samples', report.profile_id] });
      router.refresh();
    },
  });
  const manifestId = confirm.data?.manifest_id ?? report.confirmed_manifest_id;
  // a biodata profile's sheet: its samples stay in the profile until their owner registers them (no review)
  const sampleSheet = report.manifest_type === 'BIODATA';
  const samplesHref = `/profiles/${report.profile_id}#samples`;

  if (manifestId && sampleSheet) {
    const done = confirm.data;
    return (
      <div role="status" className="notice success">
        <p>
          {done
            ? `Confirmed: ${plural(done.created, 'sample')} created, ${done.updated} updated.`
            : 'Confirmed: this sheet’s samples have been stored.'}{' '}
          New samples stay in the profile until you register them at ENA; a change to a sample ENA holds is sent to ENA by itself.
        </p>
        <p className={styles.links}>
          <Link href={samplesHref}>Register the samples at ENA from the profile’s Samples</Link>
        </p>
      </div>
    );
  }
  if (manifestId) {
    const done = confirm.data;
    return (
      <div role="status" className="notice success">
        <p>
          {done
            ? `Confirmed: ${plural(done.created, 'sample')} created, ${done.updated} updated. The project’s sample managers have been told.`
            : 'Confirmed: this manifest’s samples have been stored.'}
        </p>
        <p className={styles.links}>
          <Link href={`/manifests/${manifestId}`}>Open the manifest and its samples</Link>
          <Link href={`/samples?manifest_id=${manifestId}`}>Find its samples in the samples browser</Link>
        </p>
      </div>
    );
  }
  if (report.summary.errors > 0) {
    return (
      <div className={styles.next}>
        <p className="notice error">
          Fix the {plural(report.summary.errors, 'error')} listed below in the spreadsheet, then upload the corrected file: it gets a new
          report.
        </p>
        <h3>Upload the corrected {sampleSheet ? 'sheet' : 'manifest'}</h3>
        <CorrectedUpload report={report} />
      </div>
    );
  }
  const missing = permits.filter((p) => !p.received);
  const hintId = `confirm-hint-${report.report_id}`;
  return (
    <div className={styles.next}>
      {permits.length > 0 ? (
        <PermitStep
          reportId={report.report_id}
          permits={permits}
          onUploaded={(next) => {
            setPermits(next);
            // the page's summary says what is missing too: it is read again
            router.refresh();
          }}
        />
      ) : null}
      <p className={styles.confirm}>
        <button
          className="primary"
          type="button"
          onClick={() => confirm.mutate()}
          disabled={confirm.isPending || missing.length > 0}
          aria-describedby={missing.length ? hintId : undefined}
        >
          {confirm.isPending
            ? 'Saving…'
            : report.mode === 'update'
              ? 'Confirm and update the samples'
              : sampleSheet
                ? 'Confirm and store the samples'
                : 'Confirm and create the samples'}
        </button>
        {missing.length > 0 ? (
          <span id={hintId} className="muted">
            Upload {missing.length === 1 ? 'the permit' : `the ${missing.length} permits`} above first (
            {missing.map((p) => p.filename).join(', ')}).
          </span>
        ) : (
          <span className="muted">
            {report.mode === 'update'
              ? sampleSheet
                ? 'The changes below are written to the samples, each with a history record; those ENA holds are sent to ENA again.'
                : 'The changes below are written to the samples, each with an audit record.'
              : sampleSheet
                ? `${plural(report.summary.rows, 'sample')} will be stored in the profile, not yet sent: you register them at ENA from the profile’s Samples.`
                : `${plural(report.summary.rows, 'sample')} will be created and sent to the project’s sample managers for review.`}
          </span>
        )}
      </p>
      {confirm.isError ? (
        <p role="alert" className="notice error">
          {confirm.error instanceof ApiError ? confirm.error.message : String(confirm.error)}
        </p>
      ) : null}
    </div>
  );
}
