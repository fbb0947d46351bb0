import { z } from 'zod';
import { UuidSchema } from '../identifiers/contract';
import { ENA_STUDY_ACCESSION, ENA_STUDY_ACCESSION_WORDS } from '../identifiers/patterns';
import { BARCODE_CHECKLISTS } from './checklists';

/**
 * DNA barcodes of a Tree of Life profile's specimens (tagged sequences: COI under ENA's sequence checklist ERT000020,
 * rRNA genes under ERT000002), uploaded as the ToL barcoding sheet, checked against the checklist in the request and
 * sent to ENA through Webin-CLI (`-context sequence`, a TAB file) by their profile's owner or a contributor.
 */

/**
 * The words of the service's submissions (pending, processing, accepted, rejected) and of its held work (waiting):
 * pending (stored, not sent) → processing (a submission holds it) → accepted (the ERZ Webin-CLI gave) | rejected
 * (ENA's words, or why the submission gave up; submitting again sends it again). waiting: validated here, held until
 * Webin-CLI can be run (WEBIN_CLI_JAR), then sent without being asked again.
 */
export const BARCODE_STATUSES = ['pending', 'waiting', 'processing', 'accepted', 'rejected'] as const;
export const BarcodeStatusSchema = z.enum(BARCODE_STATUSES).meta({ description: 'where a barcode stands on its way to ENA' });
export type BarcodeStatus = z.infer<typeof BarcodeStatusSchema>;

export { BARCODE_CHECKLISTS } from './checklists';
export const BarcodeChecklistSchema = z.enum(BARCODE_CHECKLISTS).meta({ description: 'ERT000020 (COI) or ERT000002 (rRNA gene)' });
export type BarcodeChecklist = z.infer<typeof BarcodeChecklistSchema>;

/** A barcode's values by the checklist's field names (ENTRYNUMBER, ORGANISM_NAME, …; the sequence apart). */
export const BarcodeFieldsSchema = z.record(z.string(), z.string());
export type BarcodeFields = z.infer<typeof BarcodeFieldsSchema>;

/** An ENA study (project) accession, which Webin-CLI's STUDY takes. */
export const StudyAccessionSchema = z.string().regex(ENA_STUDY_ACCESSION, ENA_STUDY_ACCESSION_WORDS).meta({ example: 'PRJEB76543' });

export const BarcodeSchema = z
  .object({
    id: UuidSchema,
    profile_id: z.string(),
    specimen_id: z.string().meta({ description: 'the SPECIMEN_ID of one of the profile’s samples', example: 'NHMUK014425848' }),
    checklist_id: BarcodeChecklistSchema,
    entry_number: z.string().meta({ description: 'ENTRYNUMBER: the barcode’s name in its submission, unique in the profile' }),
    study_accession: z.string().meta({ example: 'PRJEB76543' }),
    status: BarcodeStatusSchema,
    error: z.string().nullable().meta({ description: 'why it waits, or what ENA said when it refused it' }),
    accession: z
      .string()
      .nullable()
      .meta({ description: 'the analysis accession (ERZ…) Webin-CLI gave its submission', example: 'ERZ1234567' }),
    fields: BarcodeFieldsSchema,
    sequence_length: z.number().int(),
    time_created: z.iso.datetime(),
    time_updated: z.iso.datetime(),
  })
  .meta({ id: 'Barcode' });
export type Barcode = z.infer<typeof BarcodeSchema>;

export const BarcodeListSchema = z.object({ number_found: z.number().int(), data: z.array(BarcodeSchema) }).meta({ id: 'BarcodeList' });

export const BarcodeListQuerySchema = z.object({
  status: BarcodeStatusSchema.optional(),
});

export const BarcodeUploadFormSchema = z
  .object({
    file: z
      .instanceof(File, { error: 'Upload the barcoding sheet as the multipart field file.' })
      .meta({ type: 'string', format: 'binary', description: 'the filled ToL barcoding sheet (.xlsx)' }),
    checklist: BarcodeChecklistSchema.optional().meta({
      description: 'the sequence checklist; without it, ERT000002 when the sheet has a GENE column, else ERT000020',
    }),
    study_accession: StudyAccessionSchema.optional().meta({
      description: 'the ENA study the barcodes belong to, unless the sheet has a STUDY column',
    }),
  })
  .meta({ id: 'BarcodeSheetUpload' });

/** One problem of an uploaded barcoding sheet, where the uploader sees it. */
export const BarcodeIssueSchema = z
  .object({
    sheet: z.string().meta({ example: 'Sheet1' }),
    row: z.number().int().nullable().meta({ description: 'Excel row number; null for the whole sheet or a column', example: 2 }),
    column: z.string().nullable().meta({ description: 'the column letter', example: 'C' }),
    field: z.string().nullable().meta({ description: 'the column’s header', example: 'ORGANISM_NAME' }),
    value: z.string().nullable(),
    rule: z.string().meta({ example: 'mandatory' }),
    message: z.string(),
  })
  .meta({ id: 'BarcodeIssue' });
export type BarcodeIssue = z.infer<typeof BarcodeIssueSchema>;

export const BarcodeUploadReportSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.literal(422),
    detail: z.string(),
    message: z.string(),
    request_id: z.string().optional(),
    errors: z.array(BarcodeIssueSchema),
  })
  .meta({ id: 'BarcodeUploadReport', description: 'why the sheet was not stored' });

export const BarcodeUploadAnswerSchema = z
  .object({
    checklist_id: BarcodeChecklistSchema,
    study_accession: z.string(),
    rows: z.number().int(),
    created: z.number().int().meta({ description: 'barcodes new to the profile' }),
    updated: z.number().int().meta({ description: 'unsent barcodes of the same ENTRYNUMBER, replaced' }),
    data: z.array(BarcodeSchema),
  })
  .meta({ id: 'BarcodeUploadResult' });
export type BarcodeUploadAnswer = z.infer<typeof BarcodeUploadAnswerSchema>;

export const BarcodeSubmitAnswerSchema = z
  .object({
    submissions: z
      .array(
        z.object({ batch_id: UuidSchema, checklist_id: BarcodeChecklistSchema, study_accession: z.string(), barcodes: z.number().int() }),
      )
      .meta({ description: 'one Webin-CLI submission per checklist and study' }),
    waiting: z.number().int().meta({ description: 'barcodes held until Webin-CLI can be run' }),
    detail: z.string().nullable().meta({ description: 'why they wait' }),
  })
  .meta({ id: 'BarcodeSubmission' });
export type BarcodeSubmitAnswer = z.infer<typeof BarcodeSubmitAnswerSchema>;
