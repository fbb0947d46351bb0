import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { createMiddleware } from 'hono/factory';
import { SCHEMA_NAMES } from '@/db/schema';
import { describeComponent, describeTerm, type TermUse } from '@/lib/checklists/terms';
import { TooLarge } from '@/lib/errors';
import {
  exportStudy,
  JSONLD_TYPE,
  listStudies,
  studyTemplate,
  XLSX_TYPE,
  type StudyFile,
  type StudySummary,
} from '@/lib/studies/studies';
import { SAVED_MESSAGE, uploadStudy, type UploadResult } from '@/lib/studies/upload';
import { requireAuth } from '../auth';
import type { AppEnv, ApiApp } from '../context';
import { openapiConstrained, PATH_PATTERNS } from '../openapi';
import { pick, problemResponses, security } from '../schemas';
import { ProfileIdParam } from './profiles';

const tags = ['Studies'];
export const studyPathPatterns = { profile_id: PATH_PATTERNS.profile_id, study_id: '[A-Za-z0-9._-]+' };
const patterns = studyPathPatterns;

const SchemaParams = ProfileIdParam.extend({
  schema_name: z
    .string()
    .openapi({
      param: { name: 'schema_name', in: 'path' },
      description: `${SCHEMA_NAMES.join(', ')} (any case)`,
      example: 'svc_single_cell',
    }),
});
export const StudyParams = SchemaParams.extend({
  study_id: z
    .string()
    .regex(/^[A-Za-z0-9._-]+$/)
    .openapi({
      param: { name: 'study_id', in: 'path' },
      description: 'letters, digits, `_`, `-` and `.`',
      example: 'STUDY001',
    }),
});
const ChecklistQuery = z.object({
  checklist_id: z
    .string()
    .optional()
    .openapi({ param: { name: 'checklist_id', in: 'query' }, example: 'version_dwc_sc_rnaseq' }),
});

const ReportEntrySchema = z
  .object({
    sheet: z.string().openapi({ example: 'study' }),
    row: z.number().int().nullable().openapi({ description: 'Excel row number', example: 5 }),
    column: z.string().nullable().openapi({ example: 'Title' }),
    value: z.string().nullable(),
    message: z.string(),
    path: z.string().openapi({ example: 'study!B5' }),
  })
  .openapi('StudyReportEntry');

const UploadReportSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.literal(422),
    detail: z.string().openapi({ example: 'Spreadsheet is not valid, please check the errors in the manifest.' }),
    message: z.string(),
    errors: z.array(ReportEntrySchema),
    warnings: z.array(ReportEntrySchema),
  })
  .openapi('StudyUploadReport');

const UploadResultSchema = z
  .object({
    status: z.literal('success'),
    message: z.string().openapi({ example: SAVED_MESSAGE }),
    study_id: z.string(),
    created: z.boolean().openapi({ description: 'a new study rather than a replacement' }),
    changed: z.boolean().openapi({ description: 'false when the upload equals the stored study (nothing written)' }),
    components: z.record(z.string(), z.number().int()).openapi({ description: 'rows stored per component' }),
    warnings: z.array(ReportEntrySchema),
  })
  .openapi('StudyUploadResult');

const StudySchema = z
  .object({
    study_id: z.string(),
    checklist_id: z.string(),
    profile_id: z.string(),
    schema_name: z.string(),
  })
  .catchall(z.unknown())
  .openapi('Study', {
    description:
      'The study sheet’s values by term name, then per repository the study goes to `status_<repo>` ' +
      '(pending, processing, accepted, rejected, published), `accession_<repo>` and `error_<repo>`, then ' +
      '`checklist_id`, `profile_id`, `schema_name`, `components` (rows per sheet), `accessions`, `date_created`, ' +
      '`date_modified`.',
  });

const UploadForm = z.object({
  checklist_id: z.string().optional().openapi({ example: 'version_dwc_sc_rnaseq' }),
  file: z
    .custom<File | string>((v) => v instanceof File || typeof v === 'string')
    .optional()
    .openapi({ type: 'string', format: 'binary', description: 'the study spreadsheet (.xlsx)' }),
});

const file = (types: string[], description: string) => ({
  description,
  content: Object.fromEntries(types.map((t) => [t, { schema: z.string().openapi({ format: 'binary' }) }])),
});

