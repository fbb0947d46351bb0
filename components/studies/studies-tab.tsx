'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useId, useState } from 'react';
import { useDropzone } from 'react-dropzone';
import { apiFetch } from '@/lib/client/api';
import { RepositoryActions } from './repository-actions';
import { UploadReport, type ReportEntry } from './upload-report';

const SCHEMAS = [
  { name: 'svc_single_cell', label: 'Single-cell RNA-seq' },
  { name: 'svc_image_rembi', label: 'Images (REMBI)' },
  { name: 'svc_image_stx_fish', label: 'Spatial transcriptomics (FISH images)' },
] as const;
const REPOSITORIES = [
  { key: 'ena', label: 'ENA' },
  { key: 'zenodo', label: 'Zenodo' },
] as const;

interface Checklist {
  checklist_id: string;
  name: string;
  description: string;
  standard: string;
  technology: string;
}

type Study = Record<string, unknown> & {
  study_id: string;
  checklist_id: string;
  date_modified: string;
};

interface Saved {
  study_id: string;
  created: boolean;
  changed: boolean;
  warnings: ReportEntry[];
}

type UploadState =
  | { state: 'idle' }
  | { state: 'uploading'; file: string }
  | { state: 'saved'; file: string; result: Saved }
  | { state: 'invalid'; file: string; detail: string; errors: ReportEntry[]; warnings: ReportEntry[] }
  | { state: 'failed'; file: string; detail: string };

const text = (v: unknown) => (typeof v === 'string' ? v : '');

/** Sends the spreadsheet; a 422 carries the validation report, other failures a problem detail. */
async function uploadStudy(url: string, checklistId: string, file: File): Promise<UploadState> {
  const form = new FormData();
  form.set('checklist_id', checklistId);
  form.set('file', file);
  const res = await fetch(url, { method: 'POST', body: form, credentials: 'same-origin', headers: { accept: 'application/json' } });
  let body: Record<string, unknown> = {};
  try {
    body = (await res.json()) as Record<string, unknown>;
  } catch {
    // not JSON: the status line will do
  }
  if (res.ok) return { state: 'saved', file: file.name, result: body as unknown as Saved };
  const detail = text(body.detail) || `${res.status} ${res.statusText}`;
  if (res.status === 422 && Array.isArray(body.errors)) {
    return {
      state: 'invalid',
      file: file.name,
      detail,
      errors: body.errors as ReportEntry[],
      warnings: Array.isArray(body.warnings) ? (body.warnings as ReportEntry[]) : [],
    };
  }
  return { state: 'failed', file: file.name, detail };
}

