'use client';

import { useMutation, useQuery } from '@tanstack/react-query';
import { useCallback, useId, useRef, useState } from 'react';
import type { FileRejection } from 'react-dropzone';
import { Accession } from '@/components/samples/sample-state';
import { SentStateWords } from '@/components/submissions/sent-state';
import { foundPages } from '@/components/ui/api-pages';
import { DataTable, type TableDefinition } from '@/components/ui/data-table';
import { DropZone } from '@/components/ui/drop-zone';
import { MutationOutcome } from '@/components/ui/mutation-outcome';
import { Section } from '@/components/ui/section';
import { usePagedList } from '@/components/ui/use-paged-list';
import { When } from '@/components/ui/when';
import { plural } from '@/components/ui/words';
import {
  BARCODE_CHECKLISTS,
  type Barcode,
  type BarcodeChecklist,
  type BarcodeIssue,
  type BarcodeSubmitAnswer,
  type BarcodeUploadAnswer,
  StudyAccessionSchema,
} from '@/lib/barcodes/contract';
import { apiFetch } from '@/lib/client/api';
import type { ChecklistDetail } from '@/lib/sample-checklists/contract';
import styles from './barcodes.module.css';

/**
 * A Tree of Life profile's DNA barcodes (lib/barcodes): the list with where each stands at ENA, and for who may add to
 * the profile the barcoding sheet's upload (checked in the request: its problems are shown here, cell by cell) and
 * "Send to ENA". ENA takes barcodes only through Webin-CLI, which the service runs; the list follows them meanwhile.
 */

const PAGE = 50;
// the list's page lives in the URL under its own name: the profile's page holds other paged lists
const OFFSET_PARAM = 'barcodes';
const SHEET_TYPES = { 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['.xlsx'] };

const CHECKLIST_WORDS: Record<BarcodeChecklist, string> = { ERT000020: 'COI barcodes', ERT000002: 'rRNA genes' };
// ENA's names of the fields the service fills in when the sheet leaves them empty (docs/barcodes.md)
const DEFAULTED: Record<string, string> = {
  ENTRYNUMBER: 'the BOLD_ID when empty',
  ORGANISM_NAME: 'the specimen’s scientific name when empty',
};

const running = (b: Barcode) => b.status === 'processing';

const barcodeTable: TableDefinition<Barcode> = {
  noun: 'barcodes',
  rowKey: (b) => b.id,
  columns: [
    { id: 'entry', header: 'Entry', key: true, nowrap: true, cell: (b) => <span className="mono">{b.entry_number}</span> },
    { id: 'specimen', header: 'Specimen', cell: (b) => <span className="mono">{b.specimen_id}</span> },
    {
      id: 'checklist',
      header: 'Checklist',
      cell: (b) => (
        <>
          {CHECKLIST_WORDS[b.checklist_id]} <span className="mono muted">{b.checklist_id}</span>
        </>
      ),
    },
    {
      id: 'study',
      header: 'Study',
      cell: (b) => (b.study_accession ? <Accession value={b.study_accession} /> : <span className="muted">—</span>),
    },
    { id: 'state', header: 'State', cell: (b) => <SentStateWords state={b.status} detail={b.error} /> },
    {
      id: 'accession',
      header: 'Accession',
      cell: (b) => (b.accession ? <Accession value={b.accession} /> : <span className="muted">—</span>),
    },
    { id: 'updated', header: 'Updated', cell: (b) => <When value={b.time_updated} /> },
  ],
};

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
      {value.slice(0, 60)}… <span className="muted">({value.length.toLocaleString('en-GB')} characters)</span>
    </span>
  );
}

type NumberedIssue = BarcodeIssue & { n: number };

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

type UploadState =
  | { state: 'idle' }
  | { state: 'uploading'; file: string }
  | { state: 'saved'; file: string; answer: BarcodeUploadAnswer }
  | { state: 'invalid'; file: string; detail: string; errors: NumberedIssue[] }
  | { state: 'failed'; file: string; detail: string };

/** Sends the sheet; a 422 carries every problem of it, other failures a problem detail. */
async function uploadSheet(url: string, file: File, checklist: BarcodeChecklist, study: string): Promise<UploadState> {
  const form = new FormData();
  form.set('file', file);
  form.set('checklist', checklist);
  if (study) form.set('study_accession', study);
  const res = await fetch(url, { method: 'POST', body: form, credentials: 'same-origin', headers: { accept: 'application/json' } });
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    // not JSON: the status line will do
  }
  if (res.ok) return { state: 'saved', file: file.name, answer: body as BarcodeUploadAnswer };
  const problem = (body ?? {}) as { detail?: string; errors?: BarcodeIssue[] };
  const detail = problem.detail || `${res.status} ${res.statusText}`;
  if (res.status === 422 && problem.errors?.length) {
    return { state: 'invalid', file: file.name, detail, errors: problem.errors.map((e, n) => ({ ...e, n })) };
  }
  return { state: 'failed', file: file.name, detail };
}

