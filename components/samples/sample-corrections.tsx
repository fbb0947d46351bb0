'use client';

import { useMutation } from '@tanstack/react-query';
import Link from 'next/link';
import { useId, useState } from 'react';
import { DataTable, type TableDefinition } from '@/components/ui/data-table';
import { DropZone } from '@/components/ui/drop-zone';
import { FormOutcome, SubmitButton } from '@/components/ui/form';
import { Section } from '@/components/ui/section';
import { plural, samplesWord } from '@/components/ui/words';
import { api, formData } from '@/lib/client/api';
import {
  CORRECTION_COLUMNS,
  CORRECTION_LINK_MINUTES,
  type CorrectedSample,
  type CorrectionRow,
  type CorrectionsConfirmed,
  type CorrectionsPreview,
} from '@/lib/samples/corrections-contract';
import styles from './sample-corrections.module.css';

/**
 * A curator's corrections of registered samples by BioSample accession: paste them (CSV, or cells copied from a
 * spreadsheet) or drop a CSV file, read the diff with each row's errors beside it, then confirm. The API validates each
 * corrected sample as a re-upload of its row would be; nothing changes until the confirmation, which sends the
 * corrections to ENA (a new ToLID first where the taxon changes).
 */

const HEADER = CORRECTION_COLUMNS.join(',');
const EXAMPLE = `${HEADER}\nSAMEA7524530,TAXON_ID,7227\nSAMEA7524530,SCIENTIFIC_NAME,Drosophila melanogaster`;

const issues = (r: CorrectionRow) =>
  r.errors.length || r.warnings.length ? (
    <ul className={styles.issues}>
      {r.errors.map((e) => (
        <li key={`e-${e.rule}-${e.message}`} className={styles.error}>
          <span className="visually-hidden">Error: </span>
          {e.message}
        </li>
      ))}
      {r.warnings.map((w) => (
        <li key={`w-${w.rule}-${w.message}`} className="muted">
          <span className="visually-hidden">Warning: </span>
          {w.message}
        </li>
      ))}
    </ul>
  ) : (
    <span className="muted">No problem</span>
  );

const rowsTable: TableDefinition<CorrectionRow> = {
  noun: 'corrections',
  rowKey: (r) => String(r.row),
  columns: [
    { id: 'row', header: 'Row', numeric: true, nowrap: true, cell: (r) => r.row },
    { id: 'accession', header: 'BioSample accession', key: true, cell: (r) => <span className="mono">{r.biosample_accession}</span> },
    { id: 'field', header: 'Field', cell: (r) => <span className="mono">{r.field}</span> },
    { id: 'value', header: 'New value', cell: (r) => r.value || <span className="muted">(empty)</span> },
    { id: 'issues', header: 'Errors and warnings', cell: issues },
  ],
};

/** What a confirmation will send for a sample, in words. */
function sent(s: CorrectedSample): string[] {
  const out: string[] = [];
  if (s.new_tolid) out.push('a new ToLID is requested first');
  if (s.sample_action) out.push(`${s.sample_action} of the sample`);
  if (s.specimen_action) out.push(`${s.specimen_action} of its specimen’s record`);
  return out;
}

const diffTable: TableDefinition<CorrectedSample> = {
  noun: 'samples',
  rowKey: (s) => s.svc_id,
  columns: [
    {
      id: 'sample',
      header: 'Sample',
      key: true,
      cell: (s) => (
        <Link href={`/samples/${s.svc_id}`} className="mono">
          {s.biosample_accession}
        </Link>
      ),
    },
    {
      id: 'changes',
      header: 'Changes',
      cell: (s) => (
        <ul className={styles.changes}>
          {s.changes.map((c) => (
            <li key={c.field}>
              <span className="mono">{c.field}</span>: <del>{c.old_value || '(empty)'}</del> → <ins>{c.new_value || '(empty)'}</ins>
            </li>
          ))}
        </ul>
      ),
    },
    { id: 'sent', header: 'Sent to ENA', cell: (s) => sent(s).join('; ') },
  ],
};

const tokenOf = (url: string) => new URL(url, window.location.origin).pathname.split('/').pop() ?? '';

function confirmedWords(answer: CorrectionsConfirmed): string {
  if (answer.already_applied) return 'These corrections were confirmed before: nothing was done again.';
  const queued = answer.registrations.reduce((n, r) => n + r.samples, 0);
  return (
    `Corrected ${samplesWord(answer.samples.length)}. ` +
    (queued ? `${samplesWord(queued)} ${queued === 1 ? 'is' : 'are'} being sent to ENA` : 'They wait for a new ToLID before ENA') +
    '; follow them on the Submissions page.'
  );
}

