'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useEffect, useMemo, useRef } from 'react';
import { DataTable, type TableDefinition } from '@/components/ui/data-table';
import { Section } from '@/components/ui/section';
import { When } from '@/components/ui/when';
import { formatNumber, plural } from '@/components/ui/words';
import { api } from '@/lib/client/api';
import { withParams } from '@/lib/client/search';
import type { FieldChange } from '@/lib/manifests/contract';
import type { ValidationReportState, ValidationReportSummary } from '@/lib/reports/contract';
import { CorrectedUpload } from './corrected-upload';
import { IssueGroups } from './issue-groups';
import { NextStep } from './next-step';
import styles from './report.module.css';
import { reportCsv } from './report-csv';
import { StateBadge } from './state-badge';
import { countsText, reportState, sheetWords } from './words';

const ENDED = new Set(['complete', 'failed']);
const CHANGES = 25;

/** The report's errors and warnings as a CSV file the submitter can open next to the spreadsheet. */
async function downloadCsv(reportId: string) {
  const report = await api.GET('/api/manifest/validate/report/{report_id}', { params: { path: { report_id: reportId } } });
  const url = URL.createObjectURL(new Blob([reportCsv(report)], { type: 'text/csv' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = `${report.file_name.replace(/\.[^.]+$/, '')}-validation-report.csv`;
  a.click();
  URL.revokeObjectURL(url);
}

/** Follows a running validation through its small status (0.5 s, doubling to 5 s), and reloads the page's data once it ends. */
function useFollow(report: ValidationReportSummary): ValidationReportState | undefined {
  const router = useRouter();
  const running = !ENDED.has(report.status);
  const polls = useRef(0);
  const state = useQuery({
    queryKey: ['report-status', report.report_id],
    enabled: running,
    queryFn: () => api.GET('/api/manifest/validate/report/{report_id}/status', { params: { path: { report_id: report.report_id } } }),
    refetchInterval: (q) => {
      if (q.state.data && ENDED.has(q.state.data.status)) return false;
      polls.current += 1;
      return Math.min(5000, 500 * 2 ** Math.min(polls.current - 1, 4));
    },
  });
  const ended = running && state.data !== undefined && ENDED.has(state.data.status);
  useEffect(() => {
    if (ended) router.refresh();
  }, [ended, router]);
  return running ? state.data : undefined;
}

/**
 * A validation report as a page: the summary and what to do next at the top (confirm, after the permits of an ERGA
 * manifest; or upload the corrected file), then the errors and warnings grouped by field and rule.
 */
export function ReportView({
  report: initial,
  profileTitle,
  uploadedBy,
}: {
  report: ValidationReportSummary;
  profileTitle: string;
  uploadedBy: string;
}) {
  const live = useFollow(initial);
  const report: ValidationReportSummary = live ? { ...initial, ...live } : initial;
  const state = reportState(report);
  const { summary } = report;
  const complete = report.status === 'complete';
  const issues = summary.errors + summary.warnings;
  // a biodata profile's sheet of one of ENA's checklists, not a Tree of Life manifest (lib/biodata-samples)
  const sampleSheet = report.manifest_type === 'BIODATA';

  return (
    <>
      <p>
        {sampleSheet ? (
          <Link href={`/profiles/${report.profile_id}#samples`}>← {profileTitle}</Link>
        ) : (
          <Link href="/manifests">← Manifests</Link>
        )}
      </p>
      <h1>
        Validation report <span className={styles.fileName}>{report.file_name}</span>
      </h1>
      <section aria-labelledby="summary-heading" className={styles.summary} data-testid="validation-report">
        <h2 id="summary-heading" className={styles.summaryHeading}>
          <StateBadge tone={state.tone}>{state.words}</StateBadge>
          {complete ? <span>{countsText(summary)}</span> : null}
        </h2>
        <dl className="facts">
          <div>
            <dt>File</dt>
            <dd className="mono">{report.file_name}</dd>
          </div>
          <div>
            <dt>Profile</dt>
            <dd>
              <Link href={`/profiles/${report.profile_id}`}>{profileTitle}</Link>
            </dd>
          </div>
          <div>
            <dt>Sheet</dt>
            <dd>
              {sheetWords(report)}
              {report.mode === 'update' ? ', updating samples already stored' : ''}
            </dd>
          </div>
          <div>
            <dt>Uploaded</dt>
            <dd>
              <When value={report.created} /> by {uploadedBy}
            </dd>
          </div>
          <div>
            <dt>Rows</dt>
            <dd>{complete ? formatNumber(summary.rows) : '—'}</dd>
          </div>
          <div>
            <dt>Errors</dt>
            <dd>{complete ? formatNumber(summary.errors) : '—'}</dd>
          </div>
          <div>
            <dt>Warnings</dt>
            <dd>{complete ? formatNumber(summary.warnings) : '—'}</dd>
          </div>
        </dl>
        {!ENDED.has(report.status) ? <Progress report={report} /> : null}
        {report.status === 'failed' ? (
          <>
            <p role="alert" className="notice error">
              The {sampleSheet ? 'sheet' : 'manifest'} could not be checked: {report.failure}
            </p>
            <h3>Upload it again</h3>
            <CorrectedUpload report={report} />
          </>
        ) : null}
        {complete ? <NextStep report={report} /> : null}
        {complete && issues > 0 ? (
          <p>
            <button type="button" onClick={() => void downloadCsv(report.report_id)}>
              Download the report as CSV
            </button>
          </p>
        ) : null}
      </section>
      {complete && report.mode === 'update' ? <Changes reportId={report.report_id} /> : null}
      {complete && issues > 0 ? (
        <Section id="issues" title="Errors and warnings">
          <IssueGroups reportId={report.report_id} />
        </Section>
      ) : null}
    </>
  );
}

function Progress({ report }: { report: ValidationReportSummary }) {
  const { rows_checked: checked = 0, rows_total: total } = report.summary;
  const text =
    report.status === 'pending'
      ? 'Waiting to be checked…'
      : total === undefined
        ? 'Reading the file…'
        : `Checked ${formatNumber(checked)} of ${plural(total, 'row')}…`;
  return (
    <div className={styles.progress}>
      <p role="status" aria-live="polite">
        {text}
      </p>
      <progress max={total || 1} value={total ? checked : undefined} aria-label="Rows checked" />
    </div>
  );
}

/** A re-upload: the fields it changes, a page at a time (`changes` in the URL). */
function Changes({ reportId }: { reportId: string }) {
  const pathname = usePathname();
  const search = useSearchParams();
  const offset = Math.max(0, Number(search.get('changes')) || 0);
  const q = useQuery({
    queryKey: ['report', reportId],
    queryFn: () => api.GET('/api/manifest/validate/report/{report_id}', { params: { path: { report_id: reportId } } }),
  });
  const table: TableDefinition<FieldChange> = {
    noun: 'changes',
    rowKey: (c) => `${c.row}:${c.field}`,
    columns: [
      { id: 'row', header: 'Row', key: true, numeric: true, cell: (c) => c.row },
      { id: 'field', header: 'Field', cell: (c) => <span className="mono">{c.field}</span> },
      { id: 'from', header: 'From', cell: (c) => c.oldValue || <span className="muted">empty</span> },
      { id: 'to', header: 'To', cell: (c) => c.newValue || <span className="muted">empty</span> },
    ],
  };
  const all = q.data?.changes;
  // the same rows from one drawing to the next, or the table would draw them again in the background (DataTable)
  const rows = useMemo(() => all?.slice(offset, offset + CHANGES), [all, offset]);
  return (
    <Section id="changes" title="Changes this upload makes">
      <DataTable
        caption="Changes this upload makes"
        table={table}
        rows={rows}
        query={q}
        empty="This upload changes no field."
        page={{
          offset,
          limit: CHANGES,
          total: all?.length ?? 0,
          hrefFor: (o) => withParams(pathname, search, { changes: o ? String(o) : undefined }),
        }}
      />
    </Section>
  );
}