function refusal(rejections: FileRejection[]): string {
  if (rejections.length > 1) return 'Drop one barcoding sheet at a time.';
  const name = rejections[0]?.file.name ?? 'The file';
  if (/\.xls$/i.test(name)) return `${name} is an old Excel (.xls) file: save it as .xlsx (Excel Workbook) and upload that.`;
  return `${name} is not a barcoding sheet: upload the filled sheet as .xlsx.`;
}

function submittedWords(a: BarcodeSubmitAnswer): string {
  const sent = a.submissions.reduce((n, s) => n + s.barcodes, 0);
  if (sent)
    return `${plural(sent, 'barcode')} on the way to ENA, in ${plural(a.submissions.length, 'submission')}; this list follows them.`;
  if (a.waiting) return `${plural(a.waiting, 'barcode')} waiting for ENA${a.detail ? `: ${a.detail}` : '.'}`;
  return 'No barcode was waiting to be sent.';
}

/** `contributes`: the caller may add to the profile; a viewer sees the list only. */
export function BarcodesSection({ profileId, contributes }: { profileId: string; contributes: boolean }) {
  const base = `/api/profiles/${encodeURIComponent(profileId)}/barcodes`;
  const list = usePagedList({
    key: ['barcodes', profileId],
    limit: PAGE,
    param: OFFSET_PARAM,
    fetch: foundPages<{ number_found: number; data: Barcode[] }>(base),
    // a submission ends by itself: follow it until Webin-CLI has answered
    refetchInterval: (page) => (page?.rows.some(running) ? 3000 : false),
  });
  const send = useMutation({
    mutationFn: () => apiFetch<BarcodeSubmitAnswer>(`${base}/action/submit`, { method: 'POST' }),
    onSettled: () => list.refresh(),
  });
  const any = list.page.total > 0;

  return (
    <Section id="barcodes" anchor title="Barcodes">
      <p>
        DNA barcodes of the profile’s specimens (COI barcodes, rRNA genes), sent to ENA as annotated sequences, each with where it stands.
      </p>
      <DataTable
        caption="DNA barcodes of this profile, newest first"
        table={barcodeTable}
        {...list}
        empty={contributes ? 'No barcodes yet: add the barcoding sheet below.' : 'No barcodes yet.'}
      />
      {contributes && any && (
        <div className={styles.send}>
          <button type="button" className="primary" disabled={send.isPending} onClick={() => send.mutate()}>
            {send.isPending ? 'Sending…' : 'Send to ENA'}
          </button>
          <span className="muted">Sends the barcodes not yet at ENA, and those it rejected, once they are corrected.</span>
        </div>
      )}
      {contributes && <MutationOutcome mutation={send} done={submittedWords} failed={(message) => `Nothing was sent: ${message}`} />}
      {contributes ? (
        <AddBarcodes base={base} onStored={list.refresh} />
      ) : (
        <p className="muted">The profile is shared with you as a viewer: its owner can make you a contributor to add barcodes.</p>
      )}
    </Section>
  );
}