export function SampleCorrections() {
  const id = useId();
  const [text, setText] = useState(`${HEADER}\n`);
  const [dropError, setDropError] = useState<string | null>(null);
  const [preview, setPreview] = useState<CorrectionsPreview | null>(null);
  const previewing = useMutation({
    mutationFn: (file: File) =>
      api.POST('/api/admin/samples/corrections', {
        body: { file },
        // the file as a multipart form (the document's body is one of JSON, a form or CSV text)
        bodySerializer: (body) => formData(typeof body === 'object' ? body : undefined),
      }),
    onSuccess: (answer) => {
      setPreview(answer);
      confirming.reset();
    },
  });
  const confirming = useMutation({
    mutationFn: (url: string) => api.POST('/api/admin/samples/corrections/{token}', { params: { path: { token: tokenOf(url) } } }),
  });
  const send = (file: File) => {
    setDropError(null);
    previewing.mutate(file);
  };

  return (
    <>
      <Section id={`${id}-send`} title="Corrections">
        <form
          aria-label="Corrections to preview"
          onSubmit={(e) => {
            e.preventDefault();
            send(new File([text], 'corrections.csv', { type: 'text/csv' }));
          }}
        >
          <div className="field">
            <label htmlFor={`${id}-text`}>Corrections, one field a row</label>
            <span className="muted hint" id={`${id}-hint`}>
              A header row <span className="mono">{HEADER}</span>, then one row per field to correct; cells copied from a spreadsheet work
              too. For example: <span className={`mono ${styles.example}`}>{EXAMPLE}</span>
            </span>
            <textarea
              id={`${id}-text`}
              className={styles.text}
              rows={8}
              spellCheck={false}
              value={text}
              aria-describedby={`${id}-hint`}
              onChange={(e) => setText(e.target.value)}
            />
          </div>
          <SubmitButton busy={previewing.isPending} busyLabel="Checking…">
            Preview the corrections
          </SubmitButton>
        </form>
        <DropZone
          options={{
            onDropAccepted: ([file]) => {
              if (file) send(file);
            },
            onDropRejected: () => setDropError('Drop one CSV file of corrections.'),
            multiple: false,
            disabled: previewing.isPending,
            accept: { 'text/csv': ['.csv'] },
          }}
          label="Preview corrections from a CSV file: drop it here or press to choose one"
          invalid={Boolean(dropError)}
          className={styles.drop}
          testId="corrections-dropzone"
          inputTestId="corrections-input"
          prompt="Or drag a CSV file of corrections here, or click to choose one"
        />
        <FormOutcome error={dropError ?? (previewing.isError ? previewing.error.message : null)} />
      </Section>

      {preview && (
        <Section id={`${id}-diff`} title="What would change">
          <p role="status">
            {plural(preview.rows.length, 'correction')} read:{' '}
            {preview.errors
              ? `${plural(preview.errors, 'error')} to fix before anything can be confirmed.`
              : preview.samples.length
                ? `${samplesWord(preview.samples.length)} would change.`
                : 'nothing would change.'}
          </p>
          <DataTable<CorrectionRow> caption="Each correction with its errors" table={rowsTable} rows={preview.rows} />
          {preview.samples.length > 0 && (
            <DataTable<CorrectedSample>
              caption="The samples that change, and what is sent to ENA"
              table={diffTable}
              rows={preview.samples}
            />
          )}
          {preview.confirm_url && !confirming.isSuccess && (
            <form
              aria-label="Confirm the corrections"
              onSubmit={(e) => {
                e.preventDefault();
                if (preview.confirm_url) confirming.mutate(preview.confirm_url);
              }}
            >
              <p className="muted">
                Confirming applies exactly this diff and sends it to ENA; it works for {CORRECTION_LINK_MINUTES} minutes, and not if the
                samples change meanwhile.
              </p>
              <SubmitButton busy={confirming.isPending} busyLabel="Confirming…">
                Confirm the corrections
              </SubmitButton>
            </form>
          )}
          <FormOutcome
            error={confirming.isError ? confirming.error.message : null}
            success={confirming.isSuccess ? confirmedWords(confirming.data) : null}
          />
          {confirming.isSuccess && <Link href="/submissions">Follow them on the Submissions page</Link>}
        </Section>
      )}
    </>
  );
}