const template = createRoute({
  method: 'get',
  path: '/profiles/{profile_id}/schema/{schema_name}/template',
  tags,
  summary: 'Blank study spreadsheet of a checklist',
  description:
    'One sheet per component of the checklist: labels in row 1 (mandatory ones bold), description and example in ' +
    'rows 2–3, the separator in row 4, data from row 5, with drop-downs for allowed values and references.',
  security,
  middleware: [requireAuth] as const,
  request: { params: SchemaParams, query: ChecklistQuery },
  responses: { 200: file([XLSX_TYPE], 'The template'), ...pick(400, 401, 404) },
});

const list = createRoute({
  method: 'get',
  path: '/profiles/{profile_id}/schema/{schema_name}/studies',
  tags,
  summary: 'Studies of the profile under the schema',
  description: 'An empty list when there are none (the reference system answered 404 `No studies found`).',
  security,
  middleware: [requireAuth] as const,
  request: { params: SchemaParams, query: ChecklistQuery },
  responses: {
    200: { description: 'Studies, oldest first', content: { 'application/json': { schema: z.array(StudySchema) } } },
    ...pick(400, 401, 404),
  },
});

const upload = createRoute({
  method: 'post',
  path: '/profiles/{profile_id}/schema/{schema_name}/studies',
  tags,
  summary: 'Create or replace a study from a spreadsheet',
  description:
    'The study is keyed by the study_id of the study sheet. Every rule is checked at once; a spreadsheet that ' +
    'breaks any answers 422 with the report (sheet, Excel row, column, value, message) and nothing is stored. A ' +
    'replacement cannot change schema or checklist, cannot drop a row that carries an accession, and is refused ' +
    'while the study is being submitted (409). Data files not yet uploaded to the profile are warnings.',
  security,
  middleware: [
    requireAuth,
    createMiddleware<AppEnv>((c, next) =>
      bodyLimit({
        maxSize: c.get('deps').config.UPLOAD_MAX_BYTES,
        onError: () => {
          throw TooLarge(`The upload is larger than the limit of ${c.get('deps').config.UPLOAD_MAX_BYTES} bytes.`);
        },
      })(c, next),
    ),
  ] as const,
  request: {
    params: SchemaParams,
    body: { required: false, content: { 'multipart/form-data': { schema: UploadForm } } },
  },
  responses: {
    200: { description: 'Saved', content: { 'application/json': { schema: UploadResultSchema } } },
    ...pick(400, 401, 404, 409, 413),
    415: { description: 'Not an .xlsx file', content: problemResponses[400].content },
    422: {
      description: 'The spreadsheet breaks rules',
      content: { 'application/problem+json': { schema: UploadReportSchema } },
    },
  },
});

const download = createRoute({
  method: 'get',
  path: '/profiles/{profile_id}/schema/{schema_name}/studies/{study_id}',
  tags,
  summary: 'The study as a spreadsheet (default) or JSON-LD',
  description:
    'The spreadsheet re-uploads unchanged to the same study. JSON-LD carries an inline @context that maps each ' +
    'term to its IRI (the checklist’s term reference, or this service’s term page).',
  security,
  middleware: [requireAuth] as const,
  request: {
    params: StudyParams,
    query: z.object({
      return_type: z
        .string()
        .optional()
        .openapi({ param: { name: 'return_type', in: 'query' }, description: 'xlsx (default) or jsonld' }),
    }),
  },
  responses: { 200: file([XLSX_TYPE, JSONLD_TYPE], 'The study'), ...pick(400, 401, 404) },
});

const Page = z.object({ schema_name: z.string() }).catchall(z.unknown());
const VocabParams = z.object({
  schema_name: z.string().openapi({ param: { name: 'schema_name', in: 'path' }, example: 'svc_single_cell' }),
});

const termPage = createRoute({
  method: 'get',
  path: '/profiles/schema/{schema_name}/terms/{term_name}',
  tags,
  summary: 'A term of a schema (what the JSON-LD term IRIs of this service resolve to)',
  request: {
    params: VocabParams.extend({
      term_name: z.string().openapi({ param: { name: 'term_name', in: 'path' }, example: 'study_id' }),
    }),
  },
  responses: {
    200: { description: 'Each definition of the term, per component', content: { 'application/json': { schema: Page } } },
    ...pick(404),
  },
});

const componentPage = createRoute({
  method: 'get',
  path: '/profiles/schema/{schema_name}/components/{component}',
  tags,
  summary: 'A component (sheet) of a schema (what the JSON-LD component IRIs resolve to)',
  request: {
    params: VocabParams.extend({
      component: z.string().openapi({ param: { name: 'component', in: 'path' }, example: 'lib_prep' }),
    }),
  },
  responses: {
    200: { description: 'The component', content: { 'application/json': { schema: Page } } },
    ...pick(404),
  },
});

