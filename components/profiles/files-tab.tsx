'use client';

import { useCallback, useMemo, useState } from 'react';
import { DataTable, type TableDefinition } from '@/components/ui/data-table';
import { DeleteAction, DeletedHere } from '@/components/ui/delete-action';
import { DropZone } from '@/components/ui/drop-zone';
import { usePagedList } from '@/components/ui/use-paged-list';
import { When } from '@/components/ui/when';
import { api, apiPage } from '@/lib/client/api';
import type { DataFile, UploadUrl } from '@/lib/files/contract';

const PAGE = 50;
// the list's page lives in the URL under its own name: the list shares its page with other tables
const OFFSET_PARAM = 'files';

interface Upload {
  name: string;
  loaded: number;
  total: number;
  state: 'uploading' | 'done' | 'failed';
  error?: string;
  /** kept so that a failed upload can be tried again */
  file: File;
}

const size = (n: number) =>
  n < 1024
    ? `${n} B`
    : n < 1024 ** 2
      ? `${(n / 1024).toFixed(1)} KiB`
      : n < 1024 ** 3
        ? `${(n / 1024 ** 2).toFixed(1)} MiB`
        : `${(n / 1024 ** 3).toFixed(2)} GiB`;

/** Our own signed upload URLs are sent to the page's origin, whatever host name the server believes it has. */
function uploadTarget(url: string): string {
  const u = new URL(url, window.location.href);
  return u.pathname.startsWith('/api/uploads/') ? u.pathname + u.search : u.toString();
}

function put(url: string, file: File, onProgress: (loaded: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', uploadTarget(url));
    xhr.upload.onprogress = (e) => onProgress(e.loaded);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) return resolve();
      let detail = `${xhr.status} ${xhr.statusText}`;
      try {
        detail = (JSON.parse(xhr.responseText) as { detail?: string }).detail ?? detail;
      } catch {
        // S3 answers XML: the status line will do
      }
      reject(new Error(detail));
    };
    xhr.onerror = () => reject(new Error('network error'));
    xhr.send(file);
  });
}

/** Why a listed file may not be deleted: a study names it (the service refuses, and says so, whatever else). */
const inUse = (f: DataFile) =>
  f.used_by?.length
    ? `Used by ${f.used_by.length === 1 ? 'study' : 'studies'} ${f.used_by.join(', ')}: change or delete the study first.`
    : null;

/** The profile's data files: drop to upload (each with its progress, a failed one retried), and the list of what is there. */
const fileTable = (profileId: string, onDeleted: (what: string) => void, contributes: boolean): TableDefinition<DataFile> => ({
  noun: 'files',
  rowKey: (f) => f.file_name,
  columns: [
    { id: 'file', header: 'File', key: true, cell: (f) => <span className="mono">{f.file_name}</span> },
    { id: 'size', header: 'Size', numeric: true, nowrap: true, cell: (f) => size(f.size_in_bytes) },
    { id: 'uploaded', header: 'Uploaded', cell: (f) => <When value={f.last_uploaded} /> },
    { id: 'etag', header: 'ETag', cell: (f) => <span className="mono muted">{f.S3_ETag}</span> },
    // a viewer may not delete: the column is not offered rather than refused
    ...(contributes ? [deleteColumn(profileId, onDeleted)] : []),
  ],
});

const deleteColumn = (profileId: string, onDeleted: (what: string) => void): TableDefinition<DataFile>['columns'][number] => ({
  id: 'delete',
  header: 'Delete',
  cell: (f) => (
    <DeleteAction
      noun="file"
      name={f.file_name}
      url={`/api/profiles/${profileId}/files/${f.file_name.split('/').map(encodeURIComponent).join('/')}`}
      refusal={inUse(f)}
      onDeleted={onDeleted}
    >
      File {f.file_name} ({size(f.size_in_bytes)}) will be deleted from this profile’s data files, and its stored bytes with it.
    </DeleteAction>
  ),
});

