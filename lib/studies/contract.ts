import { z } from 'zod';
import { SchemaNameParamSchema, SchemaNameSchema } from '../checklists/contract';
import { ProfileIdSchema } from '../identifiers/contract';

/**
 * Studies of a profile: where they are addressed, what the `studies` table's JSON columns hold (the components and
 * the repositories' accessions), the listing, the upload's answers (saved, or the report of every problem by sheet,
 * row and column) and the JSON-LD export.
 */

/** letters, digits, `_`, `-` and `.` (the reference took letters and digits only) */
export const STUDY_ID_PATTERN = '[A-Za-z0-9._-]+';

export const SchemaParamsSchema = z.object({ profile_id: ProfileIdSchema, schema_name: SchemaNameParamSchema });

export const StudyParamsSchema = SchemaParamsSchema.extend({
  study_id: z
    .string()
    .regex(new RegExp(`^${STUDY_ID_PATTERN}$`))
    .meta({ description: 'letters, digits, `_`, `-` and `.`', example: 'STUDY001' }),
});

export const ChecklistQuerySchema = z.object({
  checklist_id: z.string().optional().meta({ description: 'a checklist of the schema (any case)', example: 'version_dwc_sc_rnaseq' }),
});

export const ExportQuerySchema = z.object({
  // checked by the domain, which answers the reference's sentence naming the accepted values
  return_type: z.string().optional().meta({ description: 'xlsx (default) or jsonld, in any case', example: 'jsonld' }),
});

// ---- the JSON columns of `studies` ----

/** A study's data: component key → rows of term_name → value (non-empty values only). */
export const StudyComponentsSchema = z.record(z.string(), z.array(z.record(z.string(), z.string())));
export type StudyComponents = z.infer<typeof StudyComponentsSchema>;

/** What ENA returned for one read row (an EXPERIMENT and its RUN), with the digest of what was sent. */
const ReadAccessionsSchema = z.object({
  experiment_accession: z.string(),
  run_accession: z.string(),
  digest: z.string().meta({ description: 'what was sent for the row, hashed: a changed row is sent again' }),
});
export type ReadAccessions = z.infer<typeof ReadAccessionsSchema>;

const AnalysisAccessionsSchema = z.object({
  analysis_accession: z.string().meta({ example: 'ERZ1234567' }),
  digest: z.string().meta({ description: 'what was sent for the row, hashed: a changed row is sent again' }),
});
export type AnalysisAccessions = z.infer<typeof AnalysisAccessionsSchema>;

const AssemblyAccessionsSchema = z.object({
  assembly_accession: z.string().optional().meta({ description: 'the analysis Webin-CLI was given', example: 'ERZ1234567' }),
  digest: z.string().meta({ description: 'what was sent for the row, hashed: a changed row is sent again' }),
  waiting: z.string().optional().meta({ description: 'why the assembly has not been sent yet' }),
  error: z.string().optional().meta({ description: 'why ENA refused the assembly' }),
});
export type AssemblyAccessions = z.infer<typeof AssemblyAccessionsSchema>;

export const ARCHIVE_FILE_STATES = ['received', 'processing', 'archived', 'failed'] as const;

export const ArchiveFileSchema = z
  .object({
    name: z.string().meta({ description: 'the file as ENA names it', example: 'PRJ1/reads_R1.fastq.gz' }),
    state: z.enum(ARCHIVE_FILE_STATES).meta({ description: 'where ENA’s processing of the file stands' }),
    size: z.number().optional(),
    md5: z.string().optional(),
    error: z.string().optional().meta({ description: 'ENA’s reason, when it failed' }),
  })
  .meta({ id: 'ArchiveFile', description: 'a file of a run or an analysis, as ENA’s reports service shows it' });
export type ArchiveFileStatus = z.infer<typeof ArchiveFileSchema>;

/** Kept on the study (accessions.ena.archive), by run or analysis accession: ENA's last word on its files. */
export const ArchiveStatusSchema = z.object({
  checked_at: z.string().meta({ description: 'when ENA’s reports service was last asked (ISO 8601)' }),
  files: z.array(ArchiveFileSchema),
});
export type ArchiveStatus = z.infer<typeof ArchiveStatusSchema>;

const EnaAccessionsSchema = z.object({
  study: z.string().optional().meta({ description: 'the PROJECT', example: 'PRJEB76543' }),
  state: z.string().optional().meta({ description: 'PRIVATE or PUBLIC' }),
  release_date: z.string().optional(),
  file: z
    .record(z.string(), ReadAccessionsSchema)
    .optional()
    .meta({ description: 'the read rows (the component ENA takes as `read`), by row identifier' }),
  analysis: z
    .record(z.string(), AnalysisAccessionsSchema)
    .optional()
    .meta({ description: 'the sequence annotations (ENA ANALYSIS of type SEQUENCE_ANNOTATION), by row identifier' }),
  archive: z
    .record(z.string(), ArchiveStatusSchema)
    .optional()
    .meta({ description: 'ENA’s processing of the files of each run and analysis, by its accession, as last asked' }),
  assembly: z
    .record(z.string(), AssemblyAccessionsSchema)
    .optional()
    .meta({ description: 'the assemblies (sent through Webin-CLI), by row identifier' }),
});

const ZenodoAccessionsSchema = z.object({
  study: z.string().optional().meta({ description: 'the deposition id' }),
  state: z.string().optional().meta({ description: 'the deposition’s state: unsubmitted, inprogress or done' }),
  doi: z.string().optional(),
});

