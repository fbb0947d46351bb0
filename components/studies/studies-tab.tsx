'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { FilesTab } from '@/components/profiles/files-tab';
import { DataTable } from '@/components/ui/data-table';
import { DeletedHere } from '@/components/ui/delete-action';
import { DropZone } from '@/components/ui/drop-zone';
import { Section } from '@/components/ui/section';
import { plural } from '@/components/ui/words';
import type { SchemaName } from '@/lib/checklists/contract';
import { isSchemaName, SCHEMA_LABELS, SCHEMA_NAMES } from '@/lib/checklists/labels';
import { ApiError, api, apiAll, formData } from '@/lib/client/api';
import { type KeptUpload, reportFragment, reportFromFragment } from './report-url';
import { studyTable } from './study-table';
import { UploadReport } from './upload-report';

const SCHEMAS = SCHEMA_NAMES.map((name) => ({ name, label: SCHEMA_LABELS[name] }));
type UploadState =
  | { state: 'idle' }
  | { state: 'uploading'; file: string }
  | KeptUpload
  | { state: 'failed'; file: string; detail: string };

/** Sends the spreadsheet; a 422 carries the validation report, other failures a problem detail. */
async function uploadStudy(at: { profile_id: string; schema_name: string }, checklistId: string, file: File): Promise<UploadState> {
  try {
    const result = await api.POST('/api/profiles/{profile_id}/schema/{schema_name}/studies', {
      params: { path: at },
      body: { checklist_id: checklistId, file },
      bodySerializer: formData,
    });
    return { state: 'saved', file: file.name, result };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    // the report's schema is read only when a workbook is refused, so that zod is not part of the page's first load
    const report = err.status === 422 ? (await import('@/lib/studies/contract')).StudyUploadReportSchema.safeParse(err.problem) : null;
    // the API keeps the reference's sentence ('… the errors in the manifest'); the page says it in its own words
    if (report?.success) return { state: 'invalid', file: file.name, errors: report.data.errors, warnings: report.data.warnings };
    return { state: 'failed', file: file.name, detail: err.message };
  }
}

/**
 * `contributes`: the caller may add to the profile; a viewer reads its studies and gets the templates, uploads nothing.
 * `initialSchema`: the schema shown first (a Tree of Life profile describes its reads, assemblies and annotations).
 */
