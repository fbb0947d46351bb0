import type { ComponentDefinition, FieldDefinition } from '@/lib/checklists/contract';
import type { ReportEntry, StudyComponents } from './contract';
import type { ParsedSheet } from './read';

export type { ReportEntry, StudyComponents } from './contract';

/** A biosample the sheet may reference, as the study rules compare it. */
export interface KnownSample {
  taxonId: string | null;
  scientificName: string | null;
  fields: Record<string, string>;
  /** registered from one of the profile's manifests or sample sheets, or known to ENA */
  source: 'profile' | 'ena';
}

/**
 * What the Ontology Lookup Service said of each value of the study's ontology terms, by verdictKey
 * (lib/studies/ontology-terms.ts); a value absent could not be checked.
 */
export type OntologyVerdicts = ReadonlyMap<string, 'known' | 'unknown'>;

export interface ValidationContext {
  /** biosample accession → the profile's sample with it */
  samples: ReadonlyMap<string, KnownSample>;
  /**
   * a value (lower-cased) that names one of the profile's biodata samples not registered at ENA yet, by its alias or
   * svc_id → its alias and state: the study must wait until it is registered
   */
  unregistered?: ReadonlyMap<string, { alias: string; status: string }>;
  /** the ontology terms' verdicts; absent: none could be checked, which the report says */
  ontology?: OntologyVerdicts;
  /** names of the data files uploaded to the profile; absent = not checked */
  profileFiles?: ReadonlySet<string>;
}

export interface ValidationResult {
  studyId: string | null;
  components: StudyComponents;
  errors: ReportEntry[];
  warnings: ReportEntry[];
}

/** One sheet of the upload, checked on its own, with its columns resolved to terms. */
export interface SheetData {
  sheet: ParsedSheet;
  component: ComponentDefinition;
  /** column number → field */
  columns: Map<number, FieldDefinition>;
  rows: { rowNumber: number; values: Record<string, string>; cols: Record<string, number> }[];
}
