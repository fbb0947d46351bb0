import { z } from 'zod';
import { SvcIdSchema, UuidSchema } from '../identifiers/contract';

/**
 * ERGA permits: the PDFs a manifest names (`<KIND>_PERMITS_REQUIRED` = Y with a `<KIND>_PERMITS_FILENAME`), as a
 * validation report lists them, as the upload answers, and as a sample's permits are listed afterwards.
 */

/** ERGA's three permits; each has `<KIND>_PERMITS_REQUIRED` (Y/N) and `<KIND>_PERMITS_FILENAME` columns. */
export const PERMIT_KINDS = ['ETHICS', 'SAMPLING', 'NAGOYA'] as const;
export const PermitKindSchema = z.enum(PERMIT_KINDS).meta({ description: 'the kind of an ERGA permit' });
export type PermitKind = z.infer<typeof PermitKindSchema>;

const PermitFileNameSchema = z.string().meta({ description: 'the file name the manifest gives', example: 'test_permit.pdf' });
const StoredNameSchema = z
  .string()
  .meta({ description: 'the name the permit is stored under: the file name with its upload date', example: 'test_permit_20261124.pdf' });

/** A permit a validated manifest needs before it can be confirmed, as the report stores it (validation_reports.permits). */
export const RequiredPermitSchema = z.object({
  filename: PermitFileNameSchema,
  required_by: z.array(z.string()).meta({ description: 'the SPECIMEN_IDs whose rows name it' }),
  kinds: z.array(PermitKindSchema),
});
export type RequiredPermit = z.infer<typeof RequiredPermitSchema>;

/** A permit of a report: what the manifest needs, and whether (and when) it has arrived. */
export const ReportPermitSchema = RequiredPermitSchema.extend({
  received: z.boolean(),
  stored_name: StoredNameSchema.nullable(),
  size_in_bytes: z.number().int().nullable(),
  uploaded: z.iso.datetime().nullable(),
}).meta({ id: 'ReportPermit', description: 'A permit PDF a validated ERGA manifest names, and whether it has arrived' });
export type ReportPermit = z.infer<typeof ReportPermitSchema>;

/** A permit PDF in a multipart form: binary in the OpenAPI document, a `File` to the handler. */
const PdfFileSchema = z.instanceof(File).meta({ type: 'string', format: 'binary' });

export const PermitUploadFormSchema = z
  .object({
    validation_report_id: z.string().meta({ description: 'the report of the validated ERGA manifest' }),
    file: z
      .union([PdfFileSchema, z.array(PdfFileSchema)])
      .meta({ description: 'one or more PDFs, each named as the manifest names it (repeat the field for several)' }),
  })
  .meta({ id: 'PermitUpload' });

export const PermitUploadAnswerSchema = z
  .object({ report_id: UuidSchema, permits: z.array(ReportPermitSchema) })
  .meta({ id: 'ReportPermits', description: 'What the manifest needs, and what has arrived' });

/** A permit PDF as stored: the name the manifest gives it, the name it is kept under, its size and upload time, and where to download it. */
const StoredPermitSchema = z.object({
  file_name: PermitFileNameSchema,
  stored_name: StoredNameSchema,
  size_in_bytes: z.number().int(),
  uploaded: z.iso.datetime(),
  url: z.string().meta({ description: 'where to download it (same authentication)' }),
});

/** A stored permit of a sample. */
export const SamplePermitSchema = StoredPermitSchema.extend({ kind: PermitKindSchema }).meta({ id: 'SamplePermit' });
export type SamplePermit = z.infer<typeof SamplePermitSchema>;

/** A stored permit of a profile: the latest upload of a name its samples give, as whichever kinds they need it for. */
export const ProfilePermitSchema = StoredPermitSchema.extend({
  kinds: z.array(PermitKindSchema),
  samples: z.number().int().meta({ description: 'samples of the profile that name it' }),
}).meta({ id: 'ProfilePermit' });
export type ProfilePermit = z.infer<typeof ProfilePermitSchema>;

export const SamplePermitsParamsSchema = z.object({
  svc_id: z.string().meta({ description: SvcIdSchema.description, example: '64f1c0ffee0123456789abcd' }),
});
export const SamplePermitParamsSchema = SamplePermitsParamsSchema.extend({
  stored_name: StoredNameSchema,
});
