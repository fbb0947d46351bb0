import { z } from 'zod';
import { ProfileIdSchema, SvcIdSchema, UuidSchema } from '../identifiers/contract';

/**
 * Samples registered against one of ENA's sample checklists by researchers outside the Tree of Life (a biodata
 * profile's Samples): uploaded as a sheet per checklist, validated into a report as manifests are, confirmed into
 * the profile, then registered at ENA by their owner with no approval step.
 */

/**
 * confirmed (kept here, not sent) → processing (a registration holds it) → accepted (BioSample and ERS accessions) |
 * refused (ENA's message on it; registering again sends it again). A confirmed re-upload that changes an accepted
 * sample sends the change (MODIFY) at once: processing, then accepted again.
 */
export const BIODATA_SAMPLE_STATUSES = ['confirmed', 'processing', 'accepted', 'refused'] as const;
export const BiodataSampleStatusSchema = z.enum(BIODATA_SAMPLE_STATUSES).meta({ description: 'where a sample stands on its way to ENA' });
export type BiodataSampleStatus = z.infer<typeof BiodataSampleStatusSchema>;

/** A sample's values: each checklist field by its name, and a field's unit under `<name> unit`. */
export const BiodataFieldsSchema = z.record(z.string(), z.string());
export type BiodataFields = z.infer<typeof BiodataFieldsSchema>;

/** The sheet's column of a field's unit. */
export const unitColumn = (fieldName: string) => `${fieldName} unit`;

/** The profile-wide name a researcher gives a sample in the sheet's `sample` column. */
export const SampleAliasSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'letters, digits, _, . and -, starting with a letter or digit')
  .meta({ example: 'pbmc-donor-07' });

export const BiodataSampleSchema = z
  .object({
    svc_id: SvcIdSchema,
    profile_id: ProfileIdSchema,
    sample: z.string().meta({ description: 'the alias the researcher gave it, unique in the profile', example: 'pbmc-donor-07' }),
    checklist_id: z.string().meta({ example: 'ERC000011' }),
    TAXON_ID: z.string(),
    SCIENTIFIC_NAME: z.string(),
    status: BiodataSampleStatusSchema,
    status_detail: z.string().nullable().meta({ description: 'why it waits, or what ENA said when it refused it' }),
    release_date: z.string().nullable().meta({ description: 'held private at ENA until this day; null: public once registered' }),
    biosampleAccession: z.string().nullable(),
    sraAccession: z.string().nullable(),
    fields: BiodataFieldsSchema,
    time_created: z.iso.datetime(),
    time_updated: z.iso.datetime(),
  })
  .meta({ id: 'BiodataSample' });
export type BiodataSample = z.infer<typeof BiodataSampleSchema>;

export const BiodataSampleListQuerySchema = z.object({
  q: z.string().max(200).optional().meta({ description: 'a part of the alias, scientific name or accession, any case' }),
  status: BiodataSampleStatusSchema.optional(),
});

export const SampleUploadFormSchema = z
  .object({
    checklist_id: z
      .string({ error: 'Name the checklist the sheet was filled for.' })
      .min(1, 'Name the checklist the sheet was filled for.')
      .meta({ example: 'ERC000011' }),
    file: z
      .instanceof(File, { error: 'Upload the sheet as the multipart field file.' })
      .meta({ type: 'string', format: 'binary', description: 'the filled template: .xlsx or .csv' }),
  })
  .meta({ id: 'SampleSheetUpload' });

export const SampleTemplateQuerySchema = z.object({
  checklist_id: z.string().min(1).meta({ example: 'ERC000011' }),
});

export const SampleUploadAnswerSchema = z
  .object({
    report_id: UuidSchema,
    status: z.string().meta({ example: 'pending' }),
  })
  .meta({ id: 'SampleUploadQueued' });
