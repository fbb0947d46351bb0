import type { Repository } from '@/db/schema';

/** The term types of the schema workbooks' `data` sheet. */
export const TERM_TYPES = [
  'string',
  'enum',
  'file',
  'ontology',
  'BIOSAMPLEACCESSION_FIELD',
  'BIOSAMPLEACCESSION_EXT_FIELD',
] as const;
export type TermType = (typeof TERM_TYPES)[number];

/** One term of a checklist, as the schema workbook defines it (studies-and-checklists.md §2). */
export interface FieldDefinition {
  /** machine key, and the key under which values are stored */
  termName: string;
  /** the spreadsheet column header */
  label: string;
  description: string;
  example: string;
  type: TermType;
  /** `M` in the checklist column; `O` is optional */
  mandatory: boolean;
  cardinality: 'single' | 'multiple';
  namespacePrefix: string;
  /** enum terms: the values from the `allowed_values` sheet, as text */
  allowedValues?: string[];
  /** string terms: the pattern, applied anchored at the start only (Python `re.match`) */
  regex?: string;
  errorMessage?: string;
  /** the row identifier of its component (unique within the sheet) */
  identifier: boolean;
  /** prefix for identifiers generated in templates, e.g. LIBPREP */
  identifierPrefix?: string;
  /** the value must be one of the identifiers of that component */
  referencedComponent?: string;
  /** term_reference: an IRI, or for ontology terms the ancestor CURIE (e.g. CL:0000000) */
  reference?: string;
  /** copo_name: key of the term mapping used when building ENA XML */
  mappingKey?: string;
  /** the ENA attribute name that mappingKey maps to */
  enaName?: string;
}

/** One sheet of a study spreadsheet. */
export interface ComponentDefinition {
  key: string;
  name: string;
  description: string;
  /** `component_required` of the REMBI workbook; informational, never enforced */
  required: boolean;
  /** the repository object each repository receives for this component, e.g. {ena: 'study', zenodo: 'study'} */
  repositories: Partial<Record<Repository, string>>;
  fields: FieldDefinition[];
}

/** What the `fields` column of a checklist row holds: the checklist's components in schema order with their terms. */
export type ChecklistFields = ComponentDefinition[];
