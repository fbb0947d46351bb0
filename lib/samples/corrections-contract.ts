import { z } from 'zod';
import { SvcIdSchema } from '../identifiers/contract';
import { RegistrationSchema } from './contract';

/**
 * Corrections of registered Tree of Life samples by BioSample accession (lib/samples/corrections*.ts): what a curator
 * sends, the preview answered with its confirmation link, and what the confirmation did.
 */

/** At most this many corrections in one request: their confirmation link carries them all. */
export const CORRECTIONS_MAX = 500;
/** How long a preview's confirmation link works. */
export const CORRECTION_LINK_MINUTES = 60;
/** The columns of a CSV of corrections, in this order. */
export const CORRECTION_COLUMNS = ['biosampleAccession', 'field', 'value'] as const;

export const CorrectionSchema = z
  .object({
    biosampleAccession: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .meta({ description: 'the sample’s BioSample accession', example: 'SAMEA7524530' }),
    field: z.string().trim().min(1).max(200).meta({ description: 'a field of the sample’s manifest', example: 'TAXON_ID' }),
    value: z.string().max(4096).meta({ description: 'its new value', example: '7227' }),
  })
  .meta({ id: 'SampleCorrection' });
export type Correction = z.infer<typeof CorrectionSchema>;

export const CorrectionsRequestSchema = z
  .object({ corrections: z.array(CorrectionSchema).min(1).max(CORRECTIONS_MAX) })
  .meta({ id: 'SampleCorrectionsRequest' });

/** The corrections as a CSV file in a multipart form: a header row of the three columns, then one row per field. */
export const CorrectionsFormSchema = z
  .object({
    file: z
      .instanceof(File, { error: 'Upload the corrections as the multipart field file: a CSV of biosampleAccession, field, value.' })
      .meta({ type: 'string', format: 'binary', description: 'a CSV with the header biosampleAccession,field,value' }),
  })
  .meta({ id: 'SampleCorrectionsForm' });

export const CorrectionIssueSchema = z
  .object({
    rule: z.string().meta({
      description:
        'a stable code: a manifest rule’s (as a re-upload reports it), or unknown_accession, unknown_field, not_correctable, not_correctable_now, duplicate',
    }),
    message: z.string(),
  })
  .meta({ id: 'SampleCorrectionIssue' });
export type CorrectionIssue = z.infer<typeof CorrectionIssueSchema>;

export const CorrectionRowSchema = z
  .object({
    row: z.number().int().meta({ description: 'the row as a spreadsheet of the corrections numbers it: header 1, first correction 2' }),
    biosample_accession: z.string(),
    field: z.string(),
    value: z.string(),
    errors: z.array(CorrectionIssueSchema),
    warnings: z.array(CorrectionIssueSchema),
  })
  .meta({ id: 'SampleCorrectionRow' });
export type CorrectionRow = z.infer<typeof CorrectionRowSchema>;

export const CorrectionChangeSchema = z
  .object({ field: z.string(), old_value: z.string(), new_value: z.string() })
  .meta({ id: 'SampleCorrectionChange' });

export const CorrectedSampleSchema = z
  .object({
    biosample_accession: z.string(),
    svc_id: SvcIdSchema,
    changes: z
      .array(CorrectionChangeSchema)
      .meta({ description: 'each field that changes, as validation leaves it (a filled lineage included)' }),
    sample_action: z.enum(['MODIFY']).nullable().meta({ description: 'what is sent to ENA for the sample (null: nothing changes)' }),
    specimen_action: z.enum(['MODIFY', 'ADD']).nullable().meta({
      description: 'what is sent for its specimen’s record: MODIFY when the record changes, ADD for a specimen new to ENA, null: nothing',
    }),
    new_tolid: z.boolean().meta({ description: 'a new ToLID is requested first (the taxon or the specimen changes)' }),
  })
  .meta({ id: 'CorrectedSample' });
export type CorrectedSample = z.infer<typeof CorrectedSampleSchema>;

export const CorrectionsPreviewSchema = z
  .object({
    rows: z.array(CorrectionRowSchema).meta({ description: 'every correction sent, with the errors and warnings of its row' }),
    samples: z.array(CorrectedSampleSchema).meta({ description: 'the diff: per sample, what changes and what is sent' }),
    errors: z.number().int().meta({ description: 'errors in all rows; nothing can be confirmed while there is one' }),
    confirm_url: z
      .string()
      .nullable()
      .meta({ description: 'POST here to apply exactly this diff (null: errors, or nothing changes); it works once, for its sender' }),
    expires_at: z.string().nullable().meta({ description: 'when the confirm_url stops working (ISO 8601)' }),
  })
  .meta({ id: 'SampleCorrectionsPreview' });
export type CorrectionsPreview = z.infer<typeof CorrectionsPreviewSchema>;

export const CorrectionsConfirmedSchema = z
  .object({
    already_applied: z.boolean().meta({ description: 'true: this link was confirmed before; nothing was done again' }),
    samples: z
      .array(z.object({ biosample_accession: z.string(), svc_id: SvcIdSchema, changes: z.number().int() }))
      .meta({ description: 'the samples corrected now' }),
    registrations: z
      .array(RegistrationSchema)
      .meta({ description: 'the registrations that send the MODIFYs (samples waiting for a new ToLID are in none yet)' }),
  })
  .meta({ id: 'SampleCorrectionsConfirmed' });
export type CorrectionsConfirmed = z.infer<typeof CorrectionsConfirmedSchema>;

export const CorrectionTokenParamsSchema = z.object({
  token: z.string().min(1).max(8_192).meta({ description: 'the signed preview, from confirm_url' }),
});
