import { DataTable, type TableDefinition } from '@/components/ui/data-table';
import { formatNumber, plural } from '@/components/ui/words';
import type { BarcodeChecklist, BarcodeIssue, BarcodeUploadAnswer } from '@/lib/barcodes/contract';
import { ApiError, api, formData } from '@/lib/client/api';

/** A barcoding sheet's upload: sending it, and what the service said of it (stored, or each problem of the sheet). */

type NumberedIssue = BarcodeIssue & { n: number };

export type UploadState =
  | { state: 'idle' }
  | { state: 'uploading'; file: string }
  | { state: 'saved'; file: string; answer: BarcodeUploadAnswer }
  | { state: 'invalid'; file: string; detail: string; errors: NumberedIssue[] }
  | { state: 'failed'; file: string; detail: string };

/** Sends the sheet; a 422 carries every problem of it, other failures a problem detail. */
export async function uploadSheet(profileId: string, file: File, checklist: BarcodeChecklist, study: string): Promise<UploadState> {
  try {
    const answer = await api.POST('/api/profiles/{profile_id}/barcodes', {
      params: { path: { profile_id: profileId } },
      body: { file, checklist, ...(study && { study_accession: study }) },
      bodySerializer: formData,
    });
    return { state: 'saved', file: file.name, answer };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    // the report's schema is read only when a sheet is refused, so that zod is not part of the page's first load
    const report = err.status === 422 ? (await import('@/lib/barcodes/contract')).BarcodeUploadReportSchema.safeParse(err.problem) : null;
    if (report?.success && report.data.errors.length) {
      return { state: 'invalid', file: file.name, detail: err.message, errors: report.data.errors.map((e, n) => ({ ...e, n })) };
    }
    return { state: 'failed', file: file.name, detail: err.message };
  }
}

/** Where in the sheet a problem is, as a person finds it: the row, and the column by its header and its letter. */
function whereWords(e: BarcodeIssue): string {
  const column = e.field && e.column ? `${e.field} (column ${e.column})` : e.field || (e.column ? `column ${e.column}` : '');
  if (e.row !== null) return column ? `Row ${e.row}, ${column}` : `Row ${e.row}`;
  return column ? `${column[0]?.toUpperCase()}${column.slice(1)}` : `The sheet ${e.sheet}`;
}

/**
 * A cell's value as the report quotes it: a short one kept on one line (an id should not break), a long one (a
 * sequence holds thousands of letters) cut to its start, with its length.
 */
function IssueValue({ value }: { value: string | null }) {
  if (!value) return <span className="muted">—</span>;
  if (value.length <= 24)
    return (
      <span className="mono" style={{ whiteSpace: 'nowrap' }}>
        {value}
      </span>
    );
  if (value.length <= 80) return <span className="mono">{value}</span>;
  return (
    <span className="mono">
      {value.slice(0, 60)}… <span className="muted">({formatNumber(value.length)} characters)</span>
    </span>
  );
}

const issueTable: TableDefinition<NumberedIssue> = {
  noun: 'problems',
  // a report has no identifiers and can repeat itself: its order is the key
  rowKey: (e) => String(e.n),
  columns: [
    { id: 'where', header: 'Where', key: true, cell: (e) => whereWords(e) },
    { id: 'value', header: 'Value', cell: (e) => <IssueValue value={e.value} /> },
    { id: 'message', header: 'Problem', cell: (e) => e.message },
  ],
};

export function UploadOutcome({ upload }: { upload: UploadState }) {
  switch (upload.state) {
    case 'idle':
      return null;
    case 'uploading':
      return (
        <p role="status" aria-busy="true">
          Checking {upload.file}…
        </p>
      );
    case 'saved': {
      const { answer } = upload;
      return (
        <p role="status" className="notice success">
          {upload.file}: {plural(answer.rows, 'barcode')} stored for {answer.study_accession} ({answer.created} new, {answer.updated}{' '}
          replaced), not yet sent. Send them to ENA when the sheet is complete.
        </p>
      );
    }
    case 'invalid':
      return (
        <div className="notice error">
          <p role="alert" style={{ marginTop: 0 }}>
            {upload.file} was not stored: the barcoding sheet has {plural(upload.errors.length, 'problem')}, listed below. Correct{' '}
            {upload.errors.length === 1 ? 'it' : 'them'} in the sheet and upload it again.
          </p>
          <DataTable caption={`Problems found in ${upload.file}`} table={issueTable} rows={upload.errors} />
        </div>
      );
    case 'failed':
      return (
        <p role="alert" className="notice error">
          {upload.file} was not stored: {upload.detail}
        </p>
      );
  }
}
