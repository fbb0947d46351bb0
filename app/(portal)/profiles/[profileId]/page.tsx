import type { Metadata } from 'next';
import Link from 'next/link';
import { Suspense } from 'react';
import { BiodataSamplesTab } from '@/components/biodata-samples/samples-tab';
import { REPORTS_OFFSET_PARAM, REPORTS_PAGE, reportsKey } from '@/components/manifests/manifests-query';
import { ProfileHub } from '@/components/profiles/profile-hub';
import styles from '@/components/profiles/profile-hub.module.css';
import { profileSummaryKey } from '@/components/profiles/profile-query';
import { Sharing } from '@/components/profiles/sharing';
import { SequenceData } from '@/components/studies/sequence-data';
import { StudiesTab } from '@/components/studies/studies-tab';
import { DeleteAction, DeletedNotice } from '@/components/ui/delete-action';
import { asSent, Prefetched } from '@/components/ui/prefetched';
import { When } from '@/components/ui/when';
import { LaterSection, WhenIdle } from '@/components/ui/when-idle';
import { getProfile } from '@/lib/profiles/profiles';
import { isTolProject } from '@/lib/projects/contract';
import { profileTypeInfo } from '@/lib/projects/enums';
import { labelsOf, referenceData } from '@/lib/reference/read';
import { profileRemovalState } from '@/lib/removal/profiles';
import { reportSummaries } from '@/lib/reports/json';
import { profileSampleSummary } from '@/lib/samples/summary';
import { loadProfilePage } from '@/lib/server/load-profile';
import { pageData } from '@/lib/server/page-data';

export const metadata: Metadata = { title: 'Profile' };

export default async function ProfilePage({
  params,
  searchParams,
}: {
  params: Promise<{ profileId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { profileId } = await params;
  const reportsOffset = Math.max(0, Number((await searchParams)[REPORTS_OFFSET_PARAM]) || 0);
  const { profile } = await loadProfilePage(profileId);
  const tol = isTolProject(profile.type);
  // what a Tree of Life profile holds (its samples, manifests, permits and reports) comes with the page, so that its
  // first sections are drawn whole rather than after their queries answer
  const { removal, me, lists, answers } = await pageData(async (db, u) => ({
    removal: await profileRemovalState(db, u, await getProfile(db, u, profileId)),
    me: u.username,
    lists: await referenceData(db),
    answers: tol
      ? ([
          [profileSummaryKey(profileId), asSent(await profileSampleSummary(db, u, profileId))],
          [
            [...reportsKey(profileId), reportsOffset],
            asSent(await reportSummaries(db, u, { profileId, limit: REPORTS_PAGE, offset: reportsOffset })),
          ],
        ] as const)
      : [],
  }));
  const typeLabel = labelsOf(lists.associatedTypes);
  const centreLabel = labelsOf(lists.sequencingCentres);
  const manages = profile.role === 'owner' || profile.role === 'admin';
  return (
    <>
      <p>
        <Link href="/profiles">← Profiles</Link>
      </p>
      <div className={styles.head}>
        <h1>{profile.title}</h1>
        {manages && (
          <Link className="button" href={`/profiles/${profile.id}/edit`}>
            Edit
          </Link>
        )}
      </div>
      <Suspense>
        <DeletedNotice />
      </Suspense>
      <dl className={styles.facts}>
        <div>
          <dt className="muted">Type</dt>
          <dd>{profileTypeInfo(profile.type).label}</dd>
        </div>
        {profile.associated_type.length > 0 && (
          <div>
            <dt className="muted">Associated projects</dt>
            <dd>{profile.associated_type.map(typeLabel).join(', ')}</dd>
          </div>
        )}
        {profile.sequencing_centre.length > 0 && (
          <div>
            <dt className="muted">Sequencing centres</dt>
            <dd>{profile.sequencing_centre.map(centreLabel).join(', ')}</dd>
          </div>
        )}
        <div>
          <dt className="muted">Owner</dt>
          <dd>
            {profile.owner}
            {profile.role !== 'owner' && <span className="muted"> (you: {profile.role})</span>}
          </dd>
        </div>
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
      {tol ? (
        <Prefetched answers={answers}>
          <ProfileHub profileId={profile.id} type={profile.type} contributes={profile.role !== 'viewer'} />
        </Prefetched>
      ) : (
        <>
          <BiodataSamplesTab profileId={profile.id} contributes={profile.role !== 'viewer'} />
          <StudiesTab profileId={profile.id} contributes={profile.role !== 'viewer'} />
          <SequenceData profileId={profile.id} />
        </>
      )}
      <WhenIdle placeholder={<LaterSection id="sharing" title="Sharing" />}>
        <Sharing profileId={profile.id} role={profile.role} me={me} />
      </WhenIdle>
      {/* last, as on a report's page: whether and why not is read where the person would delete, not as the first
          words under the title of a profile they came to work in */}
      {removal && (
        <section aria-labelledby="delete-profile">
          <h2 id="delete-profile">Delete this profile</h2>
          <DeleteAction
            noun="profile"
            name={profile.title}
            url={`/api/profiles/${profile.id}`}
            refusal={removal.refusal}
            redirectTo="/profiles"
          >
            Profile {profile.title} will be deleted with everything it holds: its samples and their history, manifests, validation reports,
            permits, studies and data files.
          </DeleteAction>
        </section>
      )}
    </>
  );
}