/** `contributes`: the caller may add to the profile; a viewer sees the list, without the upload or the delete. */
export function FilesTab({ profileId, contributes, embedded = false }: { profileId: string; contributes: boolean; embedded?: boolean }) {
  const files = usePagedList({
    key: ['profile-files', profileId],
    limit: PAGE,
    param: OFFSET_PARAM,
    fetch: (offset, limit) =>
      apiPage('/api/profiles/{profile_id}/files', { offset, limit }, { params: { path: { profile_id: profileId } } }),
  });
  const [uploads, setUploads] = useState<Upload[]>([]);
  // stable across renders, so onDrop is not rebuilt on each one
  const patch = useCallback(
    (name: string, change: Partial<Upload>) => setUploads((list) => list.map((u) => (u.name === name ? { ...u, ...change } : u))),
    [],
  );

  const onDrop = useCallback(
    async (accepted: File[]) => {
      if (!accepted.length) return;
      setUploads((list) => [
        ...list.filter((u) => !accepted.some((f) => f.name === u.name)),
        ...accepted.map((f) => ({ name: f.name, loaded: 0, total: f.size, state: 'uploading' as const, file: f })),
      ]);
      let urls: UploadUrl[];
      try {
        // declared sizes: each URL takes exactly its file, and a file over the limit is refused before it is sent
        urls = await api.POST('/api/profiles/{profile_id}/files/presignedurls', {
          params: { path: { profile_id: profileId } },
          body: { file_names: accepted.map((f) => f.name), file_sizes: accepted.map((f) => f.size) },
        });
      } catch (err) {
        for (const f of accepted) patch(f.name, { state: 'failed', error: (err as Error).message });
        return;
      }
      await Promise.all(
        accepted.map(async (file) => {
          const target = urls.find((u) => u.name === file.name);
          if (!target) return patch(file.name, { state: 'failed', error: 'no upload URL was issued' });
          try {
            await put(target.url, file, (loaded) => patch(file.name, { loaded }));
            patch(file.name, { state: 'done', loaded: file.size });
          } catch (err) {
            patch(file.name, { state: 'failed', error: (err as Error).message });
          }
        }),
      );
      files.refresh();
    },
    [patch, profileId, files.refresh],
  );

  const [deleted, setDeleted] = useState<string | null>(null);
  const onDeleted = useCallback(
    (what: string) => {
      setDeleted(what);
      files.refresh();
    },
    [files.refresh],
  );
  const table = useMemo(() => fileTable(profileId, onDeleted, contributes), [profileId, onDeleted, contributes]);

  const Heading = embedded ? 'h4' : 'h2';
  return (
    <section aria-labelledby="files-heading">
      <Heading id="files-heading" className={embedded ? 'visually-hidden' : undefined}>
        Data files
      </Heading>
      {contributes ? (
        <DropZone
          options={{ onDrop }}
          label="Upload files: drop them here or press to choose"
          testId="file-dropzone"
          inputTestId="file-input"
          prompt="Drag files here, or click to choose files to upload"
          dropPrompt="Drop the files to upload them"
        />
      ) : (
        <p className="muted">You may read this profile’s data files; its owner can make you a contributor to upload or delete them.</p>
      )}

      {uploads.length > 0 && (
        <ul aria-label="Uploads" style={{ listStyle: 'none', padding: 0 }}>
          {uploads.map((u) => (
            <li key={u.name} style={{ margin: '0.5rem 0' }}>
              <label>
                <span>
                  {u.name} —{' '}
                  {u.state === 'done' ? 'uploaded' : u.state === 'failed' ? `failed: ${u.error}` : `${size(u.loaded)} of ${size(u.total)}`}
                </span>
                <progress max={u.total || 1} value={u.state === 'done' ? u.total || 1 : u.loaded} />
              </label>
              {u.state === 'failed' && (
                <button type="button" onClick={() => void onDrop([u.file])}>
                  Try {u.name} again
                </button>
              )}
            </li>
          ))}
        </ul>
      )}

      <DeletedHere what={deleted} />
      <DataTable caption="Data files of this profile" table={table} {...files} empty="No files uploaded yet." />
    </section>
  );
}
