import { z } from '@hono/zod-openapi';
import { Invalid, TooLarge } from '@/lib/errors';
import { mailContext } from '@/lib/mail/outbox';
import { ManifestParseReasonSchema, TemplateQuerySchema } from '@/lib/manifests/contract';
import { permitsOfReport } from '@/lib/permits/permits';
import { confirmReport } from '@/lib/reports/confirm';
import {
  IssueGroupsQuerySchema,
  IssueGroupsSchema,
  ManifestConfirmedSchema,
  ManifestUploadFormSchema,
  type ReportIdFields,
  ReportIdFieldsSchema,
  ReportIdParamsSchema,
  ReportIssueFilterSchema,
  ReportIssuesPageSchema,
  ReportListFilterSchema,
  ValidationQueuedSchema,
  ValidationReportSchema,
  ValidationReportStateSchema,
  ValidationReportSummarySchema,
} from '@/lib/reports/contract';
import { createValidationReport } from '@/lib/reports/create';
import { reportIssueGroups, reportIssues } from '@/lib/reports/issues';
import { reportJson, reportStateJson, reportSummaries } from '@/lib/reports/json';
import { getReport, getReportSummary } from '@/lib/reports/read';
import { manifestTemplate } from '@/lib/samples/manifest-template';
import { requireAuth } from '../auth';
import type { ApiApp } from '../context';
import { announcePage, PAGE_HEADERS } from '../paging';
import { route, SHEET_UPLOAD } from '../policy';
import { fileResponse, jsonResponse, PageQuery, ProblemSchema, pick, XLSX } from '../schemas';

const tags = ['Manifest validation'];

// a file that cannot be read as a manifest says why in `reason` (the problem of lib/api/schemas.ts has no such member)
const ManifestFileProblemSchema = z
  .object({
    ...ProblemSchema.shape,
    reason: ManifestParseReasonSchema.optional().meta({ description: 'why the file cannot be read as a manifest' }),
  })
  .openapi('ManifestFileProblem');
const manifestFileProblem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: ManifestFileProblemSchema } },
});

const validate = route(
  {
    method: 'post',
    path: '/manifest/validate',
    tags,
    summary: 'Upload a Tree of Life manifest for validation; answers at once with the report id',
    request: { body: { required: true, content: { 'multipart/form-data': { schema: ManifestUploadFormSchema } } } },
    responses: {
      202: jsonResponse('The report was created; poll it with manifest/validate/report', ValidationQueuedSchema),
      ...pick(400, 401, 403, 404, 413),
      415: manifestFileProblem('Not an .xlsx or .csv file (`reason`: unsupported_format), or not a multipart form'),
      422: manifestFileProblem('Not a manifest that can be read: empty, not a spreadsheet, no Metadata Entry sheet (`reason` says which)'),
    },
  },
  {
    access: { profile: 'contribute', of: 'body' },
    rateLimit: 'uploads',
    body: SHEET_UPLOAD,
  },
);

/** manifest/validate/report and confirm take the report id as the reference's clients send it: a form, JSON or the query. */
const reportIdRequest = {
  query: ReportIdFieldsSchema,
  body: {
    required: false,
    content: {
      'application/json': { schema: ReportIdFieldsSchema },
      'multipart/form-data': { schema: ReportIdFieldsSchema },
      'application/x-www-form-urlencoded': { schema: ReportIdFieldsSchema },
    },
  },
};

/** The body's id first (either name), then the query's. */
function reportIdOf(...sources: ReportIdFields[]): string {
  for (const s of sources) {
    const id = s.validation_report_id ?? s.report_id;
    if (id) return id;
  }
  throw Invalid("'validation_report_id' is required but not provided.", [
    { path: 'validation_report_id', message: 'This field is required.' },
  ]);
}

