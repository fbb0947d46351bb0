import type { Metadata } from 'next';
import Link from 'next/link';
import { FilesTab } from '@/components/profiles/files-tab';
import { StudiesTab } from '@/components/studies/studies-tab';
import { loadProfilePage } from '@/lib/server/load-profile';

export const metadata: Metadata = { title: 'Profile' };

// single-cell and imaging studies belong to the non-Tree-of-Life profiles (the legacy genomics type included)
const STUDY_PROFILE_TYPES = new Set(['biodata', 'genomics']);

export default async function ProfilePage({ params }: { params: Promise<{ profileId: string }> }) {
  const { profileId } = await params;
  const { profile } = await loadProfilePage(profileId);
  return (
    <>
      <p>
        <Link href="/profiles">← Profiles</Link>
      </p>
      <div className="inline" style={{ justifyContent: 'space-between' }}>
        <h1>{profile.title}</h1>
        <Link className="button" href={`/profiles/${profile.id}/edit`}>
          Edit
        </Link>
      </div>
      <dl className="inline" style={{ gap: '0.25rem 1.5rem' }}>
        <div>
          <dt className="muted">Type</dt>
          <dd style={{ margin: 0 }}>
            <span className="badge">{profile.type.toUpperCase()}</span>
          </dd>
        </div>
        {profile.associated_type.length > 0 && (
          <div>
            <dt className="muted">Associated projects</dt>
            <dd style={{ margin: 0 }}>{profile.associated_type.join(', ')}</dd>
          </div>
        )}
        {profile.sequencing_centre.length > 0 && (
          <div>
            <dt className="muted">Sequencing centres</dt>
            <dd style={{ margin: 0 }}>{profile.sequencing_centre.join(', ')}</dd>
          </div>
        )}
        <div>
          <dt className="muted">Created</dt>
          <dd style={{ margin: 0 }}>{new Date(profile.date_created).toLocaleString()}</dd>
        </div>
        <div>
          <dt className="muted">Profile id</dt>
          <dd style={{ margin: 0 }} className="mono">
            {profile.id}
          </dd>
        </div>
      </dl>
      {profile.description && <p>{profile.description}</p>}
      <FilesTab profileId={profile.id} />
      {STUDY_PROFILE_TYPES.has(profile.type) && <StudiesTab profileId={profile.id} />}
    </>
  );
}
