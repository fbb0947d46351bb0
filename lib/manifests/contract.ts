import { z } from 'zod';
import { ProfileIdSchema } from '../identifiers/contract';
import { TOL_PROJECTS, type TolProject, TolProjectSchema } from '../projects/contract';
import { PREFILL_DEFAULT_ROWS, PREFILL_MAX_ROWS } from './template-limits';

/**
 * Tree of Life manifests at the boundary: the stored definitions, what validating one finds (issues, changes, the rows
 * kept for its confirmation) and the blank template. The validation report itself, its upload and its confirmation
 * are the report module's contract (lib/reports/contract.ts).
 */

// ---------------------------------------------------------------------------------------------------------------
// Definitions (manifest_definitions.definition)

/** The three tokens a submitter writes instead of a value (docs/tol-manifests.md §1.5). */
export const MISSING_VALUE_TOKENS = ['NOT_COLLECTED', 'NOT_PROVIDED', 'NOT_APPLICABLE'] as const;
export const MissingValueTokenSchema = z.enum(MISSING_VALUE_TOKENS);
export type MissingValueToken = z.infer<typeof MissingValueTokenSchema>;

/**
 * How the rules engine reads a cell. Most fields are `text` (anything) or `enum` (allowedValues); the others name a
 * parser with its own rule code and message: `enum_list` (several allowed values separated by `|`, ORGANISM_PART),
 * `number` (a decimal checked against `pattern`), `date_ena` (YYYY[-MM[-DD]][Thh:mm[:ss][Z][±h]][/end]), `date_iso`
 * (strictly YYYY-MM-DD), `location` (`Country | region | locality`), `url_list` (URLs separated by `|`) and
 * `pattern` (free text checked against `pattern`).
 */
export const FieldKindSchema = z.enum([
  'text',
  'enum',
  'enum_list',
  'integer',
  'number',
  'date_ena',
  'date_iso',
  'time',
  'latitude',
  'longitude',
  'location',
  'url',
  'url_list',
  'pattern',
]);
export type FieldKind = z.infer<typeof FieldKindSchema>;

const StandardNamesSchema = z.object({
  tol: z.string(),
  dwc: z.string().nullable(),
  ena: z.string().nullable(),
  mixs: z.string().nullable(),
});

export const FieldDefinitionSchema = z.object({
  /** upper snake case, as in the template header */
  name: z.string(),
  label: z.string(),
  /** the template's column letter (A, B, … CM) */
  column: z.string(),
  /** the template's colour block (1 = ids, 2 = taxonomy, …) when the layout file names one */
  block: z.string().nullable(),
  /** the cell must not be empty (a missing-value token satisfies this) */
  required: z.boolean(),
  kind: FieldKindSchema,
  /** the vocabulary, canonical spelling, for `enum` and `enum_list` fields */
  allowedValues: z.array(z.string()).nullable(),
  /**
   * Accept a value that equals an allowed value after trimming, unifying `_`/`-`/space and ignoring case; it is
   * replaced by the canonical spelling with a warning (ERGA enums, DTOL/ASG LIFESTAGE; docs/tol-manifests.md §1.5, §8.1).
   */
  normaliseValues: z.boolean(),
  /**
   * Anchored regex source; tested case-insensitively after turning `_` into spaces, as the reference does, so that
   * `NOT_COLLECTED` satisfies a `not collected` alternative.
   */
  pattern: z.string().nullable(),
  /** the human wording of the pattern or kind, for messages ("YYYY-MM-DD, YYYY-MM, YYYY, …") */
  patternDescription: z.string().nullable(),
  /** a pattern mismatch is only a warning (the FluidX rack/tube format) */
  patternIsWarning: z.boolean(),
  /** which of NOT_COLLECTED / NOT_PROVIDED / NOT_APPLICABLE are valid values of this field */
  missingValueTokens: z.array(MissingValueTokenSchema),
  /** numeric range for coordinates */
  min: z.number().nullable(),
  max: z.number().nullable(),
  /** at most this many decimals (ORIGINAL_DECIMAL_LATITUDE/LONGITUDE) */
  maxDecimals: z.number().int().nullable(),
  unit: z.string().nullable(),
  /** may be changed by a re-upload after the sample is accessioned (not "compliant", docs/tol-manifests.md §4.3) */
  updatable: z.boolean(),
  /** shown by the API: `show_in_api` and not sensitive */
  export: z.boolean(),
  /** never leaves the API (ORCIDs, traditional-knowledge contact) */
  sensitive: z.boolean(),
  standards: StandardNamesSchema,
});
export type FieldDefinition = z.infer<typeof FieldDefinitionSchema>;

