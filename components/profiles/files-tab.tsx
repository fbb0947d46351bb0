'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useDropzone } from 'react-dropzone';
import { apiFetch } from '@/lib/client/api';

interface DataFile {
  file_name: string;
  size_in_bytes: number;
  last_uploaded: string;
  S3_ETag: string;
}
interface UploadUrl {
  name: string;
  url: string;
  method: 'PUT';
}
interface Upload {
  name: string;
  loaded: number;
  total: number;
  state: 'uploading' | 'done' | 'failed';
  error?: string;
}

const size = (n: number) =>
  n < 1024 ? `${n} B` : n < 1024 ** 2 ? `${(n / 1024).toFixed(1)} KiB` : n < 1024 ** 3 ? `${(n / 1024 ** 2).toFixed(1)} MiB` : `${(n / 1024 ** 3).toFixed(2)} GiB`;

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

export function FilesTab({ profileId }: { profileId: string }) {
  const qc = useQueryClient();
  const files = useQuery({
    queryKey: ['profile-files', profileId],
    queryFn: () => apiFetch<DataFile[]>(`/api/profiles/${profileId}/files`),
  });
  const [uploads, setUploads] = useState<Upload[]>([]);
  const patch = (name: string, change: Partial<Upload>) =>
    setUploads((list) => list.map((u) => (u.name === name ? { ...u, ...change } : u)));

  const onDrop = useCallback(
    async (accepted: File[]) => {
      if (!accepted.length) return;
      setUploads((list) => [
        ...list.filter((u) => !accepted.some((f) => f.name === u.name)),
        ...accepted.map((f) => ({ name: f.name, loaded: 0, total: f.size, state: 'uploading' as const })),
      ]);
      let urls: UploadUrl[];
      try {
        urls = await apiFetch<UploadUrl[]>(`/api/profiles/${profileId}/files/presignedurls`, {
          method: 'POST',
          json: { file_names: accepted.map((f) => f.name) },
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
      void qc.invalidateQueries({ queryKey: ['profile-files', profileId] });
    },
    [profileId, qc],
  );
  const { getRootProps, getInputProps, isDragActive } = useDropzone({ onDrop });

  return (
    <section aria-labelledby="files-heading">
      <h2 id="files-heading">Data files</h2>
      <div
        {...getRootProps({
          className: 'dropzone',
          'aria-label': 'Upload files: drop them here or press to choose',
        })}
        data-testid="file-dropzone"
        data-active={isDragActive}
      >
        <input {...getInputProps()} data-testid="file-input" />
        {isDragActive ? 'Drop the files to upload them' : 'Drag files here, or click to choose files to upload'}
      </div>

      {uploads.length > 0 && (
        <ul aria-label="Uploads" style={{ listStyle: 'none', padding: 0 }}>
          {uploads.map((u) => (
            <li key={u.name} style={{ margin: '0.5rem 0' }}>
              <label>
                <span>
                  {u.name} — {u.state === 'done' ? 'uploaded' : u.state === 'failed' ? `failed: ${u.error}` : `${size(u.loaded)} of ${size(u.total)}`}
                </span>
                <progress max={u.total || 1} value={u.state === 'done' ? u.total || 1 : u.loaded} />
              </label>
            </li>
          ))}
        </ul>
      )}

      {files.isPending && <p aria-busy="true">Loading files…</p>}
      {files.isError && (
        <p role="alert" className="notice error">
          Could not list files: {files.error.message}
        </p>
      )}
      {files.data && files.data.length === 0 && <p className="muted">No files uploaded yet.</p>}
      {files.data && files.data.length > 0 && (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Data files of this profile</caption>
            <thead>
              <tr>
                <th scope="col">File</th>
                <th scope="col">Size</th>
                <th scope="col">Uploaded</th>
                <th scope="col">ETag</th>
              </tr>
            </thead>
            <tbody>
              {files.data.map((f) => (
                <tr key={f.file_name}>
                  <td className="mono">{f.file_name}</td>
                  <td>{size(f.size_in_bytes)}</td>
                  <td>{new Date(f.last_uploaded).toLocaleString()}</td>
                  <td className="mono muted">{f.S3_ETag}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
