import Link from 'next/link';
import type { ReactNode } from 'react';
import { DiscardableReport } from '@/components/manifests/discard-report';
import { EnaRefusalNotice } from '@/components/submissions/ena-refusals';
import { When } from '@/components/ui/when';
import { plural } from '@/components/ui/words';
import type { ReportsWaiting } from '@/lib/reports/home';
import type { ReportSummary } from '@/lib/reports/read';
import type { SamplesWaiting } from '@/lib/samples/home';
import type { EnaRefusals } from '@/lib/submissions/contract';
import type { SubmissionsWaiting } from '@/lib/submissions/home';
import styles from './home.module.css';

type Waiting = { key: string; tone: 'warning' | 'error' | 'info'; body: ReactNode };

/**
 * The home page's to-do list: one notice for each kind of thing that waits for the user (samples to review, rejected
 * samples, manifests to confirm, to give permits or to correct, validations and submissions under way, jobs that
 * failed), in that order, or a word that nothing does.
 */
export function WaitingForYou({
  userId,
  samples: { awaiting, toReview, rejected, tolids },
  reports: { toConfirm, awaitingPermits, toCorrect, validating },
  submissions: { running, stopped },
  refusals,
  failedJobs,
}: {
  userId: number;
  samples: SamplesWaiting;
  reports: ReportsWaiting;
  submissions: SubmissionsWaiting;
  /** registrations of the user's samples (a manager's: of their projects) ENA refused lately, each said once */
  refusals: EnaRefusals;
  /** dead letters not retried: counted for admins only, 0 for the others */
  failedJobs: number;
}) {
  const reportLink = (r: ReportSummary) => (
    <Link href={`/manifests/reports/${r.id}`}>
      {r.fileName} ({r.project.toUpperCase()})
    </Link>
  );
  // an unfinished report of one's own can be discarded where it is listed (DELETE manifest/validate/report/{id})
  const unfinished = (r: ReportSummary, body: ReactNode) =>
    r.userId === userId ? (
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
          {/* each manifest leads to its own group of the queue, the newest first, as the queue lists them */}
          {toReview.rows.length > 0 && (
            <ul>
              {toReview.rows.map((m) => (
                <li key={m.manifestId}>
                  <Link href={`/manifests/review?manifest=${m.manifestId}`}>{m.fileName || 'a manifest'}</Link> in {m.profileTitle}:{' '}
                  {plural(m.samples, 'sample')}
                </li>
              ))}
              {toReview.total > toReview.rows.length && <li>and {plural(toReview.total - toReview.rows.length, 'more manifest')}</li>}
            </ul>
          )}
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
          of your profiles {rejected.rows.length === 1 && !rejected.more ? 'was' : 'were'} rejected in the last two weeks.
          {rejected.rows.some((r) => r.contributes)
            ? ' Correct them in the manifest and upload it again:'
            : ' You view these profiles: their owners or contributors correct the samples and upload them again.'}
          <ul>
            {rejected.rows.map((r) => (
              <li key={r.id}>
                <Link href={`/samples/${r.id}`}>{r.tube || r.specimen || r.id}</Link>
                {r.tube && r.specimen ? ` (specimen ${r.specimen})` : ''} in {r.profileTitle}, <When value={r.at} />:{' '}
                {r.reason ? <q>{r.reason}</q> : 'no reason given'}
                {!r.contributes && rejected.rows.some((o) => o.contributes) ? ' (its owner or a contributor corrects it)' : ''}
              </li>
            ))}
          </ul>
          <p className={styles.fix}>
            {[...new Map(rejected.rows.filter((r) => r.contributes).map((r) => [r.manifestId, r.manifestFile])).entries()].map(
              ([id, file], i) => (
                <span key={id}>
                  {i > 0 && ' · '}
                  <a href={`/api/manifest/${id}/spreadsheet`} download>
                    Download {file || 'the manifest'} to edit (xlsx)
                  </a>
                </span>
              ),
            )}
          </p>
        </>
      ),
    });
  // after a refusal there is nothing to upload again: each says who acts (lib/submissions/refusals.ts)
  for (const r of refusals.data) waiting.push({ key: `refused-${r.submission_id}`, tone: 'error', body: <EnaRefusalNotice refusal={r} /> });
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
  if (awaitingPermits.length)
    waiting.push({
      key: 'permits',
      tone: 'warning',
      body: (
        <>
          <strong>{plural(awaitingPermits.length, 'validated manifest')}</strong> {awaitingPermits.length === 1 ? 'waits' : 'wait'} for
          permit PDFs before {awaitingPermits.length === 1 ? 'it' : 'they'} can be confirmed; upload them on the report’s page:
          <ul>
            {awaitingPermits.map((r) => (
              <li key={r.id}>
                {unfinished(
                  r,
                  <>
                    {reportLink(r)}: {r.missingPermits.join(', ')}
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
  if (running)
    waiting.push({
      key: 'running',
      tone: 'info',
      body: counted(
        running,
        'submission',
        `to ENA or Zenodo ${running === 1 ? 'is' : 'are'} under way.`,
        '/submissions',
        'Follow them on the Submissions page',
      ),
    });
  if (stopped)
    waiting.push({
      key: 'stopped',
      tone: 'error',
      body: counted(
        stopped,
        'submission',
        `${stopped === 1 ? 'was' : 'were'} refused or failed in the last two weeks.`,
        '/submissions',
        'See why on the Submissions page',
      ),
    });
  if (failedJobs)
    waiting.push({
      key: 'jobs',
      tone: 'error',
      body: counted(
        failedJobs,
        'job',
        `failed for good and ${failedJobs === 1 ? 'has' : 'have'} not been retried.`,
        '/admin/jobs',
        'Open the Jobs page',
      ),
    });

  return (
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
  );
}

/** A notice that counts things and sends the reader to the page where they are. */
function counted(n: number, noun: string, sentence: string, href: string, link: string) {
  return (
    <>
      <strong>{plural(n, noun)}</strong> {sentence} <Link href={href}>{link}</Link>
    </>
  );
}