/** What the repositories returned, kept on the study: `{"ena": {"study": "PRJEB1", "file": {…}}, "zenodo": {…}}`. */
export const StudyAccessionsSchema = z
  .object({ ena: EnaAccessionsSchema.optional(), zenodo: ZenodoAccessionsSchema.optional() })
  .meta({ id: 'StudyAccessions', description: 'what each repository returned for the study' });
export type StudyAccessions = z.infer<typeof StudyAccessionsSchema>;

// ---- answers ----

/** A study's state at a repository (docs/api-behaviour.md §2.8). */
export const STUDY_STATUSES = ['pending', 'processing', 'accepted', 'rejected', 'published'] as const;
export const StudyStatusSchema = z
  .enum(STUDY_STATUSES)
  .meta({ description: 'pending: never submitted, or changed since; processing: queued or running; then the repository’s answer' });
export type StudyStatus = z.infer<typeof StudyStatusSchema>;

const text = z.string().optional();

export const StudySchema = z
  .object({
    study_id: z.string(),
    status_ena: StudyStatusSchema.optional(),
    accession_ena: text,
    error_ena: text,
    doi_ena: text,
    state_ena: text.meta({ description: 'PRIVATE or PUBLIC' }),
    status_zenodo: StudyStatusSchema.optional(),
    accession_zenodo: text.meta({ description: 'the deposition id' }),
    error_zenodo: text,
    doi_zenodo: text,
    state_zenodo: text,
    checklist_id: z.string(),
    profile_id: ProfileIdSchema,
    schema_name: SchemaNameSchema,
    components: z.record(z.string(), z.number().int()).meta({ description: 'rows per component (sheet)' }),
    accessions: StudyAccessionsSchema,
    date_created: z.string(),
    date_modified: z.string(),
  })
  // the study sheet's own columns, by term name (title, description, …): text, like every cell
  .catchall(z.string())
  .meta({
    id: 'Study',
    description:
      'The study sheet’s values by term name, then per repository the study goes to `status_<repo>`, ' +
      '`accession_<repo>` and `error_<repo>` (once known `doi_<repo>`, `state_<repo>`), then `checklist_id`, ' +
      '`profile_id`, `schema_name`, `components` (rows per sheet), `accessions`, `date_created`, `date_modified`.',
  });
export type Study = z.infer<typeof StudySchema>;

/** One problem of an uploaded spreadsheet, at the place the submitter sees it (Excel row numbers). */
const ReportEntrySchema = z
  .object({
    sheet: z.string().meta({ example: 'study' }),
    row: z.number().int().nullable().meta({ description: 'Excel row number; null for the whole sheet or column', example: 5 }),
    column: z.string().nullable().meta({ description: 'the column header as in the file', example: 'Title' }),
    value: z.string().nullable(),
    message: z.string(),
    path: z.string().meta({ description: '`sheet!C5`, `sheet!C` or `sheet`', example: 'study!B5' }),
  })
  .meta({ id: 'StudyReportEntry', description: 'one problem of an uploaded study spreadsheet' });
export type ReportEntry = z.infer<typeof ReportEntrySchema>;

export const StudyUploadFieldsSchema = z.object({
  checklist_id: z.string().optional().meta({ example: 'version_dwc_sc_rnaseq' }),
});

export const StudyUploadResultSchema = z
  .object({
    status: z.literal('success'),
    message: z.string().meta({ example: 'Single Cell records saved successfully.' }),
    study_id: z.string(),
    created: z.boolean().meta({ description: 'a new study rather than a replacement' }),
    changed: z.boolean().meta({ description: 'false when the upload equals the stored study (nothing written)' }),
    components: z.record(z.string(), z.number().int()).meta({ description: 'rows stored per component' }),
    warnings: z.array(ReportEntrySchema),
  })
  .meta({ id: 'StudyUploadResult', description: 'the study as saved' });
export type StudyUploadResult = z.infer<typeof StudyUploadResultSchema>;

/** The 422 problem of a spreadsheet that breaks rules: every error and warning, nothing stored. */
export const StudyUploadReportSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.literal(422),
    detail: z.string().meta({ example: 'Spreadsheet is not valid, please check the errors in the manifest.' }),
    message: z.string(),
    request_id: z.string().optional(),
    errors: z.array(ReportEntrySchema),
    warnings: z.array(ReportEntrySchema),
  })
  .meta({ id: 'StudyUploadReport', description: 'why the spreadsheet was not saved' });

const TermContextSchema = z.object({ '@id': z.string() });
const ComponentContextSchema = z.object({
  '@id': z.string().meta({ description: 'the component’s IRI' }),
  '@container': z.literal('@set'),
  '@context': z.record(z.string(), TermContextSchema).meta({ description: 'term name → its IRI, scoped to the component' }),
});

/** The study as compacted JSON-LD with an inline context (docs/studies-and-checklists.md §10). */
export const StudyJsonLdSchema = z
  .object({
    '@context': z.object({ '@version': z.literal(1.1) }).catchall(ComponentContextSchema),
    '@id': z.string(),
  })
  // one key per component holding its rows, each typed by its component and keyed by term name
  .catchall(z.array(z.object({ '@type': z.string() }).catchall(z.string())))
  .meta({ id: 'StudyJsonLd', description: 'the study as JSON-LD: one key per component holding its rows' });
