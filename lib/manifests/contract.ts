import { z } from 'zod';
import { ProfileIdSchema, UuidSchema } from '../identifiers/contract';
import { ReportPermitSchema } from '../permits/contract';
import { TOL_PROJECTS, type TolProject, TolProjectSchema } from '../projects/contract';

/**
 * Tree of Life manifests at the boundary: the stored definitions, the upload, the validation report (as stored in
 * validation_reports' JSON columns and as the API answers it), its confirmation and the blank template.
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
// The validation report (validation_reports)

/** The upper-case project names the reference gives manifest types (DTOL, ASG, ERGA, DTOLENV). */
export const ManifestTypeSchema = z
  .enum(TOL_PROJECTS.map((p) => p.toUpperCase() as Uppercase<TolProject>))
  .meta({ description: 'the manifest type: the project, upper case', example: 'DTOL' });
export type ManifestType = z.infer<typeof ManifestTypeSchema>;
export const manifestTypeOf = (project: TolProject): ManifestType => project.toUpperCase() as ManifestType;

export const REPORT_STATUSES = ['pending', 'running', 'complete', 'failed'] as const;
export const ReportStatusSchema = z.enum(REPORT_STATUSES).meta({ description: 'where the validation stands' });
export type ReportStatus = z.infer<typeof ReportStatusSchema>;

/** create: every row is a new sample; update: some row's rack/tube is already a sample of the profile (a re-upload). */
export const ReportModeSchema = z.enum(['create', 'update']);
export type ReportMode = z.infer<typeof ReportModeSchema>;

/** One error or warning of a validation, at a cell, a row or the whole sheet. */
export const IssueSchema = z
  .object({
    row: z.number().int().nullable().meta({ description: 'spreadsheet row as the user sees it; null for sheet-level issues' }),
    column: z.string().nullable().meta({ description: 'the column letter of the cell in the uploaded sheet', example: 'C' }),
    field: z.string().nullable().meta({ description: 'the field name', example: 'SPECIMEN_ID' }),
    value: z.string().nullable(),
    rule: z.string().meta({ description: 'a stable code, e.g. mandatory, vocabulary, rack_tube_duplicate' }),
    message: z.string(),
  })
  .meta({ id: 'ValidationIssue' });
export type Issue = z.infer<typeof IssueSchema>;

export const ReportCountsSchema = z
  .object({
    rows: z.number().int(),
    errors: z.number().int(),
    warnings: z.number().int(),
    rows_total: z.number().int().optional().meta({ description: 'while running, once the file is read: the data rows to check' }),
    rows_checked: z.number().int().optional().meta({ description: 'while running: the data rows checked so far' }),
  })
  .meta({
    id: 'ValidationCounts',
    description: 'data rows validated, errors and warnings; while the validation runs, the rows checked of the total',
  });
export type ReportCounts = z.infer<typeof ReportCountsSchema>;

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

const reportIdentity = {
  report_id: UuidSchema,
  validation_report_id: UuidSchema.meta({ description: 'the same id, under the reference’s name' }),
};

/** A report without its error lists: the list of reports, and (picked) the polled state. */
export const ValidationReportSummarySchema = z
  .object({
    ...reportIdentity,
    status: ReportStatusSchema,
    progress: z.number().int().meta({ description: '0–100 while running' }),
    profile_id: ProfileIdSchema,
    manifest_type: ManifestTypeSchema,
    version: z.string().meta({ example: '2.5' }),
    file_name: z.string(),
    created: z.iso.datetime(),
    submitted: z.iso.datetime().meta({ description: 'the same time, under the reference’s name' }),
    finished: z.iso.datetime().nullable(),
    summary: ReportCountsSchema,
    mode: ReportModeSchema.nullable(),
    failure: z.string().nullable().meta({ description: 'why a failed validation failed' }),
    confirmed_manifest_id: UuidSchema.nullable(),
    content: z.string().meta({ description: 'the failure, or the error messages one a line (in lists, the first 20)' }),
    permits: z
      .array(ReportPermitSchema)
      .meta({ description: 'ERGA: the permit PDFs the manifest names (whether each has arrived: in the whole report only)' }),
  })
  .meta({ id: 'ValidationReportSummary', description: 'A validation report without its error lists' });
