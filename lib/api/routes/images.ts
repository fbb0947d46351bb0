import { Readable } from 'node:stream';
import { fileStore } from '@/lib/files/files';
import { THUMBNAIL_PIXELS } from '@/lib/images/check';
import {
  ImageParamsSchema,
  ImageUploadFormSchema,
  ManifestImagesParamsSchema,
  ManifestImagesSchema,
  SampleImagesParamsSchema,
  SampleImagesSchema,
} from '@/lib/images/contract';
import { IMAGE_MAX_BYTES } from '@/lib/images/limits';
import { manifestImages, manifestImagesAnswer, readImage, sampleImages } from '@/lib/images/read';
import { manifestForImages, uploadImages } from '@/lib/images/upload';
import type { ApiApp } from '../context';
import { openapiConstrained } from '../openapi';
import { route } from '../policy';
import { fileResponse, jsonResponse, pick, problemResponses } from '../schemas';

const tags = ['Images'];
// a request carries a few images; more go in further requests
const IMAGES_REQUEST_MAX_BYTES = 4 * IMAGE_MAX_BYTES;

const upload = route(
  {
    method: 'post',
    path: '/manifest/{manifest_id}/images',
    tags,
    summary: 'Upload images of a confirmed manifest’s specimens',
    description:
      'One or more parts named `files`: JPEG, PNG or TIFF images, each named by one of the manifest’s specimens, ' +
      '`SPECIMEN_ID-…` in any case (`NHMUK014425848-1.jpg`), checked by their content (a real image of the type its ' +
      `extension names), each at most ${IMAGE_MAX_BYTES} bytes. All are checked before any is stored: a name that ` +
      'matches no specimen is 400 naming it, a file that is not such an image 422, and nothing is stored. An image sent ' +
      'again under the name of one not yet sent to the BioImage Archive replaces it. Once the specimen has its ' +
      'BioSample accession, its images are sent to the BioImage Archive as `{biosampleAccession}_{n}.{ext}`. ' +
      'Who may upload manifests to the profile may upload their images.',
    request: {
      params: ManifestImagesParamsSchema,
      body: { required: true, content: { 'multipart/form-data': { schema: ImageUploadFormSchema } } },
    },
    responses: {
      201: jsonResponse('The images stored', ManifestImagesSchema),
      ...pick(400, 401, 403, 404, 409, 413, 415),
      422: { ...problemResponses[422], description: 'A file is not an image of its type' },
    },
  },
  {
    access: { profile: 'contribute', of: 'manifest' },
    rateLimit: 'uploads',
    // who may not add to it is answered before the body is read
    guard: (c) => manifestForImages(c.get('deps').db, c.get('user'), c.req.param('manifest_id') ?? ''),
    body: {
      maxBytes: () => IMAGES_REQUEST_MAX_BYTES,
      tooLarge: () => `Send at most ${IMAGES_REQUEST_MAX_BYTES} bytes of images per request (each at most ${IMAGE_MAX_BYTES}).`,
    },
  },
);

const ofManifest = route(
  {
    method: 'get',
    path: '/manifest/{manifest_id}/images',
    tags,
    summary: 'The images uploaded beside a manifest, for those who may see its profile or review its samples',
    request: { params: ManifestImagesParamsSchema },
    responses: { 200: jsonResponse('The manifest’s images', ManifestImagesSchema), ...pick(401, 404) },
  },
  { access: { profile: 'view', of: 'manifest', reviewers: true } },
);

const ofSample = route(
  {
    method: 'get',
    path: '/sample/{svc_id}/images',
    tags,
    summary: 'The images of a sample’s specimen',
    description:
      'Those uploaded to the sample’s profile, for those who see the sample in full: those who may see its profile, ' +
      'the project’s sample managers and the approvers of its types. Anyone else is answered 404, as for an unknown sample.',
    request: { params: SampleImagesParamsSchema },
    responses: { 200: jsonResponse('The images', SampleImagesSchema), ...pick(401, 404) },
  },
  { access: { profile: 'view', of: 'sample', reviewers: true } },
);

const bytes = route(
  {
    method: 'get',
    path: '/images/{image_id}',
    tags,
    summary: 'An image’s bytes, for those who may see its sample (404 otherwise)',
    request: { params: ImageParamsSchema },
    responses: { 200: fileResponse('The image', 'image/jpeg'), ...pick(401, 404) },
  },
  { access: { profile: 'view', of: 'image', reviewers: true } },
);

const thumbnail = route(
  {
    method: 'get',
    path: '/images/{image_id}/thumbnail',
    tags,
    summary: `An image’s thumbnail: a JPEG at most ${THUMBNAIL_PIXELS} pixels on its longer side`,
    request: { params: ImageParamsSchema },
    responses: { 200: fileResponse('The thumbnail', 'image/jpeg'), ...pick(401, 404) },
  },
  { access: { profile: 'view', of: 'image', reviewers: true } },
);

// svc_id in either case, as the other sample routes take it; a sample id that is not one is no route here
const patterns = { svc_id: '[0-9a-fA-F]{24}' };

export function registerImageRoutes(app: ApiApp) {
  app.openapi(upload, async (c) => {
    const { manifest_id } = c.req.valid('param');
    const form = c.req.valid('form');
    const files = [form.files].flat();
    const parts = await Promise.all(files.map(async (f) => ({ name: f.name, bytes: new Uint8Array(await f.arrayBuffer()) })));
    const { db, config, logger, jobs } = c.get('deps');
    const stored = await uploadImages({ db, files: fileStore({ db, config, logger }), jobs }, c.get('user'), manifest_id, parts);
    const { images } = await manifestImages(db, config, c.get('user'), stored.manifestId);
    const ids = new Set<string>(stored.ids);
    const data = images.filter((i) => ids.has(i.id));
    return c.json({ manifest_id: stored.manifestId, number_found: data.length, data }, 201);
  });
  app.openapi(ofManifest, async (c) => {
    const { db, config } = c.get('deps');
    return c.json(await manifestImagesAnswer(db, config, c.get('user'), c.req.valid('param').manifest_id), 200);
  });
  openapiConstrained(app, ofSample, patterns, async (c) => {
    const { db, config } = c.get('deps');
    const { svcId, images } = await sampleImages(db, config, c.get('user'), c.req.valid('param').svc_id);
    return c.json({ svc_id: svcId, number_found: images.length, data: images }, 200);
  });
  for (const [route, which] of [
    [bytes, 'image'],
    [thumbnail, 'thumbnail'],
  ] as const) {
    app.openapi(route, async (c) => {
      const { db, config, logger } = c.get('deps');
      const image = await readImage(db, fileStore({ db, config, logger }), c.get('user'), c.req.valid('param').image_id, which);
      return c.body(Readable.toWeb(image.body) as ReadableStream, 200, {
        'content-type': image.contentType,
        'content-disposition': `inline; filename="${image.fileName.replace(/["\\\r\n]/g, '_')}"`,
        'cache-control': 'private, max-age=300',
      });
    });
  }
}
