import Link from 'next/link';
import type { Column } from '@/components/ui/data-table';
import { sampleName } from '@/components/ui/words';

type Named = { svc_id: string; TUBE_OR_WELL_ID?: string | null; SPECIMEN_ID?: string | null };

/** A list's first column of samples: the tube (else specimen, else id), linked to the sample's page. */
export const tubeColumn = <Row extends Named>(): Column<Row> => ({
  id: 'tube',
  header: 'Tube or well',
  key: true,
  nowrap: true,
  cell: (s) => (
    <Link href={`/samples/${s.svc_id}`} className="mono">
      {sampleName(s)}
    </Link>
  ),
});
