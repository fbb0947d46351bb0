'use client';

import Link from 'next/link';
import { useState } from 'react';
import { ApiError, apiFetch } from '@/lib/client/api';

export interface Issue {
  row: number | null;
  column: string | null;
  field: string | null;
  value: string | null;
  rule: string;
  message: string;
}
export interface ReportJson {
  report_id: string;
  status: 'pending' | 'running' | 'complete' | 'failed';
  progress: number;
  file_name: string;
  manifest_type: string;
  version: string;
  mode: 'create' | 'update' | null;
  failure: string | null;
  confirmed_manifest_id: string | null;
  summary: { rows: number; errors: number; warnings: number };
  errors: Issue[];
  warnings: Issue[];
  changes: { sampleId: string; row: number; field: string; oldValue: string; newValue: string }[];
}

const csvCell = (v: unknown) => {
  const s = v === null || v === undefined ? '' : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** The report's errors and warnings as a CSV file the user can open next to the spreadsheet. */
function downloadCsv(report: ReportJson) {
  const lines = [
    ['severity', 'row', 'column', 'field', 'value', 'rule', 'message'].join(','),
    ...[...report.errors.map((i) => ['error', i] as const), ...report.warnings.map((i) => ['warning', i] as const)].map(([sev, i]) =>
      [sev, i.row, i.column, i.field, i.value, i.rule, i.message].map(csvCell).join(','),
    ),
  ];
  const url = URL.createObjectURL(new Blob([lines.join('\n') + '\n'], { type: 'text/csv' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = `${report.file_name.replace(/\.[^.]+$/, '')}-validation-report.csv`;
  a.click();
  URL.revokeObjectURL(url);
}

function IssueTable({ issues, caption }: { issues: Issue[]; caption: string }) {
  return (
    <div className="table-wrap">
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Cell</th>
            <th scope="col">Field</th>
            <th scope="col">Value</th>
            <th scope="col">Problem</th>
          </tr>
        </thead>
        <tbody>
          {issues.map((i, n) => (
            <tr key={n} data-rule={i.rule}>
              <td className="mono">{i.column || i.row ? `${i.column ?? ''}${i.row ?? ''}` : 'sheet'}</td>
              <td className="mono">{i.field ?? ''}</td>
              <td className="mono">{i.value ?? ''}</td>
              <td>{i.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function ReportView({ report, onConfirmed }: { report: ReportJson; onConfirmed: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<{ manifest_id: string; created: number; updated: number } | null>(null);
  const running = report.status === 'pending' || report.status === 'running';

  async function confirm() {
    setConfirming(true);
    setError(null);
    try {
      setResult(await apiFetch('/api/manifest/validate/confirm', { method: 'POST', json: { validation_report_id: report.report_id } }));
      onConfirmed();
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err));
    } finally {
      setConfirming(false);
    }
  }

  return (
    <div aria-live="polite" data-testid="validation-report">
      <h3>
        Validation of {report.file_name} <span className="muted">({report.manifest_type} {report.version})</span>
      </h3>
      {running && (
        <label>
          Validating… {report.progress}%
          <progress max={100} value={report.progress} />
        </label>
      )}
      {report.status === 'failed' && (
        <p role="alert" className="notice error">
          The manifest could not be read: {report.failure}
        </p>
      )}
      {report.status === 'complete' && (
        <>
          <p>
            {report.summary.rows} rows, <strong>{report.summary.errors} errors</strong>, {report.summary.warnings} warnings.
            {report.mode === 'update' && ' This upload updates samples already stored in the profile.'}
          </p>
          {(report.errors.length > 0 || report.warnings.length > 0) && (
            <button type="button" onClick={() => downloadCsv(report)}>
              Download the report as CSV
            </button>
          )}
          {report.errors.length > 0 && <IssueTable issues={report.errors} caption="Errors: fix these cells and upload the file again" />}
          {report.warnings.length > 0 && <IssueTable issues={report.warnings} caption="Warnings" />}
          {report.mode === 'update' && report.changes.length > 0 && (
            <div className="table-wrap">
              <table>
                <caption>Changes this upload makes</caption>
                <thead>
                  <tr>
                    <th scope="col">Row</th>
                    <th scope="col">Field</th>
                    <th scope="col">From</th>
                    <th scope="col">To</th>
                  </tr>
                </thead>
                <tbody>
                  {report.changes.map((c, n) => (
                    <tr key={n}>
                      <td>{c.row}</td>
                      <td className="mono">{c.field}</td>
                      <td>{c.oldValue}</td>
                      <td>{c.newValue}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {report.errors.length === 0 && !report.confirmed_manifest_id && !result && (
            <p>
              <button className="primary" type="button" onClick={() => void confirm()} disabled={confirming}>
                {confirming ? 'Saving…' : report.mode === 'update' ? 'Confirm and update the samples' : 'Confirm and create the samples'}
              </button>
            </p>
          )}
          {error && (
            <p role="alert" className="notice error">
              {error}
            </p>
          )}
          {(result || report.confirmed_manifest_id) && (
            <p className="notice success" role="status">
              {result ? `${result.created} samples created, ${result.updated} updated. ` : 'Confirmed. '}
              <Link href={`/manifests/${result?.manifest_id ?? report.confirmed_manifest_id}`}>See the manifest’s samples</Link>
            </p>
          )}
        </>
      )}
    </div>
  );
}
