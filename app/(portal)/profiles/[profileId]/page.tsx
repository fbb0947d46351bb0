import type { Metadata } from 'next';
import Link from 'next/link';
import { ProfileHub } from '@/components/profiles/profile-hub';
import styles from '@/components/profiles/profile-hub.module.css';
import { StudiesTab } from '@/components/studies/studies-tab';
import { When } from '@/components/ui/when';
import { ASSOCIATED_TYPES, profileTypeInfo, SEQUENCING_CENTRES } from '@/lib/profiles/enums';
import { isTolProject } from '@/lib/projects/contract';
import { loadProfilePage } from '@/lib/server/load-profile';

export const metadata: Metadata = { title: 'Profile' };

const labelOf = (list: readonly { name: string; label: string }[], name: string) => list.find((x) => x.name === name)?.label ?? name;

export default async function ProfilePage({ params }: { params: Promise<{ profileId: string }> }) {
  const { profileId } = await params;
  const { profile } = await loadProfilePage(profileId);
  return (
    <>
      <p>
        <Link href="/profiles">← Profiles</Link>
      </p>
      <div className={styles.head}>
        <h1>{profile.title}</h1>
        <Link className="button" href={`/profiles/${profile.id}/edit`}>
          Edit
        </Link>
      </div>
      <dl className={styles.facts}>
        <div>
          <dt className="muted">Type</dt>
          <dd>{profileTypeInfo(profile.type).label}</dd>
        </div>
        {profile.associated_type.length > 0 && (
          <div>
            <dt className="muted">Associated projects</dt>
            <dd>{profile.associated_type.map((a) => labelOf(ASSOCIATED_TYPES, a)).join(', ')}</dd>
          </div>
        )}
        {profile.sequencing_centre.length > 0 && (
          <div>
            <dt className="muted">Sequencing centres</dt>
            <dd>{profile.sequencing_centre.map((c) => labelOf(SEQUENCING_CENTRES, c)).join(', ')}</dd>
          </div>
        )}
        <div>
          <dt className="muted">Created</dt>
          <dd>
            <When value={profile.date_created} />
          </dd>
        </div>
        <div>
          <dt className="muted">Profile id</dt>
          <dd className="mono">{profile.id}</dd>
        </div>
      </dl>
      {profile.description && <p>{profile.description}</p>}
      {isTolProject(profile.type) ? <ProfileHub profileId={profile.id} type={profile.type} /> : <StudiesTab profileId={profile.id} />}
    </>
  );
}
