'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useCallback, useEffect, useState } from 'react';
import { useDropzone } from 'react-dropzone';
import { ApiError, apiFetch } from '@/lib/client/api';
import type { ProfileJson } from '@/components/profiles/types';
import { ReportView, type ReportJson } from './report-view';

const TOL = new Set(['asg', 'dtol', 'dtolenv', 'erga']);

/** Upload a manifest to a profile, follow its validation, read the errors, confirm. */
export function UploadPanel({ initialProfileId }: { initialProfileId?: string }) {
  const qc = useQueryClient();
  const profiles = useQuery({ queryKey: ['profiles'], queryFn: () => apiFetch<ProfileJson[]>('/api/profiles') });
  const tolProfiles = (profiles.data ?? []).filter((p) => TOL.has(p.type));
  const [profileId, setProfileId] = useState(initialProfileId ?? '');
  const [reportId, setReportId] = useState<string | null>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const selected = profileId || tolProfiles[0]?.id || '';

  const report = useQuery({
    queryKey: ['report', reportId],
    enabled: !!reportId,
    queryFn: () => apiFetch<ReportJson>(`/api/manifest/validate/report/${reportId}`),
    // follow the job until it ends
    refetchInterval: (q) => (q.state.data && ['complete', 'failed'].includes(q.state.data.status) ? false : 700),
  });

  const onDrop = useCallback(
    async (files: File[]) => {
      const file = files[0];
      if (!file || !selected) return;
      setUploading(true);
      setUploadError(null);
      setReportId(null);
      const fd = new FormData();
      fd.set('profile_id', selected);
      fd.set('file', file);
      try {
        const res = await apiFetch<{ report_id: string }>('/api/manifest/validate', { method: 'POST', body: fd });
        setReportId(res.report_id);
      } catch (err) {
        setUploadError(err instanceof ApiError ? err.message : String(err));
      } finally {
        setUploading(false);
      }
    },
    [selected],
  );
  const { getRootProps, getInputProps, isDragActive } = useDropzone({
    onDrop,
    multiple: false,
    disabled: !selected || uploading,
    accept: {
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['.xlsx'],
      'text/csv': ['.csv'],
    },
  });

  useEffect(() => {
    if (report.data?.confirmed_manifest_id) void qc.invalidateQueries({ queryKey: ['validations'] });
  }, [report.data?.confirmed_manifest_id, qc]);

  if (profiles.isPending) return <p aria-busy="true">Loading profiles…</p>;
  if (profiles.isError) return <p role="alert" className="notice error">Could not load profiles: {profiles.error.message}</p>;
  if (!tolProfiles.length) {
    return (
      <p className="notice">
        Manifests are uploaded to Tree of Life profiles (ASG, DTOL, DTOLENV, ERGA). <Link href="/profiles/new">Create one</Link> first.
      </p>
    );
  }
  const profile = tolProfiles.find((p) => p.id === selected);

  return (
    <section aria-labelledby="upload-heading">
      <h2 id="upload-heading">Upload a manifest</h2>
      <div className="inline">
        <label>
          Profile
          <select value={selected} onChange={(e) => setProfileId(e.target.value)}>
            {tolProfiles.map((p) => (
              <option key={p.id} value={p.id}>
                {p.title} ({p.type.toUpperCase()})
              </option>
            ))}
          </select>
        </label>
        {profile && (
          <a className="button" href={`/api/manifest/template?project=${profile.type}`} download>
            Download the blank {profile.type.toUpperCase()} template
          </a>
        )}
      </div>
      <div
        {...getRootProps({ className: 'dropzone', 'aria-label': 'Upload a manifest: drop an .xlsx or .csv file here or press to choose one' })}
        data-testid="manifest-dropzone"
        data-active={isDragActive}
      >
        <input {...getInputProps()} data-testid="manifest-input" />
        {uploading ? 'Uploading…' : isDragActive ? 'Drop the manifest to validate it' : 'Drag a manifest (.xlsx or .csv) here, or click to choose one'}
      </div>
      {uploadError && (
        <p role="alert" className="notice error">
          {uploadError}
        </p>
      )}
      {report.data && <ReportView report={report.data} onConfirmed={() => void report.refetch()} />}
    </section>
  );
}