const report = route(
  {
    method: 'post',
    path: '/manifest/validate/report',
    tags,
    summary: 'A validation report (validation_report_id in a form, JSON or the query)',
    request: reportIdRequest,
    responses: { 200: jsonResponse('The report', ValidationReportSchema), ...pick(400, 401, 404, 415) },
  },
  { access: { profile: 'view', of: 'report' } },
);
const reportGet = route(
  {
    method: 'get',
    path: '/manifest/validate/report/{report_id}',
    tags,
    summary: 'A validation report',
    request: { params: ReportIdParamsSchema },
    responses: { 200: jsonResponse('The report', ValidationReportSchema), ...pick(401, 404) },
  },
  { access: { profile: 'view', of: 'report' } },
);

const ListQuery = PageQuery.extend(ReportListFilterSchema.shape);

const validationsConfig = {
  method: 'post',
  path: '/manifest/validations',
  tags,
  summary: 'A page of the caller’s validation reports, newest first (without their error lists)',
  description: '`content` holds the first error messages; the whole report is at `manifest/validate/report/{report_id}`.',
  request: { query: ListQuery },
  responses: {
    200: { ...jsonResponse('Reports', ValidationReportSummarySchema.array()), headers: PAGE_HEADERS },
    ...pick(400, 401),
  },
} as const;
const validations = route(validationsConfig, { access: 'signed-in' });
const validationsGet = route({ ...validationsConfig, method: 'get' }, { access: 'signed-in' });

const reportStatus = route(
  {
    method: 'get',
    path: '/manifest/validate/report/{report_id}/status',
    tags,
    summary: 'Where a validation stands, for polling: status, progress and counts, without the error lists',
    request: { params: ReportIdParamsSchema },
    responses: { 200: jsonResponse('The report’s state', ValidationReportStateSchema), ...pick(401, 404) },
  },
  { access: { profile: 'view', of: 'report' } },
);

const IssuesQuery = PageQuery.extend(ReportIssueFilterSchema.shape);

const issuesPage = route(
  {
    method: 'get',
    path: '/manifest/validate/report/{report_id}/issues',
    tags,
    summary: 'A page of a validation report’s errors and warnings, by severity, field and rule',
    description:
      'Errors first, then warnings, each in the report’s order. `severity`, `field` and `rule` together name one group of ' +
      '`manifest/validate/report/{report_id}/groups`; an empty `field` selects the issues of the sheet as a whole.',
    request: { params: ReportIdParamsSchema, query: IssuesQuery },
    responses: { 200: jsonResponse('The page', ReportIssuesPageSchema), ...pick(400, 401, 404) },
  },
  { access: { profile: 'view', of: 'report' } },
);

const issueGroups = route(
  {
    method: 'get',
    path: '/manifest/validate/report/{report_id}/groups',
    tags,
    summary: 'A validation report’s errors and warnings grouped by field and rule, with counts',
    description:
      'One group per severity, field and rule, with the number of issues and of rows, the allowed values of a vocabulary ' +
      'and the expected format where the manifest definition names them; the cells of a group are at ' +
      '`manifest/validate/report/{report_id}/issues`.',
    request: { params: ReportIdParamsSchema, query: IssueGroupsQuerySchema },
    responses: { 200: jsonResponse('The groups', IssueGroupsSchema), ...pick(400, 401, 404) },
  },
  { access: { profile: 'view', of: 'report' } },
);

const confirm = route(
  {
    method: 'post',
    path: '/manifest/validate/confirm',
    tags,
    summary: 'Create or update the samples of a complete report without errors',
    description:
      'One transaction: a new manifest and its samples, or, for a re-upload, the changed fields with an audit record each. ' +
      'A report can be confirmed once; a report whose profile changed since must be validated again (409). An ERGA ' +
      'manifest that names permits is confirmed only once every permit PDF has been uploaded (409 naming the missing ' +
      'files; see manifest/validate/permits). The sample managers of the project are emailed. The report id ' +
      '(validation_report_id) is taken from a form, JSON or the query.',
    request: reportIdRequest,
    responses: { 200: jsonResponse('What was written', ManifestConfirmedSchema), ...pick(400, 401, 404, 409, 415) },
  },
  { access: { profile: 'contribute', of: 'report' } },
);

