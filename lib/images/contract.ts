import { z } from 'zod';
import { SvcIdSchema, UuidSchema } from '../identifiers/contract';

/**
 * Specimen images: uploaded beside a confirmed manifest, named by SPECIMEN_ID (`NHMUK014425848-1.jpg`), shown as
 * thumbnails, and sent to the BioImage Archive's upload area once the specimen has its BioSample accession.
 */

export const IMAGE_FORMATS = ['jpeg', 'png', 'tiff'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

/**
 * Where an image is on its way to the BioImage Archive: `waiting` (for its specimen's registration, or for the job),
 * `held` (the BioImage Archive settings are unset), `sending` (its name there chosen, the transfer under way or to be
 * checked), `submitted`, `failed` (the last attempt gave up; `failure` says why, a retry sends it again).
 */
export const IMAGE_STATES = ['waiting', 'held', 'sending', 'submitted', 'failed'] as const;
export type ImageState = (typeof IMAGE_STATES)[number];

export const SpecimenImageSchema = z
  .object({
    id: UuidSchema,
    file_name: z.string().meta({ example: 'NHMUK014425848-1.jpg' }),
    specimen_id: z.string().meta({ description: 'the SPECIMEN_ID the file name starts with', example: 'NHMUK014425848' }),
    format: z.enum(IMAGE_FORMATS),
    size_in_bytes: z.number().int(),
    width: z.number().int(),
    height: z.number().int(),
    uploaded: z.iso.datetime(),
    url: z.string().meta({
      description: 'the image’s bytes',
      example: '/api/sample/67e14bbf5b9e8a38259f95eb/images/3f2504e0-4f89-41d3-9a0c-0305e82c3301',
    }),
    thumbnail_url: z.string().meta({ description: 'a JPEG at most 256 pixels on its longer side' }),
    state: z.enum(IMAGE_STATES),
    submitted: z.boolean().meta({ description: 'the BioImage Archive’s upload area holds it' }),
    bioimage_name: z
      .string()
      .nullable()
      .meta({ description: 'its name in the BioImage Archive upload area: {biosampleAccession}_{n}.{ext}', example: 'SAMEA7524530_1.jpg' }),
    submitted_at: z.iso.datetime().nullable(),
    status_detail: z.string().nullable().meta({ description: 'why it waits, or why it failed, in words' }),
  })
  .meta({ id: 'SpecimenImage', description: 'An image of a specimen, and where it is on its way to the BioImage Archive' });
export type SpecimenImage = z.infer<typeof SpecimenImageSchema>;

export const SampleImagesSchema = z
  .object({ svc_id: SvcIdSchema, number_found: z.number().int(), data: z.array(SpecimenImageSchema) })
  .meta({ id: 'SampleImages', description: 'The images of a sample’s specimen' });

/** An image in a multipart form: binary in the OpenAPI document, a `File` to the handler. */
const ImageFileSchema = z.instanceof(File).meta({ type: 'string', format: 'binary' });

export const ImageUploadFormSchema = z
  .object({
    files: z
      .union([ImageFileSchema, z.array(ImageFileSchema)])
      .meta({ description: 'JPEG, PNG or TIFF images named SPECIMEN_ID-…: repeat the field for several' }),
  })
  .meta({ id: 'ImageUpload' });

export const ManifestImagesParamsSchema = z.object({
  manifest_id: z.string().meta({ example: 'f8e5c23d-f735-439f-bfaf-a6886e31741e' }),
});

export const ManifestImagesSchema = z
  .object({ manifest_id: UuidSchema, number_found: z.number().int(), data: z.array(SpecimenImageSchema) })
  .meta({ id: 'ManifestImages', description: 'The images of a manifest’s specimens' });

export const SampleImagesParamsSchema = z.object({ svc_id: z.string().meta({ example: '67e14bbf5b9e8a38259f95eb' }) });
export const ImageParamsSchema = z.object({
  image_id: z.string().meta({ example: '3f2504e0-4f89-41d3-9a0c-0305e82c3301' }),
});
