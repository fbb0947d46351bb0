import { z } from 'zod';
import { ProfileIdSchema } from '../identifiers/contract';

/** A profile's data files: the listing, the upload URLs handed out for them, and the upload through such a URL. */

export const DataFileSchema = z
  .object({
    file_name: z.string().meta({ description: 'sub-folders kept (`dir/b.fastq.gz`)', example: 'run1_R1.fastq.gz' }),
    size_in_bytes: z.number().int(),
    last_uploaded: z.string().meta({ description: 'ISO 8601', example: '2025-05-01T10:00:00.000Z' }),
    S3_ETag: z.string().meta({ description: 'without quotes', example: '9b2cf535f27731c974343645a3985328' }),
    used_by: z
      .array(z.string())
      .optional()
      .meta({
        description: 'in the listing: the studies of the profile that name the file; a used file cannot be deleted',
        example: ['STUDY001'],
      }),
  })
  .meta({ id: 'DataFile', description: 'a data file uploaded to a profile' });
export type DataFile = z.infer<typeof DataFileSchema>;

export const UploadUrlSchema = z
  .object({
    name: z.string(),
    file_name: z.string().meta({ description: 'the same as name (the reference returned `name` only)' }),
    url: z.string(),
    method: z.literal('PUT'),
    expires: z.string().meta({ description: 'ISO 8601; URLs are valid for 24 hours' }),
    size: z.number().int().optional().meta({ description: 'the declared size: the URL takes a body of exactly this many bytes' }),
    max_bytes: z.number().int().meta({ description: 'the upload limit (UPLOAD_MAX_BYTES)' }),
    curl: z.string().meta({ example: "curl -T 'a.fastq.gz' 'https://…'" }),
  })
  .meta({ id: 'UploadUrl', description: 'a URL that takes one HTTP PUT of the named file' });
export type UploadUrl = z.infer<typeof UploadUrlSchema>;

const WHOLE_BYTES = { error: 'a whole number of bytes' };
const wholeBytes = <T>() => z.coerce.number<T>(WHOLE_BYTES).int(WHOLE_BYTES).min(0, WHOLE_BYTES).max(Number.MAX_SAFE_INTEGER, WHOLE_BYTES);

/** `a,b` or a repeated parameter: the names (or sizes) in order, blanks dropped. */
const commaList = (v: string | string[] | undefined) =>
  [v ?? []]
    .flat()
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
const CommaListSchema = z.union([z.string(), z.array(z.string())]).optional();

export const PresignQuerySchema = z.object({
  file_names: CommaListSchema.transform(commaList).meta({
    description: 'comma-separated or repeated (a name that contains a comma needs the POST form)',
    example: 'a.fastq.gz,b.fastq.gz',
  }),
  file_sizes: CommaListSchema.transform((v) => (v === undefined ? undefined : commaList(v)))
    .pipe(z.array(wholeBytes<string>()).optional())
    .meta({ description: 'bytes of each file, in the order of file_names', example: '1048576,2097152' }),
});

export const PresignBodySchema = z.object({
  file_names: z.array(z.string()).meta({ example: ['a.fastq.gz', 'dir/b.fastq.gz'] }),
  file_sizes: z
    .array(wholeBytes<unknown>())
    .optional()
    .meta({ description: 'bytes of each file, in the order of file_names', example: [1048576, 2097152] }),
});

export const UploadParamsSchema = z.object({
  profile_id: ProfileIdSchema,
  file_name: z.string().meta({ description: 'may contain `/`' }),
});

/** What the signed URL carries; checked against its signature, so each is only text here. */
export const UploadQuerySchema = z.object({
  expires: z.string().optional().meta({ description: 'Unix seconds' }),
  size: z.string().optional().meta({ description: 'the declared size, when one was' }),
  signature: z.string().optional(),
});
