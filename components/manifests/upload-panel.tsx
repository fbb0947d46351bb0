'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useSearchParams } from 'next/navigation';
import { useState } from 'react';
import type { FileRejection } from 'react-dropzone';
import { SheetDrop } from '@/components/ui/sheet-drop';
import { api, formData } from '@/lib/client/api';
import { TOL_PROJECTS } from '@/lib/projects/lists';
import styles from './manifests.module.css';
import { PROFILES_KEY, PROFILES_LIMIT, profileKey } from './manifests-query';

const TOL = new Set<string>(TOL_PROJECTS);
/** Why a dropped file is refused, in the words of what to do instead. */
function refusal(rejections: FileRejection[]): string {
  if (rejections.length > 1) return 'Drop one manifest at a time: each file gets its own validation report.';
  const [r] = rejections;
  if (!r) return '';
  const name = r.file.name;
  if (/\.pdf$/i.test(name) || r.file.type === 'application/pdf') {
    return `${name} is a PDF, not a manifest: upload the manifest as an .xlsx or .csv file. Permit PDFs are uploaded on the report of an ERGA manifest that names them.`;
  }
  if (/\.xls$/i.test(name)) return `${name} is an old Excel (.xls) file: save it as .xlsx (Excel Workbook) and upload that.`;
  return `${name} is not a manifest: upload an .xlsx or .csv file.`;
}

/**
 * Upload a manifest to a Tree of Life profile; its validation report opens as a page of its own. With `profileId`
 * the profile is fixed (a profile's page, a report's corrected upload); otherwise the caller picks one of theirs.
 */
export function UploadPanel({ profileId }: { profileId?: string }) {
  const search = useSearchParams();
  // a page that names the profile asks for that one: every profile the caller may use, up to a thousand, was most of
  // what a profile's page fetched, for nothing
  const profiles = useQuery({
    queryKey: profileId ? profileKey(profileId) : PROFILES_KEY,
    queryFn: async () =>
      profileId
        ? [await api.GET('/api/profiles/{profile_id}', { params: { path: { profile_id: profileId } } })]
        : api.GET('/api/profiles', { params: { query: { limit: PROFILES_LIMIT } } }),
  });
  const tolProfiles = (profiles.data ?? []).filter((p) => TOL.has(p.type));
  const [picked, setPicked] = useState(search.get('profile') ?? '');
  const selected = profileId ?? (tolProfiles.some((p) => p.id === picked) ? picked : (tolProfiles[0]?.id ?? ''));
  const profile = tolProfiles.find((p) => p.id === selected);

  if (profiles.isPending) return <p aria-busy="true">Loading profiles…</p>;
  if (profiles.isError) {
    return (
      <p role="alert" className="notice error">
        Could not load profiles: {profiles.error.message}
      </p>
    );
  }
  if (!profile) {
    return profileId ? (
      <p className="notice">Manifests are uploaded to Tree of Life profiles (ASG, DTOL, DTOLENV, ERGA) you may use.</p>
    ) : (
      <p className="notice">
        Manifests are uploaded to Tree of Life profiles (ASG, DTOL, DTOLENV, ERGA). <Link href="/profiles/new">Create one</Link> first.
      </p>
    );
  }
  return (
    <div className={styles.upload}>
      <div className="inline">
        {profileId ? null : (
          <label>
            Profile
            <select value={selected} onChange={(e) => setPicked(e.target.value)}>
              {tolProfiles.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.title} ({p.type.toUpperCase()})
                </option>
              ))}
            </select>
          </label>
        )}
        <a className="button" href={`/api/manifest/template?project=${profile.type}`} download>
          Download the blank {profile.type.toUpperCase()} template
        </a>
      </div>
      <SheetDrop
        send={(file) => api.POST('/api/manifest/validate', { body: { profile_id: selected, file }, bodySerializer: formData })}
        refusal={refusal}
        disabled={!selected}
        label={`Upload a manifest to ${profile.title}: drop an .xlsx or .csv file here or press to choose one`}
        testId="manifest-dropzone"
        inputTestId="manifest-input"
        prompt="Drag a manifest (.xlsx or .csv) here, or click to choose one"
        dropPrompt="Drop the manifest to check it"
        errorClassName={styles.dropError}
      />
    </div>
  );
}
