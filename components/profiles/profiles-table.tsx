'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { usePathname, useSearchParams } from 'next/navigation';
import { fetchPage } from '@/components/admin/api-page';
import { type Column, DataTable } from '@/components/ui/data-table';
import { When } from '@/components/ui/when';
import { withParams } from '@/lib/client/search';
import type { Profile } from '@/lib/profiles/contract';

const PAGE = 50;
const TYPE_LABELS: Record<string, string> = {
  asg: 'ASG',
  dtol: 'DTOL',
  dtolenv: 'DTOL environmental',
  erga: 'ERGA',
  biodata: 'Biodata (studies)',
  genomics: 'Genomics (legacy)',
};

const columns: Column<Profile>[] = [
  { id: 'title', header: 'Title', key: true, cell: (p) => <Link href={`/profiles/${p.id}`}>{p.title}</Link> },
  { id: 'type', header: 'Type', nowrap: true, cell: (p) => <span className="badge">{TYPE_LABELS[p.type] ?? p.type}</span> },
  {
    id: 'description',
    header: 'Description',
    cell: (p) => (p.description ? p.description : <span className="muted">—</span>),
  },
  { id: 'modified', header: 'Changed', cell: (p) => <When value={p.date_modified} /> },
  { id: 'created', header: 'Created', cell: (p) => <When value={p.date_created} day /> },
];

/** The caller's profiles (an admin's: all), most recently changed first, a page at a time. */
export function ProfilesTable() {
  const pathname = usePathname();
  const search = useSearchParams();
  const offset = Math.max(0, Number(search.get('offset')) || 0);
  const q = useQuery({
    queryKey: ['profiles', 'page', offset],
    queryFn: () => fetchPage<Profile>(`/api/profiles?limit=${PAGE}&offset=${offset}`),
    placeholderData: keepPreviousData,
  });
  return (
    <DataTable
      caption="Your profiles, most recently changed first"
      columns={columns}
      rows={q.data?.rows}
      rowKey={(p) => p.id}
      noun="profiles"
      query={q}
      empty={
        <p className="muted">
          No profiles yet. <Link href="/profiles/new">Create your first profile</Link>.
        </p>
      }
      page={{
        offset,
        limit: PAGE,
        total: q.data?.total ?? 0,
        hrefFor: (o) => withParams(pathname, search, { offset: o ? String(o) : undefined }),
      }}
    />
  );
}