export const ManifestDefinitionSchema = z.object({
  project: TolProjectSchema,
  version: z.string(),
  /** the version new uploads of this project are validated against */
  current: z.boolean(),
  /** the reference's upper-case type name (DTOL, ASG, ERGA, DTOLENV) */
  manifestType: z.string(),
  /** ordered as the template's columns */
  fields: z.array(FieldDefinitionSchema),
});
export type ManifestDefinition = z.infer<typeof ManifestDefinitionSchema>;

/**
 * A taxon as ENA's taxonomy REST service returns it (`/ena/taxonomy/rest/tax-id/{id}` gives one,
 * `/scientific-name/{name}` an array); what taxonomy_cache keeps. Booleans come as the strings "true"/"false".
 */
export const TaxonRecordSchema = z.object({
  taxId: z.string(),
  scientificName: z.string(),
  commonName: z.string().optional(),
  formalName: z.string().optional(),
  rank: z.string(),
  division: z.string(),
  /** "Eukaryota; Metazoa; …; Aglais; " — names only, highest first */
  lineage: z.string(),
  geneticCode: z.string().optional(),
  mitochondrialGeneticCode: z.string().optional(),
  submittable: z.string(),
  binomial: z.string().optional(),
});
export type TaxonRecord = z.infer<typeof TaxonRecordSchema>;

// ---------------------------------------------------------------------------------------------------------------
// What validating a manifest finds

/** The upper-case project names the reference gives manifest types (DTOL, ASG, ERGA, DTOLENV). */
export const ManifestTypeSchema = z
  .enum(TOL_PROJECTS.map((p) => p.toUpperCase() as Uppercase<TolProject>))
  .meta({ description: 'the manifest type: the project, upper case', example: 'DTOL' });
export { manifestTypeOf } from '../projects/lists';

/** An issue's weight: what the rule catalogue gives each rule, and how a report groups its issues. */
export const IssueSeveritySchema = z.enum(['error', 'warning']).meta({ description: 'an error blocks confirming; a warning does not' });
export type IssueSeverity = z.infer<typeof IssueSeveritySchema>;

/** One error or warning of a validation, at a cell, a row or the whole sheet. */
export const IssueSchema = z
  .object({
    row: z.number().int().nullable().meta({ description: 'spreadsheet row as the user sees it; null for sheet-level issues' }),
    column: z.string().nullable().meta({ description: 'the column letter of the cell in the uploaded sheet', example: 'C' }),
    field: z.string().nullable().meta({ description: 'the field name', example: 'SPECIMEN_ID' }),
    value: z.string().nullable(),
    rule: z.string().meta({ description: 'a stable code, e.g. mandatory, vocabulary, rack_tube_duplicate' }),
    message: z.string(),
    tube: z
      .string()
      .optional()
      .meta({ description: 'the TUBE_OR_WELL_ID of the issue’s row, as people know a sample; absent when the row names none' }),
  })
  .meta({ id: 'ValidationIssue' });
export type Issue = z.infer<typeof IssueSchema>;

/** One field of a stored sample that a re-uploaded manifest changes. */
export const FieldChangeSchema = z
  .object({
    sampleId: z.string().meta({ description: 'the svc_id of the sample' }),
    row: z.number().int(),
    field: z.string(),
    oldValue: z.string(),
    newValue: z.string(),
  })
  .meta({ id: 'FieldChange' });
export type FieldChange = z.infer<typeof FieldChangeSchema>;

/** create: every row is a new sample; update: some row's rack/tube is already a sample of the profile (a re-upload). */
export const ReportModeSchema = z.enum(['create', 'update']);
export type ReportMode = z.infer<typeof ReportModeSchema>;

/** A spreadsheet row: cell text keyed by header; empty cells are '' or absent. */
export const ParsedRowSchema = z.object({
  /** the Excel row number the user sees (header = 1, first data row = 2) */
  rowNumber: z.number().int(),
  values: z.record(z.string(), z.string()),
});
export type ParsedRow = z.infer<typeof ParsedRowSchema>;

