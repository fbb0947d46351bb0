import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import {
  ChecklistQuerySchema,
  ExportQuerySchema,
  SchemaParamsSchema,
  STUDY_ID_PATTERN,
  StudyJsonLdSchema,
  StudyParamsSchema,
  StudySchema,
  StudyUploadFieldsSchema,
  StudyUploadReportSchema,
  StudyUploadResultSchema,
} from '@/lib/studies/contract';
import { studyJson, uploadResultJson } from '@/lib/studies/json';
import { exportStudy, JSONLD_TYPE, listStudies, type StudyFile, studyTemplate } from '@/lib/studies/studies';
import { uploadStudy } from '@/lib/studies/upload';
import type { ApiApp, AppEnv } from '../context';
import { openapiConstrained, PATH_PATTERNS } from '../openapi';
import { announcePage, PAGE_HEADERS } from '../paging';
import { route, SHEET_UPLOAD } from '../policy';
import { fileResponse, jsonResponse, PageQuery, pick, UploadedFileSchema, XLSX } from '../schemas';

/** The studies of a profile under a schema: the template to fill, the listing, the upload and the export. */

const tags = ['Studies'];
export const studyPathPatterns = { profile_id: PATH_PATTERNS.profile_id, study_id: STUDY_ID_PATTERN };

const template = route(
  {
    method: 'get',
    path: '/profiles/{profile_id}/schema/{schema_name}/template',
    tags,
    summary: 'Blank study spreadsheet of a checklist',
    description:
      'One sheet per component of the checklist: labels in row 1 (mandatory ones bold), description and example in ' +
      'rows 2–3, the separator in row 4, data from row 5, with drop-downs for allowed values and references.',
    request: { params: SchemaParamsSchema, query: ChecklistQuerySchema },
    responses: { 200: fileResponse('The template', XLSX), ...pick(400, 401, 403, 404) },
  },
  { access: { profile: 'view', in: 'profile_id' } },
);

const list = route(
  {
    method: 'get',
    path: '/profiles/{profile_id}/schema/{schema_name}/studies',
    tags,
    summary: 'Studies of the profile under the schema',
    description: 'An empty list when there are none (the reference system answered 404 `No studies found`).',
    request: { params: SchemaParamsSchema, query: ChecklistQuerySchema.extend(PageQuery.shape) },
    responses: {
      200: { ...jsonResponse('A page of the studies, oldest first', z.array(StudySchema)), headers: PAGE_HEADERS },
      ...pick(400, 401, 403, 404),
    },
  },
  { access: { profile: 'view', in: 'profile_id' } },
);

const upload = route(
  {
    method: 'post',
    path: '/profiles/{profile_id}/schema/{schema_name}/studies',
    tags,
    summary: 'Create or replace a study from a spreadsheet',
    description:
      'The study is keyed by the study_id of the study sheet. Every rule is checked at once; a spreadsheet that ' +
      'breaks any answers 422 with the report (sheet, Excel row, column, value, message) and nothing is stored. A ' +
      'replacement cannot change schema or checklist, cannot drop a row that carries an accession, and is refused ' +
      'while the study is being submitted (409). Data files not yet uploaded to the profile are warnings. A biosample ' +
      'accession must name a sample of the profile or one ENA holds (asked with the Webin account, then ENA’s browser ' +
      'API), with the same taxon id and scientific name; when ENA cannot be reached the answer is 503 and nothing is ' +
      'stored.',
    request: {
      params: SchemaParamsSchema,
      body: {
        required: false,
        content: {
          'multipart/form-data': {
            schema: StudyUploadFieldsSchema.extend({
              file: UploadedFileSchema.optional().openapi({ description: 'the study spreadsheet (.xlsx)' }),
            }),
          },
        },
      },
    },
    responses: {
      200: jsonResponse('Saved', StudyUploadResultSchema),
      ...pick(400, 401, 403, 404, 409, 413, 415, 503),
      422: { description: 'The spreadsheet breaks rules', content: { 'application/problem+json': { schema: StudyUploadReportSchema } } },
    },
  },
  {
    access: { profile: 'contribute', in: 'profile_id' },
    rateLimit: 'uploads',
    body: SHEET_UPLOAD,
  },
);

const download = route(
  {
    method: 'get',
    path: '/profiles/{profile_id}/schema/{schema_name}/studies/{study_id}',
    tags,
    summary: 'The study as a spreadsheet (default) or JSON-LD',
    description:
      'The spreadsheet re-uploads unchanged to the same study. JSON-LD carries an inline @context that maps each ' +
      'term to its IRI (the checklist’s term reference, or this service’s term page).',
    request: { params: StudyParamsSchema, query: ExportQuerySchema },
    responses: {
      200: {
        description: 'The study',
        content: { [XLSX]: { schema: z.string().openapi({ format: 'binary' }) }, [JSONLD_TYPE]: { schema: StudyJsonLdSchema } },
      },
      ...pick(400, 401, 403, 404),
    },
  },
  { access: { profile: 'view', in: 'profile_id' } },
);

const sendFile = (c: Context<AppEnv>, f: StudyFile) =>
  c.body(typeof f.body === 'string' ? f.body : new Uint8Array(f.body), 200, {
    'content-type': f.contentType,
    'content-disposition': `attachment; filename=${f.fileName}`,
  });

export function registerStudyRoutes(app: ApiApp) {
  openapiConstrained(app, template, studyPathPatterns, async (c) => {
    const { profile_id, schema_name } = c.req.valid('param');
    const f = await studyTemplate(c.get('deps').db, c.get('user'), {
      profileId: profile_id,
      schemaName: schema_name,
      checklistId: c.req.valid('query').checklist_id,
    });
    return sendFile(c, f);
  });
  openapiConstrained(app, list, studyPathPatterns, async (c) => {
    const { profile_id, schema_name } = c.req.valid('param');
    const { checklist_id, ...page } = c.req.valid('query');
    const { rows, total } = await listStudies(c.get('deps').db, c.get('user'), {
      profileId: profile_id,
      schemaName: schema_name,
      checklistId: checklist_id,
      page,
    });
    announcePage(c, page, rows.length, total);
    return c.json(rows.map(studyJson), 200);
  });
  openapiConstrained(app, upload, studyPathPatterns, async (c) => {
    const { profile_id, schema_name } = c.req.valid('param');
    const { checklist_id, file } = c.req.valid('form');
    const result = await uploadStudy(c.get('deps'), c.get('user'), {
      profileId: profile_id,
      schemaName: schema_name,
      checklistId: checklist_id,
      file: file && { name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) },
    });
    return c.json(uploadResultJson(result), 200);
  });
  openapiConstrained(app, download, studyPathPatterns, async (c) => {
    const { profile_id, schema_name, study_id } = c.req.valid('param');
    const { db, config } = c.get('deps');
    const f = await exportStudy(db, c.get('user'), {
      profileId: profile_id,
      schemaName: schema_name,
      studyId: study_id,
      returnType: c.req.valid('query').return_type,
      baseUrl: config.baseUrl,
    });
    return sendFile(c, f);
  });
}
