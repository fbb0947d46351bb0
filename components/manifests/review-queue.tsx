'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { apiFetch } from '@/lib/client/api';

interface Pending {
  svc_id: string;
  manifest_id: string;
  tol_project: string;
  SPECIMEN_ID: string;
  RACK_OR_PLATE_ID: string;
  TUBE_OR_WELL_ID: string;
  SCIENTIFIC_NAME: string;
  TAXON_ID: string;
  time_created: string;
}
const PAGE = 50;

export function ReviewQueue() {
  const qc = useQueryClient();
  const [page, setPage] = useState(0);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [reason, setReason] = useState('');
  const q = useQuery({
    queryKey: ['pending-samples', page],
    queryFn: () => apiFetch<{ number_found: number; data: Pending[] }>(`/api/sample/pending?limit=${PAGE}&offset=${page * PAGE}`),
  });
  const decide = useMutation({
    mutationFn: (decision: 'accept' | 'reject') =>
      apiFetch<{ accepted: string[]; rejected: string[] }>('/api/sample/decision', {
        method: 'POST',
        json: { svc_ids: [...chosen], decision, ...(decision === 'reject' && reason.trim() && { reason: reason.trim() }) },
      }),
    onSuccess: () => {
      setChosen(new Set());
      setReason('');
      void qc.invalidateQueries({ queryKey: ['pending-samples'] });
    },
  });
  const register = useMutation({
    mutationFn: (svcIds: string[]) =>
      apiFetch<{ submission_id: string; samples: number }[]>('/api/sample/register', { method: 'POST', json: { svc_ids: svcIds } }),
  });
  const toggle = (id: string, on: boolean) =>
    setChosen((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  if (q.isPending) return <p aria-busy="true">Loading samples…</p>;
  if (q.isError) return <p role="alert" className="notice error">Could not load samples: {q.error.message}</p>;
  const pages = Math.max(1, Math.ceil(q.data.number_found / PAGE));
  return (
    <>
      {decide.isSuccess && (
        <div role="status" className="notice success">
          <p>{decide.data.accepted.length ? `${decide.data.accepted.length} accepted.` : `${decide.data.rejected.length} rejected.`}</p>
          {decide.data.accepted.length > 0 && !register.isSuccess && (
            <button type="button" className="primary" disabled={register.isPending} onClick={() => register.mutate(decide.data.accepted)}>
              {register.isPending ? 'Sending…' : `Register the ${decide.data.accepted.length} accepted samples at ENA`}
            </button>
          )}
          {register.isSuccess && (
            <p>
              Registration queued. Follow it on the <Link href="/submissions">Submissions</Link> page.
            </p>
          )}
          {register.isError && <p className="field-error">{register.error.message}</p>}
        </div>
      )}
      {decide.isError && <p role="alert" className="notice error">{decide.error.message}</p>}
      {q.data.data.length === 0 ? (
        <p className="muted">Nothing awaits your review.</p>
      ) : (
        <>
          <div className="inline" style={{ margin: '0.5rem 0' }}>
            <button className="primary" type="button" disabled={!chosen.size || decide.isPending} onClick={() => decide.mutate('accept')}>
              Accept selected ({chosen.size})
            </button>
            <label>
              Reason for rejecting
              <input value={reason} onChange={(e) => setReason(e.target.value)} placeholder="Sample rejected by curator." />
            </label>
            <button className="danger" type="button" disabled={!chosen.size || decide.isPending} onClick={() => decide.mutate('reject')}>
              Reject selected
            </button>
          </div>
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">Samples awaiting review</caption>
              <thead>
                <tr>
                  <th scope="col">
                    <span className="visually-hidden">Select</span>
                  </th>
                  <th scope="col">Project</th>
                  <th scope="col">Rack / tube</th>
                  <th scope="col">Specimen</th>
                  <th scope="col">Scientific name</th>
                  <th scope="col">Uploaded</th>
                </tr>
              </thead>
              <tbody>
                {q.data.data.map((s) => (
                  <tr key={s.svc_id}>
                    <td>
                      <input
                        type="checkbox"
                        aria-label={`Select sample ${s.TUBE_OR_WELL_ID}`}
                        checked={chosen.has(s.svc_id)}
                        onChange={(e) => toggle(s.svc_id, e.target.checked)}
                      />
                    </td>
                    <td>{s.tol_project}</td>
                    <td className="mono">
                      <Link href={`/samples/${s.svc_id}`}>
                        {s.RACK_OR_PLATE_ID ? `${s.RACK_OR_PLATE_ID} / ` : ''}
                        {s.TUBE_OR_WELL_ID}
                      </Link>
                    </td>
                    <td className="mono">{s.SPECIMEN_ID}</td>
                    <td>
                      <em>{s.SCIENTIFIC_NAME}</em> <span className="muted">({s.TAXON_ID})</span>
                    </td>
                    <td>{new Date(s.time_created).toLocaleString()}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <nav aria-label="Pages" className="inline" style={{ marginTop: '0.5rem' }}>
            <button type="button" disabled={page === 0} onClick={() => setPage((p) => p - 1)}>
              Previous
            </button>
            <span>
              Page {page + 1} of {pages} ({q.data.number_found} samples)
            </span>
            <button type="button" disabled={page + 1 >= pages} onClick={() => setPage((p) => p + 1)}>
              Next
            </button>
          </nav>
        </>
      )}
    </>
  );
}
