import type { ComponentDefinition, FieldDefinition } from '@/lib/checklists/types';
import type { ParsedSheet } from './read';

/** A study's data: component key → rows of term_name → value (non-empty values only). */
export type StudyComponents = Record<string, Record<string, string>[]>;

/** One problem of an uploaded spreadsheet, at the place the submitter sees it (Excel row numbers). */
export interface ReportEntry {
  sheet: string;
  /** Excel row number; null for a problem of the whole sheet or column */
  row: number | null;
  /** the column header as in the file (or the label of a missing column) */
  column: string | null;
  value: string | null;
  message: string;
  /** `sheet!C5`, `sheet!C` or `sheet`: where to look, also the `path` of a problem+json error */
  path: string;
}

/** A biosample registered in the profile, as the study rules compare it. */
export interface KnownSample {
  taxonId: string | null;
  scientificName: string | null;
  fields: Record<string, string>;
}

export interface ValidationContext {
  /** biosample accession → the profile's sample with it */
  samples: ReadonlyMap<string, KnownSample>;
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

