'use client';

import Link from 'next/link';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useEffect } from 'react';
import { SampleState, UNSETTLED } from '@/components/samples/sample-state';
import { DataTable, type TableDefinition } from '@/components/ui/data-table';
import { When } from '@/components/ui/when';
import { withParams } from '@/lib/client/search';
import type { ManifestSample } from '@/lib/reports/confirmed';

const rackTube = (s: ManifestSample) => `${s.rackOrPlateId ? `${s.rackOrPlateId} / ` : ''}${s.tubeOrWellId ?? ''}`;

const table: TableDefinition<ManifestSample> = {
  noun: 'samples',
  rowKey: (s) => s.id,
  columns: [
    {
      id: 'tube',
      header: 'Rack / tube',
      key: true,
      cell: (s) => (
        <Link className="mono" href={`/samples/${s.id}`}>
          {rackTube(s) || s.id}
        </Link>
      ),
    },
    {
      id: 'state',
      header: 'State',
      cell: (s) => <SampleState sample={s} />,
    },
    { id: 'specimen', header: 'Specimen', cell: (s) => <span className="mono">{s.specimenId}</span> },
    {
      id: 'taxon',
      header: 'Scientific name',
      cell: (s) => (
        <>
          <em>{s.scientificName}</em> <span className="muted">({s.taxonId})</span>
          {s.symbiont === 'SYMBIONT' ? <span className="muted"> · symbiont</span> : null}
        </>
      ),
    },
    { id: 'updated', header: 'Last change', cell: (s) => <When value={s.timeUpdated} /> },
  ],
};

/** A confirmed manifest's samples with where each stands, a page at a time (`offset` in the URL). */
export function ManifestSamples({ rows, total, offset, limit }: { rows: ManifestSample[]; total: number; offset: number; limit: number }) {
  const pathname = usePathname();
  const search = useSearchParams();
  const router = useRouter();
  // samples on their way (ToLID, registration) are followed until they settle
  const moving = rows.some((s) => UNSETTLED.has(s.status));
  useEffect(() => {
    if (!moving) return;
    const timer = setInterval(() => router.refresh(), 3000);
    return () => clearInterval(timer);
  }, [moving, router]);
  return (
    <DataTable
      caption="Samples of this manifest"
      table={table}
      rows={rows}
      page={{ offset, limit, total, hrefFor: (o) => withParams(pathname, search, { offset: o ? String(o) : undefined }) }}
    />
  );
}