export type ValidationReportSummary = z.infer<typeof ValidationReportSummarySchema>;

/** docs/architecture.md, Decision 12, plus the reference's names (validation_report_id, submitted, content). */
export const ValidationReportSchema = ValidationReportSummarySchema.extend({
  errors: z.array(IssueSchema),
  warnings: z.array(IssueSchema),
  changes: z.array(FieldChangeSchema).meta({ description: 'a re-upload: the fields it changes' }),
}).meta({ id: 'ValidationReport', description: 'A validation report with its errors, warnings and changes' });
export type ValidationReport = z.infer<typeof ValidationReportSchema>;

export const ValidationReportStateSchema = ValidationReportSummarySchema.pick({
  report_id: true,
  status: true,
  progress: true,
  summary: true,
  failure: true,
  finished: true,
  confirmed_manifest_id: true,
  file_name: true,
  manifest_type: true,
  version: true,
}).meta({ id: 'ValidationReportState', description: 'Where a validation stands: status, progress and counts' });
export type ValidationReportState = z.infer<typeof ValidationReportStateSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Requests and answers

/** The uploaded manifest in a multipart form: binary in the OpenAPI document, a `File` to the handler. */
const ManifestFileSchema = z
  .instanceof(File, { error: 'Upload the manifest as the multipart field file.' })
  .meta({ type: 'string', format: 'binary', description: 'the manifest, .xlsx or .csv' });

export const ManifestUploadFormSchema = z
  .object({
    profile_id: z.string({ error: 'This field is required.' }).min(1, 'This field is required.'),
    // optional here so that a missing file is answered with the reference's sentence
    file: ManifestFileSchema.optional(),
    title: z.string().optional().meta({ description: 'not read (the reference documents it)' }),
    description: z.string().optional().meta({ description: 'not read (the reference documents it)' }),
    profile_type: z.string().optional().meta({ description: 'not read (the reference documents it)' }),
  })
  .meta({ id: 'ManifestUpload' });

export const ValidationQueuedSchema = z
  .object({ ...reportIdentity, status: ReportStatusSchema })
  .meta({ id: 'ValidationQueued', description: 'The report was created; poll it with manifest/validate/report' });
export type ValidationQueued = z.infer<typeof ValidationQueuedSchema>;

/** manifest/validate/report and confirm: the report id, by its reference name or ours, in the body or the query. */
export const ReportIdFieldsSchema = z
  .object({
    validation_report_id: z.string().optional().meta({ description: 'the report id (the reference’s name)' }),
    report_id: z.string().optional().meta({ description: 'the report id' }),
  })
  .meta({ id: 'ReportId', description: 'validation_report_id (or report_id); one of them is required' });
export type ReportIdFields = z.infer<typeof ReportIdFieldsSchema>;

export const ReportIdParamsSchema = z.object({ report_id: z.string().meta({ description: 'the report id (a UUID)' }) });

export const ReportListFilterSchema = z.object({
  profile_id: z.string().max(64).optional().meta({ description: 'only the reports of this profile' }),
});

export const ManifestConfirmedSchema = z
  .object({
    manifest_id: UuidSchema,
    created: z.number().int().meta({ description: 'samples created' }),
    updated: z.number().int().meta({ description: 'samples updated (a re-upload)' }),
  })
  .meta({ id: 'ManifestConfirmed', description: 'What was written' });
export type ManifestConfirmed = z.infer<typeof ManifestConfirmedSchema>;

export const TemplateQuerySchema = z.object({
  project: z.string().meta({ description: 'asg, dtol, dtolenv or erga (any case)', example: 'dtol' }),
  version: z.string().optional().meta({ description: 'default: the current version' }),
});

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

