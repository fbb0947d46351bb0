import type { ChecklistField, SampleChecklist } from '@/lib/sample-checklists/contract';
import { unitColumn } from './contract';

/**
 * The columns of a checklist's sample sheet, in the order the template gives them: the sample's alias (`sample`), its
 * TAXON_ID and SCIENTIFIC_NAME, then the checklist's fields, the mandatory ones first, each followed by its unit's
 * column when it has units. COPO's fields for the alias, taxon id and scientific name are those first columns.
 */

export const ALIAS = 'sample';
export const TAXON_ID = 'TAXON_ID';
export const SCIENTIFIC_NAME = 'SCIENTIFIC_NAME';

export type SheetColumn =
  | { kind: 'alias' | 'taxon_id' | 'scientific_name'; header: string; field?: ChecklistField; required: true }
  | { kind: 'field'; header: string; field: ChecklistField; required: boolean }
  | { kind: 'unit'; header: string; field: ChecklistField; required: boolean };

const RANK = { mandatory: 0, recommended: 1, optional: 2 } as const;

/** The fields a sheet has a column for (not the ones the alias, taxon id and name columns stand for), mandatory first. */
export function sheetFields(checklist: SampleChecklist): ChecklistField[] {
  return checklist.fields
    .filter((f) => !f.role)
    .map((f, i) => ({ f, i }))
    .sort((a, b) => RANK[a.f.requirement] - RANK[b.f.requirement] || a.i - b.i)
    .map(({ f }) => f);
}

export function sheetColumns(checklist: SampleChecklist): SheetColumn[] {
  const role = (r: ChecklistField['role']) => checklist.fields.find((f) => f.role === r);
  const columns: SheetColumn[] = [
    { kind: 'alias', header: ALIAS, field: role('alias'), required: true },
    { kind: 'taxon_id', header: TAXON_ID, field: role('taxon_id'), required: true },
    { kind: 'scientific_name', header: SCIENTIFIC_NAME, field: role('scientific_name'), required: true },
  ];
  for (const field of sheetFields(checklist)) {
    const required = field.requirement === 'mandatory';
    columns.push({ kind: 'field', header: field.name, field, required });
    if (field.units?.length) columns.push({ kind: 'unit', header: unitColumn(field.name), field, required });
  }
  return columns;
}
