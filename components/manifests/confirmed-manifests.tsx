'use client';

import Link from 'next/link';
import { usePathname, useSearchParams } from 'next/navigation';
import { DataTable, type TableDefinition } from '@/components/ui/data-table';
import { When } from '@/components/ui/when';
import { plural } from '@/components/ui/words';
import { withParams } from '@/lib/client/search';
import { manifestTypeOf } from '@/lib/projects/lists';
import type { ConfirmedManifest } from '@/lib/reports/confirmed';

const table: TableDefinition<ConfirmedManifest> = {
  noun: 'manifests',
  rowKey: (m) => m.id,
  columns: [
    {
      id: 'manifest',
      header: 'Manifest',
      key: true,
      cell: (m) => <Link href={`/manifests/${m.id}`}>{m.fileName || `Manifest ${m.id}`}</Link>,
    },
    { id: 'profile', header: 'Profile', cell: (m) => <Link href={`/profiles/${m.profileId}`}>{m.profileTitle}</Link> },
    { id: 'project', header: 'Project', nowrap: true, cell: (m) => `${manifestTypeOf(m.project)} ${m.version}` },
    { id: 'samples', header: 'Samples', numeric: true, nowrap: true, cell: (m) => plural(m.samples, 'sample') },
    { id: 'confirmed', header: 'Confirmed', cell: (m) => <When value={m.createdAt} /> },
  ],
};

/** The manifests confirmed so far, a page at a time (the page lives in the URL as `manifests`). */
export function ConfirmedManifests({
  rows,
  total,
  offset,
  limit,
}: {
  rows: ConfirmedManifest[];
  total: number;
  offset: number;
  limit: number;
}) {
  const pathname = usePathname();
  const search = useSearchParams();
  return (
    <DataTable
      caption="Confirmed manifests"
      table={table}
      rows={rows}
      empty="No manifests confirmed yet: upload one above, and confirm its report once it has no errors."
      page={{ offset, limit, total, hrefFor: (o) => withParams(pathname, search, { manifests: o ? String(o) : undefined }) }}
    />
  );
}
