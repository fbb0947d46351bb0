/**
 * Public types of the Tree of Life manifest library. Everything here is plain, JSON-serialisable data (no classes,
 * no RegExp, no Sets) so definitions and reports can be stored in the database and sent over HTTP unchanged.
 */

export const MANIFEST_PROJECTS = ['asg', 'dtol', 'dtolenv', 'erga'] as const;
export type ManifestProject = (typeof MANIFEST_PROJECTS)[number];

/** The three tokens a submitter writes instead of a value (tol-manifests.md §1.5). */
export const MISSING_VALUE_TOKENS = ['NOT_COLLECTED', 'NOT_PROVIDED', 'NOT_APPLICABLE'] as const;
export type MissingValueToken = (typeof MISSING_VALUE_TOKENS)[number];

/**
 * How the rules engine reads a cell. Most fields are `text` (anything) or `enum` (allowedValues); the others name a
 * parser with its own rule code and message.
 */
export type FieldKind =
  | 'text'
  | 'enum'
  /** several allowed values separated by `|` (ORGANISM_PART) */
  | 'enum_list'
  | 'integer'
  /** a decimal number, checked against `pattern` (hours elapsed, depth, elevation) */
  | 'number'
  /** ENA collection date: YYYY[-MM[-DD]][Thh:mm[:ss][Z][±h]][/end] */
  | 'date_ena'
  /** strictly YYYY-MM-DD */
  | 'date_iso'
  | 'time'
  | 'latitude'
  | 'longitude'
  /** `Country | region | locality` */
  | 'location'
  | 'url'
  /** one or more URLs separated by `|` */
  | 'url_list'
  /** free text checked against `pattern` */
  | 'pattern';

export interface StandardNames {
  tol: string;
  dwc: string | null;
  ena: string | null;
  mixs: string | null;
}

export interface FieldDefinition {
  /** upper snake case, as in the template header */
  name: string;
  label: string;
  /** the template's column letter (A, B, … CM) */
  column: string;
  /** the template's colour block (1 = ids, 2 = taxonomy, …) when the layout file names one */
  block: string | null;
  /** the cell must not be empty (a missing-value token satisfies this) */
  required: boolean;
  kind: FieldKind;
  /** the vocabulary, canonical spelling, for `enum` and `enum_list` fields */
  allowedValues: string[] | null;
  /**
   * Accept a value that equals an allowed value after trimming, unifying `_`/`-`/space and ignoring case; it is
   * replaced by the canonical spelling with a warning (ERGA enums, DTOL/ASG LIFESTAGE; tol-manifests.md §1.5, §8.1).
   */
  normaliseValues: boolean;
  /**
   * Anchored regex source; tested case-insensitively after turning `_` into spaces, as the reference does, so that
   * `NOT_COLLECTED` satisfies a `not collected` alternative.
   */
  pattern: string | null;
  /** the human wording of the pattern or kind, for messages ("YYYY-MM-DD, YYYY-MM, YYYY, …") */
  patternDescription: string | null;
  /** a pattern mismatch is only a warning (the FluidX rack/tube format) */
  patternIsWarning: boolean;
  /** which of NOT_COLLECTED / NOT_PROVIDED / NOT_APPLICABLE are valid values of this field */
  missingValueTokens: MissingValueToken[];
  /** numeric range for coordinates */
  min: number | null;
  max: number | null;
  /** at most this many decimals (ORIGINAL_DECIMAL_LATITUDE/LONGITUDE) */
  maxDecimals: number | null;
  unit: string | null;
  /** may be changed by a re-upload after the sample is accessioned (not "compliant", tol-manifests.md §4.3) */
  updatable: boolean;
  /** shown by the API: `show_in_api` and not sensitive */
  export: boolean;
  /** never leaves the API (ORCIDs, traditional-knowledge contact) */
  sensitive: boolean;
  standards: StandardNames;
}

export interface ManifestDefinition {
  project: ManifestProject;
  version: string;
  /** the version new uploads of this project are validated against */
  current: boolean;
  /** the reference's upper-case type name (DTOL, ASG, ERGA, DTOLENV) */
  manifestType: string;
  /** ordered as the template's columns */
  fields: FieldDefinition[];
}

// ---------------------------------------------------------------------------------------------------------------
// Parsing

export interface ParsedRow {
  /** the Excel row number the user sees (header = 1, first data row = 2) */
  rowNumber: number;
  /** cell text keyed by header; empty cells are '' or absent */
  values: Record<string, string>;
}

export interface ParsedManifest {
  /** header cells in sheet order, trimmed; columns without a header are dropped */
  headers: string[];
  /** the spreadsheet column letter of each header (parallel to `headers`); absent means A, B, C… in order */
  columns?: string[];
  rows: ParsedRow[];
}

// ---------------------------------------------------------------------------------------------------------------
// Validation

export interface Issue {
  /** spreadsheet row as the user sees it, or null for sheet-level issues */
  row: number | null;
  /** the spreadsheet column letter of the cell in the uploaded sheet (with `row`, the cell address) */
  column: string | null;
  /** the field definition's name */
  field: string | null;
  value: string | null;
  /** stable machine code, e.g. 'mandatory', 'vocabulary', 'rack_tube_duplicate' */
  rule: string;
  message: string;
}

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
  /** 'update' when some row's rack/tube already belongs to a sample of this profile (tol-manifests.md §2.6) */
  mode: 'create' | 'update';
  /** rows matching a stored sample of this profile: the sample to update */
  matches: { row: number; sampleId: string }[];
}

/**
 * A taxon as ENA's taxonomy REST service returns it (`/ena/taxonomy/rest/tax-id/{id}` gives one,
 * `/scientific-name/{name}` an array). Booleans come as the strings "true"/"false".
 */
export interface TaxonRecord {
  taxId: string;
  scientificName: string;
  commonName?: string;
  formalName?: string;
  rank: string;
  division: string;
  /** "Eukaryota; Metazoa; …; Aglais; " — names only, highest first */
  lineage: string;
  geneticCode?: string;
  mitochondrialGeneticCode?: string;
  submittable: string;
  binomial?: string;
}

/**
 * Taxonomy look-ups, injected so that the database-cached ENA client serves production and a fixed table serves tests.
 * `byScientificName` should also match synonyms (ENA's any-name search), so that a synonym can be recognised.
 * Throwing means the service is unavailable; validation then throws TaxonomyUnavailableError.
 */
export interface TaxonomyLookup {
  byTaxId(taxId: string): Promise<TaxonRecord | null>;
  byScientificName(name: string): Promise<TaxonRecord[]>;
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
