import type { Metadata } from 'next';
import Link from 'next/link';
import { plural } from '@/components/ui/words';
import { listDeadLetters } from '@/lib/jobs/dead-letters';
import { listProfiles } from '@/lib/profiles/profiles';
import { reportsWaiting } from '@/lib/reports/home';
import { samplesWaiting } from '@/lib/samples/home';
import { pageData } from '@/lib/server/page-data';
import { submissionsWaiting } from '@/lib/submissions/home';
import { enaRefusals } from '@/lib/submissions/refusals';
import styles from './home.module.css';
import { WaitingForYou } from './waiting-for-you';

export const metadata: Metadata = { title: 'Home' };

// what was refused or given up stays on the home page this long; the Submissions page keeps all of it
const RECENT_MS = 14 * 24 * 3600 * 1000;

export default async function HomePage() {
  const { user, samples, reports, submissions, refusals, profiles, failedJobs } = await pageData(async (db, u) => {
    const since = new Date(Date.now() - RECENT_MS);
    const [samples, reports, submissions, refusals, profiles, failedJobs] = await Promise.all([
      samplesWaiting(db, u, since),
      reportsWaiting(db, u),
      submissionsWaiting(db, u, since),
      enaRefusals(db, u, { limit: 20, offset: 0, since }),
      listProfiles(db, u, { limit: 1, offset: 0 }),
      u.isAdmin ? listDeadLetters(db, { limit: 1, offset: 0, open: true }) : null,
    ]);
    return { samples, reports, submissions, refusals, profiles, failedJobs };
  });

  return (
    <>
      <h1>Welcome, {user.username}</h1>
      <WaitingForYou
        userId={user.id}
        samples={samples}
        reports={reports}
        submissions={submissions}
        refusals={refusals}
        failedJobs={failedJobs?.total ?? 0}
      />

      <h2>Your work</h2>
      <ul className={styles.links}>
        <li>
          <Link href="/profiles">
            {profiles.total
              ? plural(profiles.total, user.isAdmin ? 'profile' : 'profile of yours', user.isAdmin ? 'profiles' : 'profiles of yours')
              : 'Profiles'}
          </Link>
          : {profiles.total ? 'their manifests, samples, studies and data files' : 'create your first to upload a manifest or a study'}
        </li>
        <li>
          <Link href="/manifests">Manifests</Link>: upload a sample manifest, and the reports of earlier validations
        </li>
        <li>
          <Link href="/submissions">Submissions</Link>: what was sent to ENA and Zenodo, with accessions and receipts
        </li>
      </ul>

      <h2>Your projects</h2>
      {user.memberOf.length > 0 ? (
        <ul>
          {user.memberOf.map((p) => (
            <li key={p}>
              {p.toUpperCase()}
              {user.managerOf.includes(p) && <span className="badge"> sample manager</span>}
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">You are not a member of a Tree of Life project yet; an admin can add you.</p>
      )}
      {user.approverOf.length > 0 && <p>You approve the samples of {user.approverOf.join(', ')}.</p>}
      <h2>Scripts and pipelines</h2>
      <p>
        Create an <Link href="/account/keys">API key</Link> and read the <a href="/api/docs">API documentation</a>.
      </p>
    </>
  );
}