export function StudiesTab({ profileId }: { profileId: string }) {
  const qc = useQueryClient();
  const ids = { schema: useId(), checklist: useId() };
  const [schema, setSchema] = useState<string>(SCHEMAS[0].name);
  const [picked, setPicked] = useState<string | null>(null);
  const [upload, setUpload] = useState<UploadState>({ state: 'idle' });
  const base = `/api/profiles/${profileId}/schema/${schema}`;

  const checklists = useQuery({
    queryKey: ['checklists', schema],
    queryFn: () => apiFetch<Checklist[]>(`/api/profiles/schema/${schema}/checklists`),
    staleTime: Infinity,
  });
  const checklist = checklists.data?.find((c) => c.checklist_id === picked) ?? checklists.data?.[0];
  const studies = useQuery({
    queryKey: ['studies', profileId, schema],
    queryFn: () => apiFetch<Study[]>(`${base}/studies`),
    // follow running submissions until the repository has answered
    refetchInterval: (q) =>
      q.state.data?.some((s) => s.status_ena === 'processing' || s.status_zenodo === 'processing') ? 1500 : false,
  });

  const onDrop = useCallback(
    async (accepted: File[]) => {
      const file = accepted[0];
      if (!file || !checklist) return;
      setUpload({ state: 'uploading', file: file.name });
      try {
        setUpload(await uploadStudy(`${base}/studies`, checklist.checklist_id, file));
      } catch (err) {
        setUpload({ state: 'failed', file: file.name, detail: (err as Error).message });
      }
      void qc.invalidateQueries({ queryKey: ['studies', profileId, schema] });
    },
    [base, checklist, profileId, qc, schema],
  );
  const { getRootProps, getInputProps, isDragActive } = useDropzone({ onDrop, multiple: false, disabled: !checklist });
  const schemaLabel = SCHEMAS.find((s) => s.name === schema)?.label ?? schema;

  return (
    <section aria-labelledby="studies-heading">
      <h2 id="studies-heading">Studies</h2>
      <p className="muted">
        Describe a single-cell or imaging study in a spreadsheet: download the template of a checklist, fill it in,
        and drop it here. Biosample accessions must belong to samples of this profile.
      </p>
      <div className="inline">
        <label htmlFor={ids.schema}>
          Schema
          <select
            id={ids.schema}
            value={schema}
            onChange={(e) => {
              setSchema(e.target.value);
              setPicked(null);
              setUpload({ state: 'idle' });
            }}
          >
            {SCHEMAS.map((s) => (
              <option key={s.name} value={s.name}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        <label htmlFor={ids.checklist}>
          Checklist
          <select
            id={ids.checklist}
            value={checklist?.checklist_id ?? ''}
            disabled={!checklists.data}
            onChange={(e) => setPicked(e.target.value)}
          >
            {checklists.data?.map((c) => (
              <option key={c.checklist_id} value={c.checklist_id}>
                {c.name} ({c.checklist_id})
              </option>
            ))}
          </select>
        </label>
        {checklist && (
          <a className="button" href={`${base}/template?checklist_id=${encodeURIComponent(checklist.checklist_id)}`} download>
            Download template
          </a>
        )}
      </div>
      {checklists.isError && (
        <p role="alert" className="notice error">
          Could not load the checklists: {checklists.error.message}
        </p>
      )}
      {checklist?.description && <p className="muted">{checklist.description}</p>}

      <div
        {...getRootProps({
          className: 'dropzone',
          'aria-label': 'Upload a study spreadsheet: drop it here or press to choose',
        })}
        data-testid="study-dropzone"
        data-active={isDragActive}
        data-disabled={!checklist}
      >
        <input {...getInputProps()} data-testid="study-file-input" />
        {isDragActive
          ? 'Drop the spreadsheet to upload it'
          : `Drag a filled ${checklist ? `${checklist.name} ` : ''}spreadsheet (.xlsx) here, or click to choose one`}
      </div>

      {upload.state === 'uploading' && (
        <p role="status" aria-busy="true">
          Checking {upload.file}…
        </p>
      )}
      {upload.state === 'saved' && (
        <div role="status" className="notice success">
          <p style={{ margin: 0 }}>
            Study <strong>{upload.result.study_id}</strong>{' '}
            {upload.result.created ? 'created' : upload.result.changed ? 'updated' : 'unchanged'} from {upload.file}.
          </p>
          {upload.result.warnings.length > 0 && (
            <UploadReport caption={`Warnings for ${upload.file}`} entries={upload.result.warnings} />
          )}
        </div>
      )}
      {upload.state === 'invalid' && (
        <div role="alert" className="notice error">
          <p style={{ marginTop: 0 }}>
            {upload.file} was not saved: {upload.detail}
          </p>
          <UploadReport caption={`Problems found in ${upload.file}`} entries={upload.errors} />
          {upload.warnings.length > 0 && <UploadReport caption={`Warnings for ${upload.file}`} entries={upload.warnings} />}
        </div>
      )}
      {upload.state === 'failed' && (
        <p role="alert" className="notice error">
          {upload.file} was not saved: {upload.detail}
        </p>
      )}

      {studies.isPending && <p aria-busy="true">Loading studies…</p>}
      {studies.isError && (
        <p role="alert" className="notice error">
          Could not list studies: {studies.error.message}
        </p>
      )}
      {studies.data && studies.data.length === 0 && <p className="muted">No {schemaLabel} studies yet.</p>}
      {studies.data && studies.data.length > 0 && (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Studies of this profile</caption>
            <thead>
              <tr>
                <th scope="col">Study</th>
                <th scope="col">Title</th>
                <th scope="col">Checklist</th>
                {REPOSITORIES.map((r) => (
                  <th scope="col" key={r.key}>
                    {r.label}
                  </th>
                ))}
                <th scope="col">Updated</th>
                <th scope="col">Export</th>
              </tr>
            </thead>
            <tbody>
              {studies.data.map((s) => (
                <StudyRow key={s.study_id} study={s} base={base} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function StudyRow({ study, base }: { study: Study; base: string }) {
  const href = `${base}/studies/${encodeURIComponent(study.study_id)}`;
  return (
    <tr>
      <th scope="row" className="mono">
        {study.study_id}
      </th>
      <td>{text(study.title) || text(study.project_name)}</td>
      <td className="mono">{study.checklist_id}</td>
      {REPOSITORIES.map((r) => {
        const status = text(study[`status_${r.key}`]);
        const accession = text(study[`accession_${r.key}`]);
        const error = text(study[`error_${r.key}`]);
        if (!status) return <td key={r.key} className="muted">not submitted there</td>;
        return (
          <td key={r.key}>
            <span className={`badge${status === 'accepted' || status === 'published' ? ' ok' : status === 'rejected' ? ' danger' : ''}`}>
              {status}
            </span>
            {error && <span className="field-error"> {error}</span>}
            <RepositoryActions
              href={href}
              studyId={study.study_id}
              repository={r.key}
              label={r.label}
              status={status}
              accession={accession}
              state={text(study[`state_${r.key}`])}
            />
          </td>
        );
      })}
      <td>{new Date(study.date_modified).toLocaleString()}</td>
      <td>
        <span className="inline" style={{ gap: '0.5rem' }}>
          <a href={href} download aria-label={`Download ${study.study_id} as xlsx`}>
            xlsx
          </a>
          <a href={`${href}?return_type=jsonld`} download aria-label={`Download ${study.study_id} as JSON-LD`}>
            JSON-LD
          </a>
        </span>
      </td>
    </tr>
  );
}
