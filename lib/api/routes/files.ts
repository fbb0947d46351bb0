import { z } from '@hono/zod-openapi';
import {
  DataFileSchema,
  PresignBodySchema,
  PresignQuerySchema,
  UploadParamsSchema,
  UploadQuerySchema,
  UploadUrlSchema,
} from '@/lib/files/contract';
import { fileJson, uploadUrlJson } from '@/lib/files/json';
import { receiveUpload } from '@/lib/files/local';
import { ProfileParamsSchema } from '@/lib/profiles/contract';
import { listProfileFiles, presignUploads } from '@/lib/profiles/files';
import { filesInUse } from '@/lib/removal/data-files';
import type { UserRecord } from '@/lib/users/users';
import type { ApiApp, ApiDeps } from '../context';
import { openapiConstrained, PATH_PATTERNS } from '../openapi';
import { announcePage, PAGE_HEADERS } from '../paging';
import { route } from '../policy';
import { jsonResponse, PageQuery, pick } from '../schemas';

const tags = ['Profiles'];
const idPattern = { profile_id: PATH_PATTERNS.profile_id };

const list = route(
  {
    method: 'get',
    path: '/profiles/{profile_id}/files',
    tags,
    summary: 'Data files uploaded to the profile',
    description: 'Names keep their sub-folders (`dir/b.fastq.gz`); the reference system showed `/` as `_`.',
    request: { params: ProfileParamsSchema, query: PageQuery },
    responses: {
      200: { ...jsonResponse('A page of the files, by name', z.array(DataFileSchema)), headers: PAGE_HEADERS },
      ...pick(400, 401, 403, 404),
    },
  },
  { access: { profile: 'view', in: 'profile_id' } },
);

const presignDescription =
  'One URL per name that accepts a single HTTP PUT of the file (e.g. `curl -T <file> <url>`) for 24 hours. Names ' +
  'may contain sub-folders separated by `/`; empty, `.` and `..` segments, a leading `/`, backslashes, control ' +
  'characters and names over 255 bytes are refused with 400. Declare each file’s size (`file_sizes`, one per name) ' +
  'and the URL takes a body of exactly that size (on S3 the size is signed, so S3 itself refuses another length); ' +
  'a declared size over UPLOAD_MAX_BYTES is 413 and no URL is made. Without a declared size, local storage counts ' +
  'the bytes it receives, and on S3 an object found over the limit is removed and never listed or used.';

const urls = jsonResponse('Upload URLs', z.array(UploadUrlSchema));

const presignGet = route(
  {
    method: 'get',
    path: '/profiles/{profile_id}/files/presignedurls',
    tags,
    summary: 'Upload URLs for data files (names in the query)',
    description: `${presignDescription} Names are a comma-separated list or a repeated parameter (a name that contains a comma needs the POST form).`,
    request: { params: ProfileParamsSchema, query: PresignQuerySchema },
    responses: { 200: urls, ...pick(400, 401, 403, 404, 413) },
  },
  { access: { profile: 'contribute', in: 'profile_id' } },
);

const presignPost = route(
  {
    method: 'post',
    path: '/profiles/{profile_id}/files/presignedurls',
    tags,
    summary: 'Upload URLs for data files (names in the body, as the reference system takes them)',
    description: presignDescription,
    request: {
      params: ProfileParamsSchema,
      body: { required: true, content: { 'application/json': { schema: PresignBodySchema } } },
    },
    responses: { 200: urls, ...pick(400, 401, 403, 404, 413, 415) },
  },
  { access: { profile: 'contribute', in: 'profile_id' } },
);

const upload = route(
  {
    method: 'put',
    path: '/uploads/{profile_id}/{file_name}',
    tags,
    summary: 'Receive a file through a signed upload URL (local storage)',
    description:
      'Only reached through a URL from `presignedurls`; the signature is the credential, so no API key is sent. A ' +
      'bad or expired signature is 403, a body over UPLOAD_MAX_BYTES 413; either way nothing is stored.',
    request: {
      params: UploadParamsSchema,
      query: UploadQuerySchema,
      body: {
        required: true,
        content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } },
      },
    },
    responses: { 200: jsonResponse('The stored file', DataFileSchema), ...pick(400, 403, 404, 409, 413) },
  },
  { access: 'anyone', body: 'streamed' },
);

export function registerFileRoutes(app: ApiApp) {
  openapiConstrained(app, list, idPattern, async (c) => {
    const page = c.req.valid('query');
    const { profile_id } = c.req.valid('param');
    const files = await listProfileFiles(c.get('deps'), c.get('user'), profile_id);
    const shown = files.slice(page.offset, page.offset + page.limit);
    const used = await filesInUse(c.get('deps').db, profile_id);
    announcePage(c, page, shown.length, files.length);
    return c.json(
      shown.map((f) => ({ ...fileJson(f), used_by: used.get(f.fileName) ?? [] })),
      200,
    );
  });
  // the same upload URLs asked for in the query (the reference's GET) or in a JSON body (long lists of names)
  const uploadUrls = async (deps: ApiDeps, user: UserRecord, profileId: string, ask: { file_names: string[]; file_sizes?: number[] }) =>
    (await presignUploads(deps, user, profileId, ask.file_names, ask.file_sizes)).map((u) =>
      uploadUrlJson(u, deps.config.UPLOAD_MAX_BYTES),
    );
  openapiConstrained(app, presignGet, idPattern, async (c) =>
    c.json(await uploadUrls(c.get('deps'), c.get('user'), c.req.valid('param').profile_id, c.req.valid('query')), 200),
  );
  openapiConstrained(app, presignPost, idPattern, async (c) =>
    c.json(await uploadUrls(c.get('deps'), c.get('user'), c.req.valid('param').profile_id, c.req.valid('json')), 200),
  );
  // the name may span several segments (`dir/b.fastq.gz`), so the last parameter takes the rest of the path
  openapiConstrained(app, upload, { ...idPattern, file_name: '.+' }, async (c) => {
    const { profile_id, file_name } = c.req.valid('param');
    const { expires, size, signature } = c.req.valid('query');
    const file = await receiveUpload(c.get('deps'), {
      profileId: profile_id,
      fileName: file_name,
      expires,
      size,
      signature,
      contentLength: c.req.header('content-length'),
      body: c.req.raw.body,
    });
    return c.json(fileJson(file), 200, { etag: `"${file.etag}"` });
  });
}
