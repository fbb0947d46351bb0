import type { Metadata } from 'next';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { DiscardableReport } from '@/components/manifests/discard-report';
import { When } from '@/components/ui/when';
import { plural } from '@/components/ui/words';
import { reviewsSamples } from '@/lib/approvals/approvals';
import { listDeadLetters } from '@/lib/jobs/dead-letters';
import { missingPermits } from '@/lib/permits/permits';
import { listProfiles } from '@/lib/profiles/profiles';
import { listReports } from '@/lib/reports/read';
import { countAwaitingReview } from '@/lib/samples/decision';
import { awaitingTolids, recentlyRejected } from '@/lib/samples/rejected';
import { pageData } from '@/lib/server/page-data';
import { listSubmissions } from '@/lib/submissions/submissions';
import styles from './home.module.css';

export const metadata: Metadata = { title: 'Home' };

// what was refused or given up stays on the home page this long; the Submissions page keeps all of it
const RECENT_MS = 14 * 24 * 3600 * 1000;

type Waiting = { key: string; tone: 'warning' | 'error' | 'info'; body: ReactNode };

export default async function HomePage() {
  const { user, awaiting, reports, submissions, profiles, failedJobs, rejected, tolids, missing } = await pageData(async (db, u) => {
    const [awaiting, reports, submissions, profiles, failedJobs, rejected, tolids] = await Promise.all([
      reviewsSamples(u) ? countAwaitingReview(db, u) : null,
      listReports(db, u, { limit: 50, offset: 0 }),
      listSubmissions(db, u, { limit: 50, offset: 0 }),
      listProfiles(db, u, { limit: 1, offset: 0 }),
      u.isAdmin ? listDeadLetters(db, { limit: 1, offset: 0, open: true }) : null,
      recentlyRejected(db, u, new Date(Date.now() - RECENT_MS)),
      awaitingTolids(db, u),
    ]);
    // the permit PDFs each validated ERGA manifest still waits for before it can be confirmed
    const missing = new Map<string, string[]>();
    for (const r of reports.rows) {
      if (r.status === 'complete' && !r.confirmedManifestId && r.summary.errors === 0 && r.permits.length) {
        const files = await missingPermits(db, r);
        if (files.length) missing.set(r.id, files);
      }
    }
    return {
      awaiting,
      reports: reports.rows,
      submissions: submissions.rows.map((r) => r.submission),
      profiles,
      failedJobs,
      rejected,
      tolids,
      missing,
    };
  });

  const unconfirmed = reports.filter((r) => r.status === 'complete' && !r.confirmedManifestId);
  const toConfirm = unconfirmed.filter((r) => r.summary.errors === 0 && !missing.has(r.id));
  const needPermits = unconfirmed.filter((r) => missing.has(r.id));
  const toCorrect = unconfirmed.filter((r) => r.summary.errors > 0);
  const validating = reports.filter((r) => r.status === 'pending' || r.status === 'running');
  const running = submissions.filter((s) => s.status === 'pending' || s.status === 'processing');
  const now = Date.now();
  const stopped = submissions.filter(
    (s) => (s.status === 'rejected' || s.status === 'failed') && now - (s.finishedAt ?? s.updatedAt).getTime() < RECENT_MS,
  );

  const reportLink = (r: (typeof reports)[number]) => (
    <Link href={`/manifests/reports/${r.id}`}>
      {r.fileName} ({r.project.toUpperCase()})
    </Link>
  );
  // an unfinished report of one's own can be discarded where it is listed (DELETE manifest/validate/report/{id})
  const unfinished = (r: (typeof reports)[number], body: ReactNode) =>
    r.userId === user.id ? (
      <DiscardableReport reportId={r.id} fileName={r.fileName}>
        {body}
      </DiscardableReport>
    ) : (
      body
    );
  const waiting: Waiting[] = [];
  if (awaiting)
    waiting.push({
      key: 'review',
      tone: 'warning',
      body: (
        <>
          <strong>{awaiting === 1 ? '1 sample waits' : `${plural(awaiting, 'sample')} wait`}</strong> for your review.{' '}
          <Link href="/manifests/review">Open the review queue</Link>
        </>
      ),
    });
  if (rejected.rows.length)
    waiting.push({
      key: 'rejected',
      tone: 'error',
      body: (
        <>
          <strong>
            {rejected.more ? 'More than ' : ''}
            {plural(rejected.rows.length, 'sample')}
          </strong>{' '}
          of your profiles {rejected.rows.length === 1 && !rejected.more ? 'was' : 'were'} rejected in the last two weeks. Correct them in
          the manifest and upload it again:
          <ul>
            {rejected.rows.map((r) => (
              <li key={r.id}>
                <Link href={`/samples/${r.id}`}>{r.tube || r.specimen || r.id}</Link>
                {r.tube && r.specimen ? ` (specimen ${r.specimen})` : ''} in {r.profileTitle}, <When value={r.at} />:{' '}
                {r.reason ? <q>{r.reason}</q> : 'no reason given'}
              </li>
            ))}
          </ul>
          <p className={styles.fix}>
            {[...new Map(rejected.rows.map((r) => [r.manifestId, r.manifestFile])).entries()].map(([id, file], i) => (
              <span key={id}>
                {i > 0 && ' · '}
                <a href={`/api/manifest/${id}/spreadsheet`} download>
                  Download {file || 'the manifest'} to edit (xlsx)
                </a>
              </span>
            ))}
          </p>
        </>
      ),
    });
  if (toConfirm.length)
    waiting.push({
      key: 'confirm',
      tone: 'warning',
      body: (
        <>
          <strong>{plural(toConfirm.length, 'validated manifest')}</strong> without errors {toConfirm.length === 1 ? 'waits' : 'wait'} for
          you to confirm {toConfirm.length === 1 ? 'it' : 'them'}:
          <ul>
            {toConfirm.map((r) => (
              <li key={r.id}>
                {unfinished(
                  r,
                  <>
                    {reportLink(r)}, {plural(r.summary.rows, 'row')}, validated <When value={r.finishedAt ?? r.createdAt} />
                  </>,
                )}
              </li>
            ))}
          </ul>
        </>
      ),
    });
  if (needPermits.length)
    waiting.push({
      key: 'permits',
      tone: 'warning',
      body: (
        <>
          <strong>{plural(needPermits.length, 'validated manifest')}</strong> {needPermits.length === 1 ? 'waits' : 'wait'} for permit PDFs
          before {needPermits.length === 1 ? 'it' : 'they'} can be confirmed; upload them on the report’s page:
          <ul>
            {needPermits.map((r) => (
              <li key={r.id}>
                {unfinished(
                  r,
                  <>
                    {reportLink(r)}: {missing.get(r.id)?.join(', ')}
                  </>,
                )}
              </li>
            ))}
          </ul>
        </>
      ),
    });
  if (toCorrect.length)
    waiting.push({
      key: 'correct',
      tone: 'error',
      body: (
        <>
          <strong>{plural(toCorrect.length, 'manifest')}</strong> {toCorrect.length === 1 ? 'has' : 'have'} errors to correct before
          {toCorrect.length === 1 ? ' it' : ' they'} can be confirmed:
          <ul>
            {toCorrect.map((r) => (
              <li key={r.id}>
                {unfinished(
                  r,
                  <>
                    {reportLink(r)}: {plural(r.summary.errors, 'error')}
                  </>,
                )}
              </li>
            ))}
          </ul>
        </>
      ),
    });
  if (validating.length)
    waiting.push({
      key: 'validating',
      tone: 'info',
      body: (
        <>
          <strong>{plural(validating.length, 'manifest')}</strong> {validating.length === 1 ? 'is' : 'are'} being validated:{' '}
          {validating.map((r, i) => (
            <span key={r.id}>
              {i > 0 && ', '}
              {reportLink(r)}
            </span>
          ))}
        </>
      ),
    });
  if (tolids.length)
    waiting.push({
      key: 'tolids',
      tone: 'info',
      body: (
        <>
          <strong>
            {plural(
              tolids.reduce((n, t) => n + Number(t.samples), 0),
              'approved sample',
            )}
          </strong>{' '}
          of your profiles {tolids.length === 1 && tolids[0]?.samples === 1 ? 'waits' : 'wait'} for a ToLID from the ToLID service before
          going to ENA:
          <ul>
            {tolids.map((t) => (
              <li key={t.manifestId}>
                <Link href={`/manifests/${t.manifestId}`}>{t.manifestFile || 'a manifest'}</Link> in {t.profileTitle}:{' '}
                {plural(Number(t.samples), 'sample')}, since <When value={t.since} />
              </li>
            ))}
          </ul>
        </>
      ),
    });
  if (running.length)
    waiting.push({
      key: 'running',
      tone: 'info',
      body: (
        <>
          <strong>{plural(running.length, 'submission')}</strong> to ENA or Zenodo {running.length === 1 ? 'is' : 'are'} under way.{' '}
          <Link href="/submissions">Follow them on the Submissions page</Link>
        </>
      ),
    });
  if (stopped.length)
    waiting.push({
      key: 'stopped',
      tone: 'error',
      body: (
        <>
          <strong>{plural(stopped.length, 'submission')}</strong> {stopped.length === 1 ? 'was' : 'were'} refused or failed in the last two
          weeks. <Link href="/submissions">See why on the Submissions page</Link>
        </>
      ),
    });
  if (failedJobs?.total)
    waiting.push({
      key: 'jobs',
      tone: 'error',
      body: (
        <>
          <strong>{plural(failedJobs.total, 'job')}</strong> failed for good and {failedJobs.total === 1 ? 'has' : 'have'} not been retried.{' '}
          <Link href="/admin/jobs">Open the Jobs page</Link>
        </>
      ),
    });

  return (
    <>
      <h1>Welcome, {user.username}</h1>
      <section aria-labelledby="waiting">
        <h2 id="waiting">Waiting for you</h2>
        {waiting.length ? (
          <ul className={styles.waiting}>
            {waiting.map((w) => (
              <li key={w.key} className={`notice ${w.tone === 'info' ? '' : w.tone}`}>
                {w.body}
              </li>
            ))}
          </ul>
        ) : (
          <p className="notice success">Nothing waits for you now.</p>
        )}
      </section>

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
