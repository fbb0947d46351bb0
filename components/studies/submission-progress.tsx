'use client';

import { useQuery } from '@tanstack/react-query';
import { useRef } from 'react';
import { Accession } from '@/components/samples/sample-state';
import { DataTable, type TableDefinition } from '@/components/ui/data-table';
import { api } from '@/lib/client/api';
import type { Repository } from '@/lib/submissions/contract';
import type { AccessionRow, FileState } from '@/lib/submissions/study/contract';
import type { StudyPath } from './study-path';

const FILE_STATE: Record<FileState, string> = {
  waiting: 'checked, waiting',
  checking: 'checking against the sheet',
  sending: 'sending',
  sent: 'sent',
  failed: 'failed',
};

const mib = (n: number) => `${(n / 1024 / 1024).toFixed(n < 10 * 1024 * 1024 ? 1 : 0)} MiB`;

const runTable: TableDefinition<AccessionRow> = {
  noun: 'runs',
  rowKey: (r) => String(r.file_id),
  columns: [
    { id: 'row', header: 'File row', key: true, nowrap: true, cell: (r) => <span className="mono">{r.file_id}</span> },
    {
      id: 'run',
      header: 'Run',
      nowrap: true,
      cell: (r) => (r.run_accession_ena ? <Accession value={r.run_accession_ena} /> : (r.file_status_ena ?? '')),
    },
    {
      id: 'experiment',
      header: 'Experiment',
      nowrap: true,
      cell: (r) => (r.experiment_accession_ena ? <Accession value={r.experiment_accession_ena} /> : ''),
    },
  ],
};

/**
 * Where a study's submission to one repository stands: each data file as it is checked and sent (polled, more and
 * more slowly, while the submission runs), and afterwards the accession of each file row at ENA.
 */
export function SubmissionProgress({ at, repository, status }: { at: StudyPath; repository: Repository; status: string }) {
  const polls = useRef(0);
  const running = status === 'processing';
  const detail = useQuery({
    // a new status (queued, accepted, published…) is a new answer to fetch
    queryKey: ['study-submission', at, repository, status],
    queryFn: () =>
      api.GET('/api/profiles/{profile_id}/schema/{schema_name}/studies/{study_id}/action/submit', {
        params: { path: at, query: { repository } },
      }),
    enabled: status !== 'pending',
    // 1 s, doubling to 10 s, while the submission runs; nothing once it has ended
    refetchInterval: (q) => {
      if (q.state.data?.status !== 'processing' && !running) return false;
      polls.current += 1;
      return Math.min(10_000, 1000 * 2 ** Math.min(polls.current - 1, 4));
    },
  });
  const rows = useQuery({
    queryKey: ['study-accessions', at, repository, status],
    queryFn: () =>
      api.GET('/api/profiles/{profile_id}/schema/{schema_name}/studies/{study_id}/action/accession', {
        params: { path: at, query: { repository } },
      }),
    enabled: repository === 'ena' && (detail.data?.status === 'accepted' || status === 'accepted'),
  });
  const d = detail.data;
  const fileRows = (rows.data ?? []).filter((r) => r.file_id);
  if (!d) return null;
  const waiting = d.detail ? (
    <p className="muted" role="status">
      {d.detail}
    </p>
  ) : null;
  if (!d.files.length && !fileRows.length) return waiting;
  const sent = d.files.filter((f) => f.state === 'sent').length;
  return (
    <>
      {waiting}
      <details className="submission-progress" open={d.status === 'processing' || d.files.some((f) => f.state === 'failed')}>
        <summary>
          {d.files.length > 0 && `${sent} of ${d.files.length} data files sent`}
          {fileRows.length > 0 && `${d.files.length ? '; ' : ''}${fileRows.length} runs`}
        </summary>
        {d.files.length > 0 && (
          <ul className="plain" aria-label={`Data files sent to ${repository === 'ena' ? 'ENA' : 'Zenodo'}`}>
            {d.files.map((f) => (
              <li key={f.file_name}>
                <label>
                  <span className="mono">{f.file_name}</span> — {FILE_STATE[f.state]}
                  {f.state === 'sending' && f.size > 0 && ` (${mib(f.sent)} of ${mib(f.size)})`}
                  {f.error && <span className="field-error"> {f.error}</span>}
                  <progress max={f.size || 1} value={f.state === 'sent' ? f.size || 1 : f.state === 'sending' ? f.sent : 0} />
                </label>
              </li>
            ))}
          </ul>
        )}
        {fileRows.length > 0 && <DataTable caption="Runs at ENA, one per file row" table={runTable} rows={fileRows} />}
      </details>
    </>
  );
}