const termJson = (schema: string, term: string, uses: TermUse[]) => ({
  schema_name: schema,
  term_name: term,
  definitions: uses.map((u) => ({
    component: u.component,
    label: u.field.label,
    description: u.field.description,
    example: u.field.example,
    type: u.field.type,
    cardinality: u.field.cardinality,
    identifier: u.field.identifier,
    ...(u.field.allowedValues && { allowed_values: u.field.allowedValues }),
    ...(u.field.regex && { pattern: u.field.regex, error_message: u.field.errorMessage ?? '' }),
    ...(u.field.referencedComponent && { referenced_component: u.field.referencedComponent }),
    ...(u.field.reference && { [u.field.type === 'ontology' ? 'ontology_root' : 'reference']: u.field.reference }),
    checklists: Object.fromEntries(Object.entries(u.checklists).map(([id, m]) => [id, m ? 'mandatory' : 'optional'])),
  })),
});

const sendFile = (c: Context<AppEnv>, f: StudyFile) =>
  c.body(typeof f.body === 'string' ? f.body : new Uint8Array(f.body), 200, {
    'content-type': f.contentType,
    'content-disposition': `attachment; filename=${f.fileName}`,
  });

export const studyJson = (s: StudySummary) => {
  const repos: Record<string, string> = {};
  for (const [repo, state] of Object.entries(s.repositories)) {
    repos[`status_${repo}`] = state.status;
    repos[`accession_${repo}`] = state.accession;
    repos[`error_${repo}`] = state.error;
    if (state.doi) repos[`doi_${repo}`] = state.doi;
    const stateAt = s.accessions[repo as keyof typeof s.accessions]?.state;
    if (typeof stateAt === 'string' && stateAt) repos[`state_${repo}`] = stateAt;
  }
  return {
    ...s.values,
    study_id: s.studyId,
    ...repos,
    checklist_id: s.checklistId,
    profile_id: s.profileId,
    schema_name: s.schemaName,
    components: s.counts,
    accessions: s.accessions,
    date_created: s.createdAt.toISOString(),
    date_modified: s.updatedAt.toISOString(),
  };
};

const uploadJson = (r: UploadResult) => ({
  status: 'success' as const,
  message: SAVED_MESSAGE,
  study_id: r.studyId,
  created: r.created,
  changed: r.changed,
  components: r.counts,
  warnings: r.warnings,
});

export function registerStudyRoutes(app: ApiApp) {
  app.openapi(termPage, async (c) => {
    const { schema_name, term_name } = c.req.valid('param');
    const uses = await describeTerm(c.get('deps').db, schema_name, term_name);
    return c.json(termJson(schema_name.toLowerCase(), term_name, uses), 200);
  });
  app.openapi(componentPage, async (c) => {
    const { schema_name, component } = c.req.valid('param');
    const page = await describeComponent(c.get('deps').db, schema_name, component);
    return c.json(
      {
        schema_name: schema_name.toLowerCase(),
        component: page.key,
        name: page.name,
        description: page.description,
        repositories: page.repositories,
        checklists: page.checklists,
      },
      200,
    );
  });
  openapiConstrained(app, template, patterns, async (c) => {
    const { profile_id, schema_name } = c.req.valid('param');
    const f = await studyTemplate(c.get('deps').db, c.get('user'), {
      profileId: profile_id,
      schemaName: schema_name,
      checklistId: c.req.valid('query').checklist_id,
    });
    return sendFile(c, f);
  });
  openapiConstrained(app, list, patterns, async (c) => {
    const { profile_id, schema_name } = c.req.valid('param');
    const rows = await listStudies(c.get('deps').db, c.get('user'), {
      profileId: profile_id,
      schemaName: schema_name,
      checklistId: c.req.valid('query').checklist_id,
    });
    return c.json(rows.map(studyJson), 200);
  });
  openapiConstrained(app, upload, patterns, async (c) => {
    const { profile_id, schema_name } = c.req.valid('param');
    const form = c.req.valid('form') as { checklist_id?: unknown; file?: unknown };
    const sent = [form.file].flat().find((f): f is File => f instanceof File);
    const result = await uploadStudy(c.get('deps'), c.get('user'), {
      profileId: profile_id,
      schemaName: schema_name,
      checklistId: typeof form.checklist_id === 'string' ? form.checklist_id : undefined,
      file: sent && { name: sent.name, bytes: new Uint8Array(await sent.arrayBuffer()) },
    });
    return c.json(uploadJson(result), 200);
  });
  openapiConstrained(app, download, patterns, async (c) => {
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