/** The barcoding sheet: which columns it needs, the checklist and study it goes to, and its upload with the outcome. */
function AddBarcodes({ base, onStored }: { base: string; onStored: () => void }) {
  const id = useId();
  const ids = { checklist: `${id}-checklist`, study: `${id}-study`, hint: `${id}-study-hint`, studyError: `${id}-study-error` };
  const [checklist, setChecklist] = useState<BarcodeChecklist>('ERT000020');
  const [study, setStudy] = useState('');
  const [studyError, setStudyError] = useState<string | null>(null);
  const [dropError, setDropError] = useState<string | null>(null);
  const [upload, setUpload] = useState<UploadState>({ state: 'idle' });
  const studyRef = useRef<HTMLInputElement>(null);
  const fields = useQuery({
    queryKey: ['sample-checklist', checklist],
    queryFn: () => apiFetch<ChecklistDetail>(`/api/sample/checklists/${checklist}`),
    staleTime: 60 * 60 * 1000,
  });
  const mandatory = fields.data?.fields.filter((f) => f.requirement === 'mandatory').map((f) => f.name) ?? [];

  const onDrop = useCallback(
    async (file: File) => {
      const given = study.trim();
      const checked = given ? StudyAccessionSchema.safeParse(given) : null;
      if (checked && !checked.success) {
        setStudyError(`${given} is not ${checked.error.issues[0]?.message ?? 'an ENA study accession'}.`);
        studyRef.current?.focus();
        return;
      }
      setStudyError(null);
      setDropError(null);
      setUpload({ state: 'uploading', file: file.name });
      let outcome: UploadState;
      try {
        outcome = await uploadSheet(base, file, checklist, given);
      } catch (err) {
        outcome = { state: 'failed', file: file.name, detail: err instanceof Error ? err.message : String(err) };
      }
      setUpload(outcome);
      if (outcome.state === 'saved') onStored();
    },
    [base, checklist, onStored, study],
  );

  return (
    <>
      <h3>Add barcodes</h3>
      <ol className="steps">
        <li>
          Start from the ToL barcoding sheet: on its first sheet, row 1 heads the columns <span className="mono">SPECIMEN_ID</span> and{' '}
          <span className="mono">BOLD_ID</span>, then the checklist’s fields by their ENA names, <span className="mono">SEQUENCE</span>{' '}
          among them, and optionally <span className="mono">STUDY</span>. One barcode a row.
        </li>
        <li>
          Each <span className="mono">SPECIMEN_ID</span> (or ToLID) names a specimen of this profile’s samples.
        </li>
        <li>
          Pick the checklist, give the ENA study unless the sheet has a STUDY column, and drop the sheet below: it is checked at once.
        </li>
        <li>Then send the barcodes to ENA with “Send to ENA” above.</li>
      </ol>
      <div className={styles.fields}>
        <div className="field">
          <label htmlFor={ids.checklist}>Checklist</label>
          <select id={ids.checklist} value={checklist} onChange={(e) => setChecklist(e.target.value as BarcodeChecklist)}>
            {BARCODE_CHECKLISTS.map((c) => (
              <option key={c} value={c}>
                {CHECKLIST_WORDS[c]} ({c})
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.study}>ENA study accession</label>
          <span className="muted hint" id={ids.hint}>
            PRJEB… or ERP…; not needed when the sheet has a STUDY column
          </span>
          <input
            ref={studyRef}
            id={ids.study}
            type="text"
            value={study}
            onChange={(e) => setStudy(e.target.value)}
            spellCheck={false}
            autoComplete="off"
            aria-invalid={studyError ? true : undefined}
            aria-describedby={studyError ? `${ids.hint} ${ids.studyError}` : ids.hint}
          />
          {studyError && (
            <span className="field-error" id={ids.studyError} role="alert">
              {studyError}
            </span>
          )}
        </div>
      </div>
      <p className={styles.columns}>
        {fields.isError ? (
          <span className="muted">
            The checklist’s fields could not be read ({fields.error.message}): ENA’s page of {checklist} lists them.
          </span>
        ) : !fields.data ? (
          <span className="muted">Reading the fields of {checklist}…</span>
        ) : (
          <>
            Mandatory columns of {checklist}:{' '}
            {mandatory.map((name, i) => (
              <span key={name}>
                {i > 0 && ', '}
                <span className="mono">{name}</span>
                {DEFAULTED[name] && <span className="muted"> ({DEFAULTED[name]})</span>}
              </span>
            ))}
            . Any other of its {fields.data.fields.length} fields may be added as a column.
          </>
        )}
      </p>
      <DropZone
        options={{
          onDropAccepted: ([file]) => {
            if (file) void onDrop(file);
          },
          onDropRejected: (rejections) => {
            setUpload({ state: 'idle' });
            setDropError(refusal(rejections));
          },
          multiple: false,
          disabled: upload.state === 'uploading',
          accept: SHEET_TYPES,
        }}
        label={`Upload a barcoding sheet of checklist ${checklist}: drop an .xlsx file here or press to choose one`}
        describedBy={dropError ? `${id}-drop-error` : undefined}
        invalid={Boolean(dropError)}
        testId="barcode-dropzone"
        inputTestId="barcode-input"
        prompt={
          upload.state === 'uploading' ? `Checking ${upload.file}…` : 'Drag the filled barcoding sheet (.xlsx) here, or click to choose it'
        }
        dropPrompt="Drop the sheet to check it"
      />
      {dropError && (
        <p id={`${id}-drop-error`} role="alert" className="notice error">
          {dropError}
        </p>
      )}
      <UploadOutcome upload={upload} />
    </>
  );
}

function UploadOutcome({ upload }: { upload: UploadState }) {
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
