'use client';

import Link from 'next/link';
import { DataTable, type TableDefinition } from '@/components/ui/data-table';
import { usePagedList } from '@/components/ui/use-paged-list';
import { When } from '@/components/ui/when';
import { apiPage } from '@/lib/client/api';
import type { Profile } from '@/lib/profiles/contract';
import { PROFILES_PAGE, PROFILES_PAGE_KEY } from './profile-query';

const TYPE_LABELS: Record<string, string> = {
  asg: 'ASG',
  dtol: 'DTOL',
  dtolenv: 'DTOL environmental',
  erga: 'ERGA',
  biodata: 'Biodata (studies)',
  genomics: 'Genomics (legacy)',
};

const table: TableDefinition<Profile> = {
  noun: 'profiles',
  rowKey: (p) => p.id,
  columns: [
    { id: 'title', header: 'Title', key: true, cell: (p) => <Link href={`/profiles/${p.id}`}>{p.title}</Link> },
    { id: 'type', header: 'Type', nowrap: true, cell: (p) => <span className="badge">{TYPE_LABELS[p.type] ?? p.type}</span> },
    {
      id: 'description',
      header: 'Description',
      cell: (p) => (p.description ? p.description : <span className="muted">—</span>),
    },
    {
      id: 'owner',
      header: 'Owner',
      cell: (p) =>
        p.role === 'owner' ? (
          'You'
        ) : (
          <>
            {p.owner} <span className="muted">(you: {p.role})</span>
          </>
        ),
    },
    { id: 'modified', header: 'Changed', cell: (p) => <When value={p.date_modified} /> },
    { id: 'created', header: 'Created', cell: (p) => <When value={p.date_created} day /> },
  ],
};

/** The caller's profiles and those shared with them (an admin's: all), most recently changed first, a page at a time. */
export function ProfilesTable() {
  const list = usePagedList({
    key: PROFILES_PAGE_KEY,
    limit: PROFILES_PAGE,
    fetch: (offset, limit) => apiPage('/api/profiles', { offset, limit }),
  });
  return (
    <DataTable
      caption="Your profiles and those shared with you, most recently changed first"
      table={table}
      {...list}
      empty={
        <p className="muted">
          No profiles yet. <Link href="/profiles/new">Create your first profile</Link>.
        </p>
      }
    />
  );
}