/** A row matching a stored sample of the profile: the sample a re-upload updates. */
export const RowMatchSchema = z.object({ row: z.number().int(), sampleId: z.string() });
export type RowMatch = z.infer<typeof RowMatchSchema>;

/** What an error-free report keeps for its confirmation (validation_reports.rows), so confirming does not parse again. */
export const ReportRowsSchema = z.object({ normalised: z.array(ParsedRowSchema), matches: z.array(RowMatchSchema) });
export type ReportRows = z.infer<typeof ReportRowsSchema>;

/**
 * The same rows as the table keeps them (lib/manifests/stored-rows.ts): the field names once, and each row as its
 * number followed by its values in the names' order, null where it has none.
 */
export const StoredReportRowsSchema = z.object({
  fields: z.array(z.string()),
  normalised: z.array(z.array(z.union([z.number(), z.string(), z.null()]))),
  matches: z.array(RowMatchSchema),
});
export type StoredReportRows = z.infer<typeof StoredReportRowsSchema>;

// ---------------------------------------------------------------------------------------------------------------
// The blank template, and uploads that cannot be read as a manifest

export { PREFILL_DEFAULT_ROWS, PREFILL_MAX_ROWS } from './template-limits';

export const TemplateQuerySchema = z.object({
  project: z.string().optional().meta({
    description: 'asg, dtol, dtolenv or erga (any case); default: the type of profile_id (one of the two is required)',
    example: 'dtol',
  }),
  version: z.string().optional().meta({ description: 'default: the current version' }),
  profile_id: ProfileIdSchema.optional().meta({
    description:
      'a Tree of Life profile the caller may see (an API key or the portal’s session is then needed: 401 without, 404 for a ' +
      'profile the caller may not see): the template is of its type, and where the profile names one sequencing centre ' +
      '(GAL) or one ERGA sub-project (PRIMARY_BIOGENOME_PROJECT) matching a value the manifest allows, that value is pre-filled',
  }),
  prefill: z
    .string()
    .optional()
    .meta({
      description:
        'a JSON object (URL-encoded) of manifest field name → value, written in that column of every pre-filled row, the ' +
        'other columns left empty. Each value is checked by the field’s own rules (its vocabulary, format, dates not in ' +
        'the future); a COLLECTION_LOCATION may be a country alone, written as `Country | ` for each row to complete. An ' +
        'unknown field, a field checked against other rows or the taxonomy (TAXON_ID, SCIENTIFIC_NAME, the lineage, ' +
        'RACK_OR_PLATE_ID, TUBE_OR_WELL_ID, SPECIMEN_ID) or a value the field refuses is 400 naming it ' +
        '(`errors[].path`: `prefill.FIELD`). Values are written as text cells (numbers and dates as Excel cells where they ' +
        'read back the same), never as formulas.',
      example: '{"COLLECTED_BY":"Jane Smith","COLLECTOR_AFFILIATION":"University of Oxford","GAL":"SANGER INSTITUTE"}',
    }),
  rows: z.coerce
    .number()
    .int()
    .min(1)
    .max(PREFILL_MAX_ROWS)
    .optional()
    .meta({
      description: `how many rows carry the pre-filled values (1–${PREFILL_MAX_ROWS}, default ${PREFILL_DEFAULT_ROWS}): one per sample, as a row left with only pre-filled values is read as a sample missing the rest`,
    }),
});
export type TemplateQuery = z.infer<typeof TemplateQuerySchema>;

/** Why an upload cannot be read as a manifest at all (415 for the first, 422 for the others). */
export const MANIFEST_PARSE_REASONS = [
  'unsupported_format',
  'not_a_spreadsheet',
  'no_metadata_sheet',
  'empty',
  'duplicate_headers',
  // the workbook expands past the limits, or holds too many rows
  'too_large',
] as const;
export const ManifestParseReasonSchema = z.enum(MANIFEST_PARSE_REASONS);
export type ManifestParseReason = z.infer<typeof ManifestParseReasonSchema>;

/**
 * Taxonomy look-ups, injected so that the database-cached ENA client serves production and a fixed table serves tests.
 * `byScientificName` should also match synonyms (ENA's any-name search), so that a synonym can be recognised.
 * Throwing means the service is unavailable; validation then throws TaxonomyUnavailableError.
 */
export interface TaxonomyLookup {
  byTaxId(taxId: string): Promise<TaxonRecord | null>;
  byScientificName(name: string): Promise<TaxonRecord[]>;
}