const template = route(
  {
    method: 'get',
    path: '/manifest/template',
    tags: ['Manifests'],
    summary: 'A manifest template (xlsx) for a project and version, blank or with values common to every row pre-filled',
    description:
      'Generated from the stored definition. With `prefill` (and `rows`) the named columns are filled on each of the ' +
      'first `rows` data rows; with `profile_id` the template is of the profile’s type and takes what the profile says ' +
      'of its sequencing centre and sub-project. `profile_id` needs an API key or the portal’s session.',
    request: { query: TemplateQuerySchema },
    responses: { 200: fileResponse('The workbook', XLSX), ...pick(400, 401, 404) },
  },
  // a profile's template is for whoever may see the profile: the caller is then known before anything is built
  { access: 'anyone', guard: async (c) => (c.req.query('profile_id') === undefined ? undefined : requireAuth(c, async () => {})) },
);

export function registerManifestValidationRoutes(app: ApiApp) {
  app.openapi(validate, async (c) => {
    const { profile_id, file } = c.req.valid('form');
    if (!file) {
      throw Invalid("'file' is required but not provided.", [
        { path: 'file', message: 'Upload the manifest as the multipart field file.' },
      ]);
    }
    const { db, config, jobs } = c.get('deps');
    if (file.size > config.UPLOAD_MAX_BYTES) throw TooLarge(`The file is larger than the limit of ${config.UPLOAD_MAX_BYTES} bytes.`);
    const row = await createValidationReport(db, jobs, c.get('user'), {
      profileId: profile_id,
      fileName: file.name,
      bytes: new Uint8Array(await file.arrayBuffer()),
    });
    return c.json({ report_id: row.id, validation_report_id: row.id, status: row.status }, 202);
  });
  app.openapi(report, async (c) => {
    const { db } = c.get('deps');
    const id = reportIdOf(c.req.valid('json'), c.req.valid('form'), c.req.valid('query'));
    const row = await getReport(db, c.get('user'), id);
    return c.json(reportJson(row, await permitsOfReport(db, row)), 200);
  });
  app.openapi(reportGet, async (c) => {
    const { db } = c.get('deps');
    const row = await getReport(db, c.get('user'), c.req.valid('param').report_id);
    return c.json(reportJson(row, await permitsOfReport(db, row)), 200);
  });
  app.openapi(reportStatus, async (c) => {
    const row = await getReportSummary(c.get('deps').db, c.get('user'), c.req.valid('param').report_id);
    return c.json(reportStateJson(row), 200);
  });
  app.openapi(issuesPage, async (c) => {
    const { report_id } = c.req.valid('param');
    return c.json(await reportIssues(c.get('deps').db, c.get('user'), report_id, c.req.valid('query')), 200);
  });
  app.openapi(issueGroups, async (c) => {
    const { report_id } = c.req.valid('param');
    return c.json(await reportIssueGroups(c.get('deps').db, c.get('user'), report_id, c.req.valid('query').severity), 200);
  });
  for (const route of [validations, validationsGet]) {
    app.openapi(route, async (c) => {
      const { profile_id, ...page } = c.req.valid('query');
      const { rows, total } = await reportSummaries(c.get('deps').db, c.get('user'), { profileId: profile_id, ...page });
      announcePage(c, page, rows.length, total);
      return c.json(rows, 200);
    });
  }
  app.openapi(confirm, async (c) => {
    const { db, config, jobs } = c.get('deps');
    const id = reportIdOf(c.req.valid('json'), c.req.valid('form'), c.req.valid('query'));
    const result = await confirmReport(db, c.get('user'), id, { mail: mailContext(config, jobs), jobs });
    return c.json(result, 200);
  });
  app.openapi(template, async (c) => {
    const query = c.req.valid('query');
    const { definition, body } = await manifestTemplate(c.get('deps').db, query.profile_id ? c.get('user') : undefined, query);
    return c.body(new Uint8Array(body), 200, {
      'content-type': XLSX,
      'content-disposition': `attachment; filename="${definition.manifestType}_manifest_template_v${definition.version}.xlsx"`,
    });
  });
}
