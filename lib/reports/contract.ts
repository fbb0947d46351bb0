import { z } from 'zod';
import { ProfileIdSchema, UuidSchema } from '../identifiers/contract';
import { FieldChangeSchema, IssueSchema, IssueSeveritySchema, ManifestTypeSchema, ReportModeSchema } from '../manifests/contract';
import { ReportPermitSchema } from '../permits/contract';
import type { TolProject } from '../projects/contract';

// what validating a manifest finds is the manifests' (lib/manifests/contract.ts), below the reports that keep it; the
// table and the report page name these from here
export type { IssueSeverity, ReportMode } from '../manifests/contract';

/**
 * The validation report at the boundary (lib/reports): as stored in validation_reports' columns and as the API answers
 * it, the upload that creates it, its confirmation, and its issues grouped and paged.
 */

/**
 * What a report validates: a Tree of Life manifest, by its project, or a sheet of samples filled for one of ENA's
 * sample checklists (`biodata`, lib/biodata-samples), whose report's `version` is the checklist's id.
 */
export type ReportProject = TolProject | 'biodata';

/** A report's `manifest_type`: the Tree of Life project upper case, or BIODATA for a checklist's sample sheet. */
export const ReportManifestTypeSchema = z
  .enum([...ManifestTypeSchema.options, 'BIODATA'])
  .meta({ description: 'DTOL, ASG, ERGA or DTOLENV for a manifest; BIODATA for a sample sheet of an ENA checklist', example: 'DTOL' });
export type ReportManifestType = z.infer<typeof ReportManifestTypeSchema>;
export const reportManifestTypeOf = (project: ReportProject): ReportManifestType => project.toUpperCase() as ReportManifestType;

export const REPORT_STATUSES = ['pending', 'running', 'complete', 'failed'] as const;
export const ReportStatusSchema = z.enum(REPORT_STATUSES).meta({ description: 'where the validation stands' });
export type ReportStatus = z.infer<typeof ReportStatusSchema>;

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
    manifest_type: ReportManifestTypeSchema,
    version: z.string().meta({ example: '2.5', description: 'the manifest version, or the checklist’s id for BIODATA' }),
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

// ---------------------------------------------------------------------------------------------------------------
// A report's issues, grouped and paged (the report page reads these instead of the whole report)

/** An issue with its severity: one line of a page of a report's issues. */
export const ReportIssueSchema = IssueSchema.extend({
  severity: IssueSeveritySchema,
  tube: z.string().nullable().meta({
    description: 'the TUBE_OR_WELL_ID of the issue’s row, as people know a sample; null for the sheet’s and a sheet without tubes',
  }),
}).meta({ id: 'ReportIssue' });
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
