'use client';

import Link from 'next/link';
import type { ReactNode } from 'react';
import { foundPages } from '@/components/ui/api-pages';
import { DataTable, type TableDefinition } from '@/components/ui/data-table';
import { usePagedList } from '@/components/ui/use-paged-list';
import { When } from '@/components/ui/when';
import { plural } from '@/components/ui/words';
import { api } from '@/lib/client/api';
import type { Submission } from '@/lib/submissions/contract';
import { accessionLink } from './links';
import { SUBMISSIONS_KEY, SUBMISSIONS_PAGE } from './submissions-query';
import styles from './submissions-table.module.css';
import { receiptSentence, repositoryName, submissionSentence, type Tone } from './words';

const running = (s: Submission) => s.status === 'pending' || s.status === 'processing';

const STATE_WORDS: Record<Tone, string> = { ok: 'Done', danger: 'Stopped', running: 'In progress', waiting: 'Waiting' };
const BADGE: Record<Tone, string> = { ok: 'badge ok', danger: 'badge danger', running: 'badge', waiting: 'badge' };

/** An accession as a link to its page at the repository, or as text when it is not one we can link. */
function Accession({ value }: { value: string }) {
  const href = accessionLink(value);
  return <span className="mono">{href ? <a href={href}>{value}</a> : value}</span>;
}

/** What the repository gave back, each accession beside what it names, in lists that open. */
function Accessions({ s }: { s: Submission }) {
  const a = s.accessions;
  const samples = Object.entries(a.samples ?? {});
  const specimens = Object.entries(a.specimens ?? {});
  const runs = Object.entries(a.runs ?? {});
  const parts: ReactNode[] = [];
  if (a.study) {
    parts.push(
      <p key="study" className={styles.line}>
        {s.repository === 'zenodo' ? 'Zenodo record' : 'ENA project'} <Accession value={a.study} />
        {a.doi ? (
          <>
            , DOI <Accession value={a.doi} />
          </>
        ) : null}
      </p>,
    );
  } else if (a.doi) {
    parts.push(
      <p key="doi" className={styles.line}>
        DOI <Accession value={a.doi} />
      </p>,
    );
  }
  if (samples.length) {
    parts.push(
      <details key="samples" className={styles.more}>
        <summary>
          Accessions of {plural(samples.length, 'sample')}
          {specimens.length ? ` and ${plural(specimens.length, 'specimen')}` : ''}
        </summary>
        <ul className={styles.pairs} aria-label="Samples and their accessions">
          {samples.map(([svcId, acc]) => (
            <li key={svcId}>
              {acc.tube ? 'Tube ' : 'Sample '}
              <Link href={`/samples/${svcId}`} className="mono">
                {acc.tube || svcId}
              </Link>
              {acc.specimen ? (
                <>
                  {' '}
                  (specimen <span className="mono">{acc.specimen}</span>)
                </>
              ) : null}
              : BioSample {acc.biosampleAccession ? <Accession value={acc.biosampleAccession} /> : <span className="muted">none</span>}
              {acc.sraAccession ? (
                <>
                  , ENA <Accession value={acc.sraAccession} />
                </>
              ) : null}
            </li>
          ))}
        </ul>
        {specimens.length > 0 && (
          <ul className={styles.pairs} aria-label="Specimens and their accessions">
            {specimens.map(([specimen, acc]) => (
              <li key={specimen}>
                Specimen <span className="mono">{specimen}</span>: BioSample <Accession value={acc} />
              </li>
            ))}
          </ul>
        )}
      </details>,
    );
  }
  if (runs.length) {
    parts.push(
      <details key="runs" className={styles.more}>
        <summary>Accessions of {plural(runs.length, 'data file row')}</summary>
        <ul className={styles.pairs} aria-label="Data file rows and their accessions">
          {runs.map(([row, r]) => (
            <li key={row}>
              Row <span className="mono">{row}</span>: experiment <Accession value={r.experiment_accession} />, run{' '}
              <Accession value={r.run_accession} />
            </li>
          ))}
        </ul>
      </details>,
    );
  }
  if (a.files?.length) {
    parts.push(
      <details key="files" className={styles.more}>
        <summary>{plural(a.files.length, 'file')} sent</summary>
        <ul className={styles.pairs}>
          {a.files.map((f) => (
            <li key={f} className="mono">
              {f}
            </li>
          ))}
        </ul>
      </details>,
    );
  }
  return parts.length ? parts : null;
}

