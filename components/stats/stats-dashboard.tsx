'use client';

import { useQuery } from '@tanstack/react-query';
import { BarChart } from '@/components/ui/bar-chart';
import { apiFetch } from '@/lib/client/api';
import type { StatsSummary } from '@/lib/stats/stats';

const REFRESH_MS = 10_000;
const STATUSES = ['pending', 'private', 'processing', 'sending', 'accepted', 'rejected'];

/** The admin dashboard: GET /api/stats/summary, refreshed every few seconds without reloading the page. */
export function StatsDashboard() {
  const q = useQuery({
    queryKey: ['stats-summary'],
    queryFn: () => apiFetch<StatsSummary>('/api/stats/summary'),
    refetchInterval: REFRESH_MS,
    staleTime: 0,
  });

  const updated = q.dataUpdatedAt ? new Date(q.dataUpdatedAt).toLocaleTimeString() : null;
  const header = (
    <div className="toolbar">
      <p className="muted" style={{ margin: 0 }} aria-live="polite">
        {q.isFetching ? 'Refreshing…' : updated ? `Updated at ${updated}; refreshes every ${REFRESH_MS / 1000} seconds.` : ''}
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
  const projects = Object.entries(s.samples.by_project).sort(([a], [b]) => a.localeCompare(b));
  const statuses = STATUSES.filter((st) => projects.some(([, p]) => p.by_status[st])).concat(
    [...new Set(projects.flatMap(([, p]) => Object.keys(p.by_status)))].filter((st) => !STATUSES.includes(st)),
  );
  const submissionStates = Object.entries(s.submissions.by_status).sort(([a], [b]) => a.localeCompare(b));

  return (
    <>
      {header}
      {q.isError && (
        <p role="alert" className="notice error">
          The last refresh failed ({q.error.message}); showing the figures from {updated}.
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
            <dd>{n}</dd>
          </div>
        ))}
      </dl>

      <h2>Samples by project and status</h2>
      {projects.length === 0 ? (
        <p className="muted">No samples yet.</p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Samples by project and status</caption>
            <thead>
              <tr>
                <th scope="col">Project</th>
                {statuses.map((st) => (
                  <th scope="col" key={st}>
                    {st}
                  </th>
                ))}
                <th scope="col">Total</th>
              </tr>
            </thead>
            <tbody>
              {projects.map(([project, p]) => (
                <tr key={project}>
                  <th scope="row">{project.toUpperCase()}</th>
                  {statuses.map((st) => (
                    <td key={st}>{p.by_status[st] ?? 0}</td>
                  ))}
                  <td>
                    <strong>{p.total}</strong>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <h2>Samples created per month</h2>
      <BarChart
        title="Samples created per month"
        caption="Samples created per month"
        labelHeading="Month"
        unit="samples"
        bars={s.samples.per_month.map((m) => ({ label: m.month, value: m.count }))}
      />

      <h2>Manifests per sequencing centre</h2>
      {s.manifests.per_sequencing_centre.length === 0 ? (
        <p className="muted">No manifest names a sequencing centre yet.</p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Manifests per sequencing centre</caption>
            <thead>
              <tr>
                <th scope="col">Sequencing centre</th>
                <th scope="col">Manifests</th>
              </tr>
            </thead>
            <tbody>
              {s.manifests.per_sequencing_centre.map((c) => (
                <tr key={c.sequencing_centre}>
                  <th scope="row">{c.label}</th>
                  <td>{c.manifests}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <h2>Submissions by state</h2>
      {submissionStates.length === 0 ? (
        <p className="muted">Nothing has been submitted yet.</p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Submissions by state</caption>
            <thead>
              <tr>
                <th scope="col">State</th>
                <th scope="col">Submissions</th>
              </tr>
            </thead>
            <tbody>
              {submissionStates.map(([state, n]) => (
                <tr key={state}>
                  <th scope="row">{state}</th>
                  <td>{n}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
