import { createRoute, z } from '@hono/zod-openapi';
import { listProfileFiles, presignUploads, type PresignedUpload } from '@/lib/files/files';
import { receiveUpload } from '@/lib/files/local';
import type { StoredFile } from '@/lib/files/store';
import { requireAuth } from '../auth';
import type { ApiApp } from '../context';
import { openapiConstrained, PATH_PATTERNS } from '../openapi';
import { jsonResponse, pick, security } from '../schemas';
import { ProfileIdParam } from './profiles';

const FileSchema = z
  .object({
    file_name: z.string().openapi({ example: 'run1_R1.fastq.gz' }),
    size_in_bytes: z.number().int(),
    last_uploaded: z.string(),
    S3_ETag: z.string().openapi({ example: '9b2cf535f27731c974343645a3985328' }),
  })
  .openapi('DataFile');

const fileJson = (f: StoredFile) => ({
  file_name: f.fileName,
  size_in_bytes: f.sizeInBytes,
  last_uploaded: f.lastUploaded.toISOString(),
  S3_ETag: f.etag,
});

const UploadUrlSchema = z
  .object({
    name: z.string(),
    file_name: z.string().openapi({ description: 'the same as name (the reference returned `name` only)' }),
    url: z.string(),
    method: z.literal('PUT'),
    expires: z.string().openapi({ description: 'ISO 8601; URLs are valid for 24 hours' }),
    curl: z.string().openapi({ example: "curl -T 'a.fastq.gz' 'https://…'" }),
  })
  .openapi('UploadUrl');

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const uploadJson = (u: PresignedUpload) => ({
  name: u.name,
  file_name: u.name,
  url: u.url,
  method: u.method,
  expires: u.expiresAt.toISOString(),
  curl: `curl -T ${shellQuote(u.name)} ${shellQuote(u.url)}`,
});

const tags = ['Profiles'];
const auth = [requireAuth];
const idPattern = { profile_id: PATH_PATTERNS.profile_id };

const list = createRoute({
  method: 'get',
  path: '/profiles/{profile_id}/files',
  tags,
  summary: 'Data files uploaded to the profile',
  description: 'Names keep their sub-folders (`dir/b.fastq.gz`); the reference system showed `/` as `_`.',
  security,
  middleware: auth,
  request: { params: ProfileIdParam },
  responses: { 200: jsonResponse('Files, by name', z.array(FileSchema)), ...pick(401, 403, 404) },
});

const presignDescription =
  'One URL per name that accepts a single HTTP PUT of the file (e.g. `curl -T <file> <url>`) for 24 hours. Names ' +
  'may contain sub-folders separated by `/`; empty, `.` and `..` segments, a leading `/`, backslashes, control ' +
  'characters and names over 255 bytes are refused with 400.';

const presignGet = createRoute({
  method: 'get',
  path: '/profiles/{profile_id}/files/presignedurls',
  tags,
  summary: 'Upload URLs for data files (names in the query)',
  description: `${presignDescription} Names are a comma-separated list or a repeated parameter (a name that contains a comma needs the POST form).`,
  security,
  middleware: auth,
  request: {
    params: ProfileIdParam,
    query: z.object({
      file_names: z
        .union([z.string(), z.array(z.string())])
        .optional()
        .openapi({ param: { name: 'file_names', in: 'query' }, example: 'a.fastq.gz,b.fastq.gz' }),
    }),
  },
  responses: { 200: jsonResponse('Upload URLs', z.array(UploadUrlSchema)), ...pick(400, 401, 403, 404) },
});

const presignPost = createRoute({
  method: 'post',
  path: '/profiles/{profile_id}/files/presignedurls',
  tags,
  summary: 'Upload URLs for data files (names in the body, as the reference system takes them)',
  description: presignDescription,
  security,
  middleware: auth,
  request: {
    params: ProfileIdParam,
    body: {
      required: true,
      content: {
        'application/json': {
          schema: z.object({ file_names: z.array(z.string()).openapi({ example: ['a.fastq.gz', 'dir/b.fastq.gz'] }) }),
        },
      },
    },
  },
  responses: { 200: jsonResponse('Upload URLs', z.array(UploadUrlSchema)), ...pick(400, 401, 403, 404) },
});

const upload = createRoute({
  method: 'put',
  path: '/uploads/{profile_id}/{file_name}',
  tags,
  summary: 'Receive a file through a signed upload URL (local storage)',
  description:
    'Only reached through a URL from `presignedurls`; the signature is the credential, so no API key is sent. A ' +
    'bad or expired signature is 403, a body over UPLOAD_MAX_BYTES 413; either way nothing is stored.',
  request: {
    params: ProfileIdParam.extend({
      file_name: z.string().openapi({ param: { name: 'file_name', in: 'path' }, description: 'may contain `/`' }),
    }),
    query: z.object({ expires: z.string().optional(), signature: z.string().optional() }),
    body: {
      required: true,
      content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } },
    },
  },
  responses: { 200: jsonResponse('The stored file', FileSchema), ...pick(400, 403, 404, 409, 413) },
});

const commaList = (v: string | string[] | undefined) =>
  [v ?? []]
    .flat()
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean);

export function registerFileRoutes(app: ApiApp) {
  openapiConstrained(app, list, idPattern, async (c) => {
    const files = await listProfileFiles(c.get('deps'), c.get('user'), c.req.valid('param').profile_id);
    return c.json(files.map(fileJson), 200);
  });
  openapiConstrained(app, presignGet, idPattern, async (c) => {
    const names = commaList(c.req.valid('query').file_names);
    const urls = await presignUploads(c.get('deps'), c.get('user'), c.req.valid('param').profile_id, names);
    return c.json(urls.map(uploadJson), 200);
  });
  openapiConstrained(app, presignPost, idPattern, async (c) => {
    const { file_names } = c.req.valid('json');
    const urls = await presignUploads(c.get('deps'), c.get('user'), c.req.valid('param').profile_id, file_names);
    return c.json(urls.map(uploadJson), 200);
  });
  // the name may span several segments (`dir/b.fastq.gz`), so the last parameter takes the rest of the path
  openapiConstrained(app, upload, { ...idPattern, file_name: '.+' }, async (c) => {
    const { profile_id, file_name } = c.req.valid('param');
    const { expires, signature } = c.req.valid('query');
    const file = await receiveUpload(c.get('deps'), {
      profileId: profile_id,
      fileName: file_name,
      expires,
      signature,
      contentLength: c.req.header('content-length'),
      body: c.req.raw.body,
    });
    return c.json(fileJson(file), 200, { etag: `"${file.etag}"` });
  });
}
