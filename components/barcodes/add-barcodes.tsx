'use client';

import { useQuery } from '@tanstack/react-query';
import { useCallback, useId, useRef, useState } from 'react';
import type { FileRejection } from 'react-dropzone';
import { DropZone } from '@/components/ui/drop-zone';
import { BARCODE_CHECKLISTS } from '@/lib/barcodes/checklists';
import type { BarcodeChecklist } from '@/lib/barcodes/contract';
import { api } from '@/lib/client/api';
import { ENA_STUDY_ACCESSION, ENA_STUDY_ACCESSION_WORDS } from '@/lib/identifiers/patterns';
import { CHECKLIST_WORDS } from './barcode-table';
import styles from './barcodes.module.css';
import { UploadOutcome, type UploadState, uploadSheet } from './upload-outcome';

const SHEET_TYPES = { 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['.xlsx'] };
// ENA's names of the fields the service fills in when the sheet leaves them empty (docs/barcodes.md)
const DEFAULTED: Record<string, string> = {
  ENTRYNUMBER: 'the BOLD_ID when empty',
  ORGANISM_NAME: 'the specimen’s scientific name when empty',
};

function refusal(rejections: FileRejection[]): string {
  if (rejections.length > 1) return 'Drop one barcoding sheet at a time.';
  const name = rejections[0]?.file.name ?? 'The file';
  if (/\.xls$/i.test(name)) return `${name} is an old Excel (.xls) file: save it as .xlsx (Excel Workbook) and upload that.`;
  return `${name} is not a barcoding sheet: upload the filled sheet as .xlsx.`;
}

/** The barcoding sheet: which columns it needs, the checklist and study it goes to, and its upload with the outcome. */
export function AddBarcodes({ profileId, onStored }: { profileId: string; onStored: () => void }) {
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
    queryFn: () => api.GET('/api/sample/checklists/{checklist_id}', { params: { path: { checklist_id: checklist } } }),
    staleTime: 60 * 60 * 1000,
  });
  const mandatory = fields.data?.fields.filter((f) => f.requirement === 'mandatory').map((f) => f.name) ?? [];

  const onDrop = useCallback(
    async (file: File) => {
      const given = study.trim();
      if (given && !ENA_STUDY_ACCESSION.test(given)) {
        setStudyError(`${given} is not ${ENA_STUDY_ACCESSION_WORDS}.`);
        studyRef.current?.focus();
        return;
      }
      setStudyError(null);
      setDropError(null);
      setUpload({ state: 'uploading', file: file.name });
      let outcome: UploadState;
      try {
        outcome = await uploadSheet(profileId, file, checklist, given);
      } catch (err) {
        outcome = { state: 'failed', file: file.name, detail: err instanceof Error ? err.message : String(err) };
      }
      setUpload(outcome);
      if (outcome.state === 'saved') onStored();
    },
    [profileId, checklist, onStored, study],
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
