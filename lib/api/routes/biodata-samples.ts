import { z } from '@hono/zod-openapi';
import {
  BiodataSampleListQuerySchema,
  BiodataSampleSchema,
  SampleTemplateQuerySchema,
  SampleUploadAnswerSchema,
  SampleUploadFormSchema,
} from '@/lib/biodata-samples/contract';
import { listBiodataSamples } from '@/lib/biodata-samples/read';
import { buildSampleTemplate } from '@/lib/biodata-samples/template';
import { TooLarge } from '@/lib/errors';
import { ProfileParamsSchema } from '@/lib/profiles/contract';
import { getProfile } from '@/lib/profiles/profiles';
import { createSampleSheetReport } from '@/lib/reports/create';
import { findChecklist } from '@/lib/sample-checklists/store';
import type { ApiApp } from '../context';
import { openapiConstrained, PATH_PATTERNS } from '../openapi';
import { announcePage, PAGE_HEADERS } from '../paging';
import { route, SHEET_UPLOAD } from '../policy';
import { fileResponse, jsonResponse, PageQuery, pick, XLSX } from '../schemas';

const tags = ['Biodata samples'];
const idPattern = { profile_id: PATH_PATTERNS.profile_id };

const template = route(
  {
    method: 'get',
    path: '/profiles/{profile_id}/samples/template',
    tags,
    summary: 'The blank sample sheet of a checklist, to fill and upload',
    description:
      'One column per field of the checklist, the mandatory ones first (shaded, each header’s note saying what it ' +
      'takes), a unit column after each field with units, drop-downs for choice fields and units, and a `sample` ' +
      '(your name for the sample, unique in the profile), `TAXON_ID` and `SCIENTIFIC_NAME` column; a Guide sheet lists ' +
      'every column. For those who may see the profile.',
    request: { params: ProfileParamsSchema, query: SampleTemplateQuerySchema },
    responses: { 200: fileResponse('The template', XLSX), ...pick(400, 401, 404) },
  },
  { access: { profile: 'view', in: 'profile_id' } },
);

const upload = route(
  {
    method: 'post',
    path: '/profiles/{profile_id}/samples',
    tags,
    summary: 'Upload a sample sheet of a checklist for validation; answers at once with the report id',
    description:
      'For a profile that is not a Tree of Life one (those register samples with their manifests). The sheet is ' +
      'validated by a job into a report read and confirmed as a manifest’s is (`GET manifest/validate/report/{id}`, ' +
      '`POST manifest/validate/confirm`). Confirming stores new samples in the profile and updates those whose ' +
      '`sample` names a sample of it; a change to a sample ENA holds is sent to ENA at once. Register new samples ' +
      'with `POST sample/register`. Who may add to the profile may upload.',
    request: {
      params: ProfileParamsSchema,
      body: { required: true, content: { 'multipart/form-data': { schema: SampleUploadFormSchema } } },
    },
    responses: { 202: jsonResponse('The report was created', SampleUploadAnswerSchema), ...pick(400, 401, 403, 404, 413, 415, 422) },
  },
  {
    access: { profile: 'contribute', in: 'profile_id' },
    rateLimit: 'uploads',
    body: SHEET_UPLOAD,
  },
);

const list = route(
  {
    method: 'get',
    path: '/profiles/{profile_id}/samples',
    tags,
    summary: 'A page of the profile’s checklist samples, newest first, with their state and accessions',
    request: { params: ProfileParamsSchema, query: BiodataSampleListQuerySchema.extend(PageQuery.shape) },
    responses: { 200: { ...jsonResponse('The samples', z.array(BiodataSampleSchema)), headers: PAGE_HEADERS }, ...pick(400, 401, 404) },
  },
  { access: { profile: 'view', in: 'profile_id' } },
);

export function registerBiodataSampleRoutes(app: ApiApp) {
  openapiConstrained(app, template, idPattern, async (c) => {
    const { db } = c.get('deps');
    const profile = await getProfile(db, c.get('user'), c.req.valid('param').profile_id);
    const checklist = await findChecklist(db, c.req.valid('query').checklist_id);
    const body = await buildSampleTemplate(checklist);
    const name = `${checklist.id}_samples_${profile.id.slice(-6)}.xlsx`;
    return c.body(new Uint8Array(body), 200, { 'content-type': XLSX, 'content-disposition': `attachment; filename="${name}"` });
  });
  openapiConstrained(app, upload, idPattern, async (c) => {
    const { checklist_id, file } = c.req.valid('form');
    const { db, config, jobs } = c.get('deps');
    if (file.size > config.UPLOAD_MAX_BYTES) throw TooLarge(`The file is larger than the limit of ${config.UPLOAD_MAX_BYTES} bytes.`);
    const row = await createSampleSheetReport(db, jobs, c.get('user'), {
      profileId: c.req.valid('param').profile_id,
      checklistId: checklist_id,
      fileName: file.name,
      bytes: new Uint8Array(await file.arrayBuffer()),
    });
    return c.json({ report_id: row.id, status: row.status }, 202);
  });
  openapiConstrained(app, list, idPattern, async (c) => {
    const { limit, offset, ...filter } = c.req.valid('query');
    const { rows, total } = await listBiodataSamples(c.get('deps').db, c.get('user'), c.req.valid('param').profile_id, {
      ...filter,
      limit,
      offset,
    });
    announcePage(c, { limit, offset }, rows.length, total);
    return c.json(rows, 200);
  });
}
