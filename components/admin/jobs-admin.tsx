'use client';

import { useMutation } from '@tanstack/react-query';
import Link from 'next/link';
import { EnaRefusalList, useEnaRefusals } from '@/components/submissions/ena-refusals';
import { foundPages } from '@/components/ui/api-pages';
import { DataTable, type TableDefinition } from '@/components/ui/data-table';
import { MutationOutcome } from '@/components/ui/mutation-outcome';
import { usePagedList } from '@/components/ui/use-paged-list';
import { When } from '@/components/ui/when';
import { plural } from '@/components/ui/words';
import { api } from '@/lib/client/api';
import type { FailedJob } from '@/lib/jobs/contract';
import styles from './jobs-admin.module.css';
import { JOBS_KEY, JOBS_PAGE } from './jobs-query';

const seconds = (s: number) => (s < 90 ? `${s} s` : s < 5400 ? `${Math.round(s / 60)} min` : `${Math.round(s / 3600)} h`);

/** What the job was about, as a link to it where the portal shows it. */
function JobSubject({ job }: { job: FailedJob }) {
  switch (job.job) {
    case 'manifest.validate':
      return <Link href={`/manifests/reports/${job.data.reportId}`}>its validation report</Link>;
    case 'samples.register':
    case 'study.submit':
      return <Link href="/submissions">on the Submissions page</Link>;
    case 'tolids.request':
      return job.data.sampleIds.length ? (
        <details>
          <summary>for {plural(job.data.sampleIds.length, 'sample', 'samples')}</summary>
          <ul className={styles.ids}>
            {job.data.sampleIds.map((id) => (
              <li key={id}>
                <Link href={`/samples/${id}`} className="mono">
                  {id}
                </Link>
              </li>
            ))}
          </ul>
        </details>
      ) : (
        <span className="muted">for no sample</span>
      );
    case 'email.send':
      return <span className="mono muted">{job.data.emailId}</span>;
    default:
      return null;
  }
}

/** The queue now, and the work given up for good, each with a Retry that reopens it once. */
export function JobsAdmin() {
  const jobs = usePagedList({
    key: JOBS_KEY,
    limit: JOBS_PAGE,
    fetch: foundPages((page) => api.GET('/api/admin/jobs', { params: { query: page } })),
    refetchInterval: () => 10_000,
  });
  // ENA's refusals end no job in failure (the job did its work) yet are failed work an admin can retry; a
  // registration that gave up is a failed job already, listed below
  const refusals = useEnaRefusals();
  const refusedList = (refusals.data?.data ?? []).filter((r) => r.outcome === 'refused');
  const refused = refusedList.length;
  const retry = useMutation({
    mutationFn: (job: FailedJob) => api.POST('/api/admin/jobs/failed/{id}/retry', { params: { path: { id: job.id } } }),
    onSettled: jobs.refresh,
  });

  const table: TableDefinition<FailedJob> = {
    noun: 'failed jobs',
    rowKey: (j) => j.id,
    columns: [
      {
        id: 'job',
        header: 'Job',
        key: true,
        cell: (j) => (
          <>
            {j.label}
            <div className={styles.subject}>
              <JobSubject job={j} />
            </div>
          </>
        ),
      },
      { id: 'reason', header: 'Why it was given up', cell: (j) => <span className={styles.reason}>{j.reason}</span> },
      { id: 'failed', header: 'Given up', cell: (j) => <When value={j.failed} /> },
      { id: 'attempts', header: 'Runs', numeric: true, cell: (j) => j.attempts },
      {
        id: 'retry',
        header: 'Retry',
        cell: (j) =>
          j.retried ? (
            <When what="Retried" value={j.retried} className="muted" />
          ) : (
            <button type="button" onClick={() => retry.mutate(j)} disabled={retry.isPending}>
              Retry<span className="visually-hidden"> {j.label.toLowerCase()}</span>
            </button>
          ),
      },
    ],
  };

  const queue = jobs.query.data?.queue;
  return (
    <>
      {queue && (
        <dl className="cards">
          <div>
            <dt>Waiting to run</dt>
            <dd>{queue.waiting}</dd>
          </div>
          <div>
            <dt>Oldest waiting</dt>
            <dd>{queue.waiting ? seconds(queue.oldest_waiting_seconds) : '—'}</dd>
          </div>
          <div>
            <dt>Running</dt>
            <dd>{queue.active}</dd>
          </div>
          <div>
            <dt>Failed, not retried</dt>
            <dd>{queue.dead_letters + refused}</dd>
          </div>
        </dl>
      )}
      {refused > 0 && (
        <>
          <h2>Registrations ENA refused</h2>
          <p>
            {refused === 1 ? 'One registration' : `${refused} registrations`} of samples failed: ENA refused {refused === 1 ? 'it' : 'them'}
            . Once the cause in ENA’s message is fixed, retry sends the samples again.
          </p>
          <EnaRefusalList refusals={refusedList} onRetried={() => void refusals.refetch()} />
        </>
      )}
      <h2>Failed jobs</h2>
      <MutationOutcome
        mutation={retry}
        done={(r) => `${r.label} queued again (${r.queued}); it runs in a moment.`}
        failed={(why, job) => `Could not retry ${job.label.toLowerCase()}: ${why}`}
      />
      <DataTable
        caption="Failed jobs, newest first"
        table={table}
        {...jobs}
        empty={
          refused ? (
            <p className="notice">No job was given up; the registrations ENA refused are listed above.</p>
          ) : (
            <p className="notice success">No job has failed for good: every piece of work finished or is still being tried.</p>
          )
        }
      />
    </>
  );
}