// ---------------------------------------------------------------------------------------------------------------
// A report's issues, grouped and paged (the report page reads these instead of the whole report)

export const IssueSeveritySchema = z.enum(['error', 'warning']).meta({ description: 'an error blocks confirming; a warning does not' });
export type IssueSeverity = z.infer<typeof IssueSeveritySchema>;

/** An issue with its severity: one line of a page of a report's issues. */
export const ReportIssueSchema = IssueSchema.extend({ severity: IssueSeveritySchema }).meta({ id: 'ReportIssue' });
export type ReportIssue = z.infer<typeof ReportIssueSchema>;

/** Which issues of a report: a severity, a field and a rule (the three name a group); any left out matches all. */
export const ReportIssueFilterSchema = z.object({
  severity: IssueSeveritySchema.optional(),
  field: z
    .string()
    .max(200)
    .optional()
    .meta({ description: 'only the issues of this field; empty: only the issues that name no field (the sheet’s)' }),
  rule: z.string().max(100).optional().meta({ description: 'only the issues of this rule code', example: 'vocabulary' }),
});
export type ReportIssueFilter = z.infer<typeof ReportIssueFilterSchema>;

export const ReportIssuesPageSchema = z
  .object({
    report_id: UuidSchema,
    number_found: z.number().int().meta({ description: 'every issue the filter matches, whatever limit and offset say' }),
    data: z.array(ReportIssueSchema).meta({ description: 'errors before warnings, each in the report’s order (by row)' }),
  })
  .meta({ id: 'ReportIssuesPage', description: 'A page of a validation report’s issues' });
export type ReportIssuesPage = z.infer<typeof ReportIssuesPageSchema>;

/** The issues of one field under one rule: one line of the report page, opened to its cells. */
export const IssueGroupSchema = z
  .object({
    severity: IssueSeveritySchema,
    field: z.string().nullable().meta({ description: 'the field; null for issues of the sheet as a whole' }),
    column: z.string().nullable().meta({ description: 'the column letter of the field in the uploaded sheet', example: 'C' }),
    rule: z.string().meta({ description: 'the rule code', example: 'vocabulary' }),
    title: z.string().meta({ description: 'what the rule found, in words', example: 'not one of the allowed values' }),
    count: z.number().int().meta({ description: 'issues in the group' }),
    rows: z.number().int().meta({ description: 'distinct spreadsheet rows the group’s issues are on' }),
    allowed_values: z
      .array(z.string())
      .nullable()
      .meta({ description: 'for a vocabulary rule: the values the field allows (from the manifest definition)' }),
    expected: z.string().nullable().meta({ description: 'for a format rule: the format the field expects, in words' }),
    example: z.string().meta({ description: 'the message of the group’s first issue' }),
  })
  .meta({ id: 'IssueGroup' });
export type IssueGroup = z.infer<typeof IssueGroupSchema>;

export const IssueGroupsSchema = z
  .object({
    report_id: UuidSchema,
    errors: z.number().int().meta({ description: 'errors in the report' }),
    warnings: z.number().int().meta({ description: 'warnings in the report' }),
    groups: z.array(IssueGroupSchema).meta({ description: 'errors first, then warnings; within each, the largest group first' }),
  })
  .meta({ id: 'IssueGroups', description: 'A validation report’s issues grouped by field and rule, with counts' });
export type IssueGroups = z.infer<typeof IssueGroupsSchema>;

export const IssueGroupsQuerySchema = ReportIssueFilterSchema.pick({ severity: true });

/**
 * Taxonomy look-ups, injected so that the database-cached ENA client serves production and a fixed table serves tests.
 * `byScientificName` should also match synonyms (ENA's any-name search), so that a synonym can be recognised.
 * Throwing means the service is unavailable; validation then throws TaxonomyUnavailableError.
 */
export interface TaxonomyLookup {
  byTaxId(taxId: string): Promise<TaxonRecord | null>;
  byScientificName(name: string): Promise<TaxonRecord[]>;
}
