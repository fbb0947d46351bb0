'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { apiFetch } from '@/lib/client/api';
import type { ProfileJson } from './types';

type Row = ProfileJson & { counts?: { manifests: number; samples: number; studies: number } };

export function ProfilesTable() {
  const q = useQuery({ queryKey: ['profiles'], queryFn: () => apiFetch<Row[]>('/api/profiles') });
  if (q.isPending) return <p aria-busy="true">Loading profiles…</p>;
  if (q.isError)
    return (
      <p role="alert" className="notice error">
        Could not load profiles: {q.error.message}
      </p>
    );
  if (q.data.length === 0)
    return (
      <p className="muted">
        No profiles yet. <Link href="/profiles/new">Create your first profile</Link>.
      </p>
    );
  const withCounts = q.data.some((p) => p.counts);
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">Your profiles</caption>
        <thead>
          <tr>
            <th scope="col">Title</th>
            <th scope="col">Type</th>
            {withCounts && (
              <>
                <th scope="col">Manifests</th>
                <th scope="col">Samples</th>
                <th scope="col">Studies</th>
              </>
            )}
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {q.data.map((p) => (
            <tr key={p.id}>
              <td>
                <Link href={`/profiles/${p.id}`}>{p.title}</Link>
              </td>
              <td>
                <span className="badge">{p.type.toUpperCase()}</span>
              </td>
              {withCounts && (
                <>
                  <td>{p.counts?.manifests ?? 0}</td>
                  <td>{p.counts?.samples ?? 0}</td>
                  <td>{p.counts?.studies ?? 0}</td>
                </>
              )}
              <td>{new Date(p.date_created).toLocaleDateString()}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
