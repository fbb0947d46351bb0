import { When } from '@/components/ui/when';
import type { DisplayColumn } from '@/lib/browse/contract';
import { Accession, StatusWords } from './sample-state';

/**
 * The order columns are shown in: a sample as people know it (its tube, specimen and species) first, then where it
 * stands, so that these stay in view on a laptop and the rest scroll sideways inside the table; fields the list does
 * not name come after, in the API's order.
 */
const COLUMN_ORDER = [
  'TUBE_OR_WELL_ID',
  'SPECIMEN_ID',
  'SCIENTIFIC_NAME',
  'status',
  'biosampleAccession',
  'public_name',
  'tol_project',
  'TAXON_ID',
  'GAL',
  'time_created',
  'svc_id',
];
/** What a phone's card shows of a sample; the rest is on the sample's own page, a tap away. */
export const ON_PHONES = new Set(['TUBE_OR_WELL_ID', 'SPECIMEN_ID', 'SCIENTIFIC_NAME', 'status', 'biosampleAccession']);
export const rank = (field: string) => {
  const i = COLUMN_ORDER.indexOf(field);
  return i < 0 ? COLUMN_ORDER.length : i;
};

/** A value of the browser's table as a person reads it: a state in words, a species in italics, ids in type. */
export function Cell({ column, value }: { column: DisplayColumn; value: string | undefined }) {
  if (value === undefined || value === '') return <span className="muted">—</span>;
  if (column.field === 'status') return <StatusWords status={value} />;
  if (column.field === 'SCIENTIFIC_NAME') return <em>{value}</em>;
  if (column.field === 'time_created') return <When value={value.replace(/(\.\d{3})\d*/, '$1')} />;
  if (column.field === 'biosampleAccession') return <Accession value={value} />;
  if (column.field === 'tol_project') return <>{value.toUpperCase()}</>;
  if (['SPECIMEN_ID', 'TUBE_OR_WELL_ID', 'public_name', 'manifest_id'].includes(column.field)) return <span className="mono">{value}</span>;
  return <>{value}</>;
}