export function StudiesTab({
  profileId,
  contributes,
  initialSchema = 'svc_single_cell',
}: {
  profileId: string;
  contributes: boolean;
  initialSchema?: SchemaName;
}) {
  const qc = useQueryClient();
  const ids = { schema: useId(), checklist: useId() };
  const [schema, setSchema] = useState<SchemaName>(initialSchema);
  const [picked, setPicked] = useState<string | null>(null);
  const [upload, setUpload] = useState<UploadState>({ state: 'idle' });
  // each part of the path encoded: the schema may come from the page's address (report-url.ts)
  const base = `/api/profiles/${encodeURIComponent(profileId)}/schema/${encodeURIComponent(schema)}`;
  const where = useMemo(() => ({ profile_id: profileId, schema_name: schema }), [profileId, schema]);

  // the last upload's report is kept in the address (report-url.ts), so a reload shows it again
  const outcomeRef = useRef<HTMLDivElement>(null);
  const [restored, setRestored] = useState(false);
  useEffect(() => {
    void reportFromFragment(window.location.hash).then((kept) => {
      if (!kept) return;
      setSchema(kept.schema);
      if (kept.checklist) setPicked(kept.checklist);
      setUpload(kept.upload);
      setRestored(true);
    });
  }, []);
  // a report read back from the address is what the reader came for: bring it into view
  useEffect(() => {
    if (restored) outcomeRef.current?.scrollIntoView({ block: 'start' });
  }, [restored]);
  const keep = useCallback(async (shown: UploadState, inSchema: SchemaName, checklistId?: string) => {
    const { pathname, search } = window.location;
    const hash =
      shown.state === 'saved' || shown.state === 'invalid'
        ? `#${await reportFragment({ schema: inSchema, checklist: checklistId, upload: shown })}`
        : '';
    if (hash || window.location.hash.startsWith('#study-report='))
      window.history.replaceState(window.history.state, '', `${pathname}${search}${hash}`);
  }, []);

  const checklists = useQuery({
    queryKey: ['checklists', schema],
    queryFn: () => api.GET('/api/profiles/schema/{schema_name}/checklists', { params: { path: { schema_name: schema } } }),
    staleTime: Infinity,
  });
  const checklist = checklists.data?.find((c) => c.checklist_id === picked) ?? checklists.data?.[0];
  const studies = useQuery({
    queryKey: ['studies', profileId, schema],
    queryFn: () => apiAll('/api/profiles/{profile_id}/schema/{schema_name}/studies', { params: { path: where } }),
    // follow running submissions until the repository has answered
    refetchInterval: (q) => (q.state.data?.some((s) => s.status_ena === 'processing' || s.status_zenodo === 'processing') ? 1500 : false),
  });

  const onDrop = useCallback(
    async (accepted: File[]) => {
      const file = accepted[0];
      if (!file || !checklist) return;
      setUpload({ state: 'uploading', file: file.name });
      let outcome: UploadState;
      try {
        outcome = await uploadStudy(where, checklist.checklist_id, file);
      } catch (err) {
        outcome = { state: 'failed', file: file.name, detail: (err as Error).message };
      }
      setUpload(outcome);
      void keep(outcome, schema, checklist.checklist_id);
      // the profile's reads, assemblies and annotations (components/studies/sequence-data.tsx) come from its studies too
      void qc.invalidateQueries({ queryKey: ['studies', profileId] });
    },
    [where, checklist, keep, profileId, qc, schema],
  );
  const schemaLabel = SCHEMAS.find((s) => s.name === schema)?.label ?? schema;
  const [deleted, setDeleted] = useState<string | null>(null);
  const onDeleted = useCallback(
    (what: string) => {
      setDeleted(what);
      // its files may be free to delete now: the files list says which studies use each
      void qc.invalidateQueries({ queryKey: ['studies', profileId] });
      void qc.invalidateQueries({ queryKey: ['profile-files', profileId] });
    },
    [profileId, qc],
  );

  return (
    <Section id="studies" anchor title="Studies">
      {!contributes && (
        <p className="notice">
          The profile is shared with you as a viewer: you can read its studies and download templates; its owner can make you a contributor
          to upload.
        </p>
      )}
      <ol className="steps">
        <li>Pick the schema and checklist of your study and download its template.</li>
        <li>Upload the data files the study describes (reads, images, matrices).</li>
        <li>Fill in the template (its third row shows an example of every column) and drop it below.</li>
        <li>Submit the study to ENA or Zenodo, follow each file as it is sent, then release or publish it.</li>
      </ol>
      <h3>1. Template</h3>
      <div className="inline">
        <label htmlFor={ids.schema}>
          Schema
          <select
            id={ids.schema}
            value={schema}
            onChange={(e) => {
              const picked = e.target.value;
              if (!isSchemaName(picked)) return;
              setSchema(picked);
              setPicked(null);
              setUpload({ state: 'idle' });
              void keep({ state: 'idle' }, picked);
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

      <h3>2. Data files</h3>
      <FilesTab profileId={profileId} contributes={contributes} embedded />

      <h3>3. Study spreadsheet</h3>
      <p className="muted">
        BioSample accessions must name samples of this profile or samples that ENA holds, with the same taxon and scientific name.
      </p>
      {contributes ? (
        <DropZone
          options={{ onDrop, multiple: false, disabled: !checklist }}
          label="Upload a study spreadsheet: drop it here or press to choose"
          testId="study-dropzone"
          inputTestId="study-file-input"
          prompt={`Drag a filled ${checklist ? `${checklist.name} ` : ''}spreadsheet (.xlsx) here, or click to choose one`}
          dropPrompt="Drop the spreadsheet to upload it"
        />
      ) : (
        <p className="muted">A contributor uploads the study spreadsheet; as a viewer you may download its template above.</p>
      )}

      <div ref={outcomeRef}>
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
            {upload.result.warnings.length > 0 && <UploadReport caption={`Warnings for ${upload.file}`} entries={upload.result.warnings} />}
          </div>
        )}
        {upload.state === 'invalid' && (
          <div role="alert" className="notice error">
            <p style={{ marginTop: 0 }}>
              {upload.file} was not saved: the study spreadsheet has {plural(upload.errors.length, 'problem')}, listed below. Correct them
              in the spreadsheet and upload it again.
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
      </div>

      <h3>4. Submit and publish</h3>
      <DeletedHere what={deleted} />
      <DataTable
        caption="Studies of this profile"
        table={studyTable(where, onDeleted)}
        rows={studies.data}
        query={studies}
        empty={`No ${schemaLabel} studies yet.`}
      />
    </Section>
  );
}
