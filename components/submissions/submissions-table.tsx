'use client';

import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/client/api';
import { accessionLink } from './links';

interface Receipt {
  at: string;
  kind: string;
  success?: boolean;
  errors?: string[];
  infos?: string[];
  submission?: string;
}
export interface SubmissionJson {
  submission_id: string;
  kind: 'samples' | 'study';
  repository: 'ena' | 'zenodo';
  action: string;
  profile_title?: string;
  status: 'pending' | 'processing' | 'accepted' | 'rejected' | 'published';
  samples: number;
  accessions: Record<string, unknown>;
  receipts: Receipt[];
  attempts: number;
  error: string | null;
  created: string;
  finished: string | null;
}

const running = (s: SubmissionJson) => s.status === 'pending' || s.status === 'processing';

/** Accession strings found anywhere in a submission's accessions, for links to the repository's pages. */
function accessionsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string' && value) out.push(value);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) accessionsOf(v, out);
  return out;
}

export function SubmissionsTable() {
  const q = useQuery({
    queryKey: ['submissions'],
    queryFn: () => apiFetch<SubmissionJson[]>('/api/submissions'),
    // live status while anything is still running
    refetchInterval: (query) => (query.state.data?.some(running) ? 1500 : false),
  });
  if (q.isPending) return <p aria-busy="true">Loading submissions…</p>;
  if (q.isError) return <p role="alert" className="notice error">Could not load submissions: {q.error.message}</p>;
  if (!q.data.length) return <p className="muted">Nothing has been submitted yet.</p>;
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">Submissions to public repositories</caption>
        <thead>
          <tr>
            <th scope="col">Started</th>
            <th scope="col">What</th>
            <th scope="col">Repository</th>
            <th scope="col">Status</th>
            <th scope="col">Accessions</th>
            <th scope="col">Receipts and errors</th>
          </tr>
        </thead>
        <tbody>
          {q.data.map((s) => {
            const accessions = [...new Set(accessionsOf(s.accessions))];
            return (
              <tr key={s.submission_id}>
                <td>{new Date(s.created).toLocaleString()}</td>
                <td>
                  {s.kind === 'samples' ? `${s.samples} samples` : 'study'} · {s.profile_title}
                </td>
                <td>{s.repository.toUpperCase()}</td>
                <td>
                  <span className={`badge ${s.status === 'rejected' ? 'danger' : s.status === 'accepted' || s.status === 'published' ? 'ok' : ''}`}>
                    {s.status}
                  </span>
                  {running(s) && <span className="muted"> (attempt {Math.max(1, s.attempts)})</span>}
                </td>
                <td>
                  {accessions.slice(0, 12).map((a) => {
                    const href = accessionLink(a);
                    return (
                      <span key={a} className="mono" style={{ marginRight: '0.5rem' }}>
                        {href ? <a href={href}>{a}</a> : a}
                      </span>
                    );
                  })}
                  {accessions.length > 12 && <span className="muted">and {accessions.length - 12} more</span>}
                </td>
                <td>
                  {s.error && <p className="field-error">{s.error}</p>}
                  {s.receipts.length > 0 && (
                    <details>
                      <summary>{s.receipts.length} repository answers</summary>
                      <ol>
                        {s.receipts.map((r, i) => (
                          <li key={i}>
                            {new Date(r.at).toLocaleTimeString()} {r.kind}: {r.success === false ? 'refused' : 'ok'}
                            {r.submission && <span className="mono"> {r.submission}</span>}
                            {r.errors?.map((e) => <div key={e} className="field-error">{e}</div>)}
                          </li>
                        ))}
                      </ol>
                    </details>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
