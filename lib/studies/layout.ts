import type { FieldDefinition } from '@/lib/checklists/contract';

/** The layout shared by templates, exports and the upload parser (docs/studies-and-checklists.md §9, §10). */
export const FIRST_DATA_ROW = 5;
export const SEPARATOR_TEXT = 'FILL OUT INFORMATION BELOW THIS LINE';
export const OPTIONAL_SUFFIX = ' (optional)';
/** hidden sheet holding long drop-down lists; ignored on upload */
export const DATA_VALUES_SHEET = 'data_values';
/** rows prepared with drop-downs and convenience formulas in a template */
export const TEMPLATE_ROWS = 100;

export const headerOf = (field: FieldDefinition) => (field.mandatory ? field.label : `${field.label}${OPTIONAL_SUFFIX}`);

/** A header as the term it names: its label without the optional suffix, or the term name itself. */
export function fieldForHeader(fields: readonly FieldDefinition[], header: string): FieldDefinition | undefined {
  const bare = header.replace(/\(optional\)\s*$/i, '').trim();
  return fields.find((f) => f.label === bare) ?? fields.find((f) => f.termName === bare);
}

export { columnLetter } from '@/lib/spreadsheets/columns';