/** The repository's answers, oldest first: what was sent, what came back, and ENA's receipt to download. */
function Receipts({ s }: { s: Submission }) {
  if (!s.receipts.length) return null;
  return (
    <details className={styles.more}>
      <summary>
        {plural(s.receipts.length, 'answer')} from {repositoryName(s.repository)}
      </summary>
      <ol className={styles.receipts}>
        {s.receipts.map((r, n) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a log that is only appended to; an answer's place is its identity (and its download's address)
          <li key={n}>
            <span className={r.success ? undefined : styles.refused}>{receiptSentence(r)}</span> <When value={r.at} className="muted" />
            {r.xml_url ? (
              <>
                {' · '}
                <a href={r.xml_url} download>
                  Download the receipt as XML<span className="visually-hidden"> ({receiptSentence(r)})</span>
                </a>
              </>
            ) : null}
            {r.errors?.length ? (
              <ul className={styles.messages}>
                {r.errors.map((e) => (
                  <li key={e} className="field-error">
                    {e}
                  </li>
                ))}
              </ul>
            ) : null}
            {r.infos?.length ? (
              <ul className={styles.messages}>
                {r.infos.map((e) => (
                  <li key={e} className="muted">
                    {e}
                  </li>
                ))}
              </ul>
            ) : null}
          </li>
        ))}
      </ol>
    </details>
  );
}

const table: TableDefinition<Submission> = {
  noun: 'submissions',
  rowKey: (s) => s.submission_id,
  columns: [
    {
      id: 'what',
      header: 'Submission',
      key: true,
      cell: (s) => {
        const { text } = submissionSentence(s);
        return (
          <div className={styles.what}>
            <span>{text}</span>
            <div className={styles.profile}>
              {s.kind === 'samples' ? 'Samples of ' : 'A study of '}
              <Link href={`/profiles/${s.profile_id}`}>{s.profile_title ?? s.profile_id}</Link>
            </div>
          </div>
        );
      },
    },
    {
      id: 'state',
      header: 'State',
      cell: (s) => {
        const { tone } = submissionSentence(s);
        return (
          <>
            <span className={BADGE[tone]}>{STATE_WORDS[tone]}</span>
            {running(s) && s.attempts > 1 && <div className="muted">attempt {s.attempts}</div>}
          </>
        );
      },
    },
    { id: 'created', header: 'Started', cell: (s) => <When value={s.created} /> },
    { id: 'finished', header: 'Ended', cell: (s) => <When value={s.finished} /> },
  ],
};

/** Under each submission: why it stopped, what came back, and the answers, each list folded until opened. */
function detail(s: Submission) {
  const accessions = <Accessions s={s} />;
  const hasAccessions = Boolean(
    s.accessions.study ||
      s.accessions.doi ||
      Object.keys(s.accessions.samples ?? {}).length ||
      Object.keys(s.accessions.runs ?? {}).length ||
      s.accessions.files?.length,
  );
  if (!s.error && !hasAccessions && !s.receipts.length) return null;
  return (
    <div className={styles.detail}>
      {s.error && <p className={`field-error ${styles.line}`}>{s.error}</p>}
      {hasAccessions && accessions}
      <Receipts s={s} />
    </div>
  );
}

// a value of its own: written inside the list's options, its page's type would be inferred from the list's, rows unknown
const submissionPages = foundPages((page) => api.GET('/api/submissions', { params: { query: page } }));

export function SubmissionsTable() {
  const list = usePagedList({
    key: SUBMISSIONS_KEY,
    limit: SUBMISSIONS_PAGE,
    fetch: submissionPages,
    // live status while anything on the page is still running; new submissions appear on the first page
    refetchInterval: (page, offset) => (page?.rows.some(running) ? 1500 : offset === 0 ? 10_000 : false),
  });
  return (
    <DataTable
      caption="Submissions to public repositories, newest first"
      table={table}
      {...list}
      empty={<p className="muted">Nothing has been submitted yet. Accepted samples and submitted studies appear here.</p>}
      detail={detail}
    />
  );
}
