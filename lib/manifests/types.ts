/**
 * Public types of the Tree of Life manifest library. Everything here is plain, JSON-serialisable data (no classes,
 * no RegExp, no Sets) so definitions and reports can be stored in the database and sent over HTTP unchanged.
 */

import { TOL_PROJECTS, type TolProject } from '@/lib/projects/contract';
import type { Issue, ParsedRow, ReportMode, RowMatch, TaxonomyLookup } from './contract';

export type { TaxonomyLookup } from './contract';

// the shapes that are stored or sent are zod schemas in the contract; these are the library's own
export {
  type FieldDefinition,
  type FieldKind,
  type Issue,
  type ManifestDefinition,
  MISSING_VALUE_TOKENS,
  type MissingValueToken,
  type ParsedRow,
  type TaxonRecord,
} from './contract';

/** Every Tree of Life project has manifests of its own. */
export const MANIFEST_PROJECTS = TOL_PROJECTS;
export type ManifestProject = TolProject;

// ---------------------------------------------------------------------------------------------------------------
// Parsing

export interface ParsedManifest {
  /** header cells in sheet order, trimmed; columns without a header are dropped */
  headers: string[];
  /** the spreadsheet column letter of each header (parallel to `headers`); absent means A, B, C… in order */
  columns?: string[];
  rows: ParsedRow[];
}

// ---------------------------------------------------------------------------------------------------------------
// Validation

export interface ValidationResult {
  errors: Issue[];
  warnings: Issue[];
  /** data rows validated (template pre-fill rows excluded) */
  rows: number;
  /**
   * The rows after the auto-corrections the warnings announce (canonical vocabulary spelling, filled TAXON_ID and
   * lineage, barcoding NOT_APPLICABLE, symbionts copied from their target, …), keyed by field name; only fields of
   * the definition are kept. Meant to be stored with a complete report and reused when samples are created.
   */
  normalised: ParsedRow[];
  /** 'update' when some row's rack/tube already belongs to a sample of this profile (docs/tol-manifests.md §2.6) */
  mode: ReportMode;
  /** rows matching a stored sample of this profile: the sample to update */
  matches: RowMatch[];
}

/** A stored sample, as much of it as the cross-manifest checks need. */
export interface ExistingSample {
  sampleId: string;
  profileId: string;
  /** '' for ERGA, which has no rack column */
  rackOrPlateId: string;
  tubeOrWellId: string;
  specimenId: string;
  taxonId: string;
  symbiont: 'TARGET' | 'SYMBIONT';
}

export interface RackTube {
  rackOrPlateId: string;
  tubeOrWellId: string;
}

/** Look-ups into stored samples, batched: each is called at most once per validation with every key needed. */
export interface ExistingSamples {
  /** stored samples (any profile) having one of these rack/tube pairs */
  byRackTube(pairs: RackTube[]): Promise<ExistingSample[]>;
  /** stored TARGET samples (any profile) having one of these SPECIMEN_IDs */
  bySpecimenId(specimenIds: string[]): Promise<ExistingSample[]>;
}

export interface ValidationContext {
  taxonomy: TaxonomyLookup;
  existingSamples: ExistingSamples;
  /** the profile the manifest is uploaded to */
  profileId: string;
  /** for messages ("Invalid associated profile type for profile, <title>") */
  profileTitle?: string;
  /**
   * The profile's associated project types (ERGA: BGE, POP_GENOMICS, …). Drives the POP_GENOMICS rules; when
   * omitted those rules are skipped.
   */
  associatedProjectTypes?: string[];
  /** "now" for the not-in-the-future checks; defaults to the clock */
  now?: Date;
  /** more data rows than this is an error (reference: 1000); Infinity disables the check */
  maxRows?: number;
}
