'use client';

import { useQuery } from '@tanstack/react-query';
import { statusWords } from '@/components/samples/sample-state';
import { BarChart, HorizontalBars } from '@/components/ui/bar-chart';
import { type Column, DataTable, type TableDefinition } from '@/components/ui/data-table';
import { When } from '@/components/ui/when';
import { formatNumber } from '@/components/ui/words';
import { api } from '@/lib/client/api';
import { SAMPLE_STATUSES } from '@/lib/samples/statuses';
import type { StatsSummary } from '@/lib/stats/contract';
import { NONE_GIVEN } from '@/lib/stats/none-given';
import { SUBMISSION_STATUSES } from '@/lib/submissions/statuses';
import styles from './stats-dashboard.module.css';

const REFRESH_MS = 10_000;
const SERVICE_LABELS: Record<string, string> = { ena: 'ENA (Webin)', tolid: 'ToLID service', zenodo: 'Zenodo', mail: 'Email (SMTP)' };

// a submission's states as people read them (a sample's are statusWords, said once for every page); the API keeps the machine names
const SUBMISSION_WORDS: Record<string, string> = {
  pending: 'Waiting to start',
  processing: 'In progress',
  accepted: 'Accepted by the repository',
  rejected: 'Refused by the repository',
  published: 'Published',
  failed: 'Failed',
};

/** Known states first, in their order of the lifecycle; any other after them. */
function ordered(counts: Record<string, number>, known: readonly string[]): [string, number][] {
  const rest = Object.keys(counts)
    .filter((k) => !known.includes(k))
    .sort();
  return [...known, ...rest].filter((k) => counts[k]).map((k) => [k, counts[k] ?? 0]);
}

type ProjectRow = { project: string; total: number; byStatus: Record<string, number> };

/**
 * The admin dashboard: GET /api/stats/summary, drawn first from the figures the page came with (`initial`, read at
 * `at`), then refreshed every few seconds without reloading the page.
 */
export function StatsDashboard({ initial, at }: { initial: StatsSummary; at: number }) {
  const q = useQuery({
    queryKey: ['stats-summary'],
    queryFn: () => api.GET('/api/stats/summary'),
    initialData: initial,
    initialDataUpdatedAt: at,
    refetchInterval: REFRESH_MS,
    staleTime: REFRESH_MS,
  });

  const header = (
    <div className="toolbar">
      <p className="muted" style={{ margin: 0 }} aria-live="polite">
        {q.isFetching ? (
          'Refreshing…'
        ) : q.dataUpdatedAt ? (
          // the moment in the reader's zone, which the server's drawing of the page cannot know (When)
          <>
            <When value={new Date(q.dataUpdatedAt)} what="Updated" />; refreshes every {REFRESH_MS / 1000} seconds.
          </>
        ) : (
          ''
        )}
      </p>
      <button type="button" onClick={() => void q.refetch()} disabled={q.isFetching}>
        Refresh now
      </button>
    </div>
  );

  if (q.isPending) {
    return (
      <>
        {header}
        <p aria-busy="true">Loading statistics…</p>
      </>
    );
  }
  if (q.isError && !q.data) {
    return (
      <>
        {header}
        <p role="alert" className="notice error">
          Could not load statistics: {q.error.message}
        </p>
      </>
    );
  }
  const s = q.data;
  const projects: ProjectRow[] = Object.entries(s.samples.by_project)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([project, p]) => ({ project, total: p.total, byStatus: p.by_status }));
  const allStatuses: Record<string, number> = {};
  for (const p of projects) for (const [st, n] of Object.entries(p.byStatus)) allStatuses[st] = (allStatuses[st] ?? 0) + n;
  const statuses = ordered(allStatuses, SAMPLE_STATUSES).map(([st]) => st);
  const projectTable: TableDefinition<ProjectRow> = {
    noun: 'projects',
    rowKey: (p) => p.project,
    columns: [
      { id: 'project', header: 'Project', key: true, cell: (p) => p.project.toUpperCase() },
      ...statuses.map(
        (st): Column<ProjectRow> => ({
          id: st,
          header: statusWords(st),
          numeric: true,
          cell: (p) => formatNumber(p.byStatus[st] ?? 0),
        }),
      ),
      { id: 'total', header: 'Total', numeric: true, cell: (p) => <strong>{formatNumber(p.total)}</strong> },
    ],
  };

  return (
    <>
      {header}
      {q.isError && (
        <p role="alert" className="notice error">
          The last refresh failed ({q.error.message}); showing the figures from <When value={new Date(q.dataUpdatedAt)} />.
        </p>
      )}
      <h2>Totals</h2>
      <dl className="cards">
        {(
          [
            ['Users', s.users],
            ['Profiles', s.profiles],
            ['Data files', s.datafiles],
            ['Samples', s.samples.total],
            ['Manifests', s.manifests.total],
            ['Submissions', s.submissions.total],
          ] as const
        ).map(([label, n]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{formatNumber(n)}</dd>
          </div>
        ))}
      </dl>

      {s.services && (
        <>
          <h2>External services</h2>
          <ul className="plain">
            {Object.entries(s.services).map(([name, state]) => (
              <li key={name}>
                <span className={`badge${state.configured ? ' ok' : ' danger'}`}>{state.configured ? 'configured' : 'not configured'}</span>{' '}
                <strong>{SERVICE_LABELS[name] ?? name}</strong>: {state.detail}
              </li>
            ))}
          </ul>
        </>
      )}

      <div className={styles.pair}>
        <section aria-labelledby="samples-by-status">
          <h2 id="samples-by-status">Samples by status</h2>
          <HorizontalBars
            title="Samples by status, all projects"
            unit="samples"
            bars={ordered(allStatuses, SAMPLE_STATUSES).map(([st, n]) => ({ label: statusWords(st), value: n }))}
          />
        </section>
        <section aria-labelledby="submissions-by-state">
          <h2 id="submissions-by-state">Submissions by state</h2>
          <HorizontalBars
            title="Submissions by state"
            unit="submissions"
            bars={ordered(s.submissions.by_status, SUBMISSION_STATUSES).map(([st, n]) => ({ label: SUBMISSION_WORDS[st] ?? st, value: n }))}
          />
        </section>
      </div>

      <h2>Samples by project and status</h2>
      <DataTable
        caption="Samples by project and status"
        table={projectTable}
        rows={projects}
        empty={<p className="muted">No samples yet.</p>}
      />

      <section aria-labelledby="samples-per-month">
        <h2 id="samples-per-month">Samples created per month</h2>
        <BarChart
          title="Samples created per month"
          caption="Samples created per month"
          labelHeading="Month"
          unit="samples"
          bars={s.samples.per_month.map((m) => ({ label: m.month, value: m.count }))}
        />
      </section>

      <section aria-labelledby="manifests-by-centre">
        <h2 id="manifests-by-centre">Manifests per sequencing centre</h2>
        {s.manifests.total === 0 ? (
          <p className="muted">No manifests yet.</p>
        ) : (
          <>
            <p className="muted">
              Each manifest is counted once, so the bars add up to the {formatNumber(s.manifests.total)} manifests: one naming several
              centres is under all of them together (“… and …”), one naming none under “{NONE_GIVEN}”.
            </p>
            <HorizontalBars
              title="Manifests per sequencing centre, each manifest once"
              unit="manifests"
              bars={s.manifests.by_sequencing_centres.map((c) => ({ label: c.label, value: c.manifests }))}
            />
          </>
        )}
      </section>
    </>
  );
}
