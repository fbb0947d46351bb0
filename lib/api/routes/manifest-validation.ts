import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { createMiddleware } from 'hono/factory';
import { Invalid, TooLarge } from '@/lib/errors';
import { buildTemplate, findDefinition, isManifestProject, currentDefinition, loadManifestDefinitions } from '@/lib/manifests';
import { confirmReport } from '@/lib/samples/ingest';
import { createValidationReport, getReport, listReports, reportJson } from '@/lib/reports/reports';
import { requireAuth } from '../auth';
import type { ApiApp, AppEnv } from '../context';
import { jsonResponse, pick, security } from '../schemas';

const tags = ['Manifest validation'];
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Refuses an oversized upload before it is read (Content-Length) and while it streams. */
const uploadLimit = createMiddleware<AppEnv>(async (c, next) => {
  const max = c.get('deps').config.UPLOAD_MAX_BYTES;
  const tooLarge = () => TooLarge(`The file is larger than the limit of ${max} bytes.`);
  if (Number(c.req.header('content-length') ?? 0) > max + 64 * 1024) throw tooLarge();
  return bodyLimit({ maxSize: max + 64 * 1024, onError: () => { throw tooLarge(); } })(c, next);
});

const ValidateForm = z.object({
  profile_id: z.string({ error: 'This field is required.' }).min(1, 'This field is required.'),
  file: z.any().openapi({ type: 'string', format: 'binary', description: 'the manifest, .xlsx or .csv' }),
  title: z.string().optional(),
  description: z.string().optional(),
  profile_type: z.string().optional(),
});

const ReportSchema = z.object({}).passthrough().openapi('ValidationReport', {
  description: 'ARCHITECTURE.md Decision 12: report_id, status, summary, errors[{row, column, field, value, rule, message}], warnings',
});

const validate = createRoute({
  method: 'post',
  path: '/manifest/validate',
  tags,
  summary: 'Upload a Tree of Life manifest for validation; answers at once with the report id',
  security,
  middleware: [requireAuth, uploadLimit] as const,
  request: { body: { required: false, content: { 'multipart/form-data': { schema: ValidateForm } } } },
  responses: {
    202: jsonResponse('The report was created; poll it with manifest/validate/report', z.object({ report_id: z.string(), validation_report_id: z.string(), status: z.string() })),
    ...pick(400, 401, 404),
    413: { description: 'The file is too large' },
    415: { description: 'Not an .xlsx or .csv file' },
  },
});

const ReportIdBody = z.object({ validation_report_id: z.string().optional(), report_id: z.string().optional() });
const reportIdFrom = async (c: Context<AppEnv>): Promise<string> => {
  const fromQuery = c.req.query('validation_report_id') ?? c.req.query('report_id');
  let body: Record<string, unknown> = {};
  const type = c.req.header('content-type') ?? '';
  if (type.includes('json')) body = (await c.req.json().catch(() => ({}))) as Record<string, unknown>;
  else if (type.includes('form')) body = (await c.req.parseBody()) as Record<string, unknown>;
  const parsed = ReportIdBody.parse(body);
  const id = parsed.validation_report_id ?? parsed.report_id ?? fromQuery;
  if (!id) throw Invalid("'validation_report_id' is required but not provided.", [{ path: 'validation_report_id', message: 'This field is required.' }]);
  return id;
};

const report = createRoute({
  method: 'post',
  path: '/manifest/validate/report',
  tags,
  summary: 'A validation report (form or JSON field validation_report_id)',
  security,
  middleware: [requireAuth] as const,
  responses: { 200: jsonResponse('The report', ReportSchema), ...pick(400, 401, 404) },
});
const reportGet = createRoute({
  method: 'get',
  path: '/manifest/validate/report/{report_id}',
  tags,
  summary: 'A validation report',
  security,
  middleware: [requireAuth] as const,
  request: { params: z.object({ report_id: z.string() }) },
  responses: { 200: jsonResponse('The report', ReportSchema), ...pick(401, 404) },
});

const validations = createRoute({
  method: 'post',
  path: '/manifest/validations',
  tags,
  summary: 'The caller’s validation reports, newest first (without their error lists)',
  security,
  middleware: [requireAuth] as const,
  responses: { 200: jsonResponse('Reports', z.array(ReportSchema)), ...pick(401) },
});
const validationsGet = createRoute({ ...validations, method: 'get', request: { query: z.object({ profile_id: z.string().optional() }) } });

const confirm = createRoute({
  method: 'post',
  path: '/manifest/validate/confirm',
  tags,
  summary: 'Create or update the samples of a complete report without errors',
  description:
    'One transaction: a new manifest and its samples, or, for a re-upload, the changed fields with an audit record each. ' +
    'A report can be confirmed once; a report whose profile changed since must be validated again (409).',
  security,
  middleware: [requireAuth] as const,
  responses: {
    200: jsonResponse('What was written', z.object({ manifest_id: z.string(), created: z.number(), updated: z.number() })),
    ...pick(400, 401, 404, 409),
  },
});

const template = createRoute({
  method: 'get',
  path: '/manifest/template',
  tags: ['Manifests'],
  summary: 'A blank manifest template (xlsx) for a project and version, generated from the stored definition',
  request: {
    query: z.object({
      project: z.string().openapi({ example: 'dtol' }),
      version: z.string().optional().openapi({ description: 'default: the current version' }),
    }),
  },
  responses: { 200: { description: 'The workbook', content: { [XLSX]: { schema: z.any() } } }, ...pick(400, 404) },
});

export function registerManifestValidationRoutes(app: ApiApp) {
  app.openapi(validate, async (c) => {
    const form = ValidateForm.parse(c.req.valid('form'));
    const file = form.file as unknown;
    if (!(file instanceof File)) {
      throw Invalid("'file' is required but not provided.", [{ path: 'file', message: 'Upload the manifest as the multipart field file.' }]);
    }
    const { db, config } = c.get('deps');
    if (file.size > config.UPLOAD_MAX_BYTES) throw TooLarge(`The file is larger than the limit of ${config.UPLOAD_MAX_BYTES} bytes.`);
    const row = await createValidationReport(db, c.get('user'), {
      profileId: form.profile_id,
      fileName: file.name,
      bytes: new Uint8Array(await file.arrayBuffer()),
    });
    await c.get('deps').jobs.send('manifest.validate', { reportId: row.id });
    return c.json({ report_id: row.id, validation_report_id: row.id, status: row.status }, 202);
  });
  app.openapi(report, async (c) => {
    const row = await getReport(c.get('deps').db, c.get('user'), await reportIdFrom(c));
    return c.json(reportJson(row), 200);
  });
  app.openapi(reportGet, async (c) => {
    const row = await getReport(c.get('deps').db, c.get('user'), c.req.valid('param').report_id);
    return c.json(reportJson(row), 200);
  });
  const listHandler = async (c: Context<AppEnv>) => {
    const rows = await listReports(c.get('deps').db, c.get('user'), { profileId: c.req.query('profile_id') });
    return c.json(rows.map((r) => reportJson(r, { details: false })), 200);
  };
  app.openapi(validations, listHandler);
  app.openapi(validationsGet, listHandler);
  app.openapi(confirm, async (c) => {
    const result = await confirmReport(c.get('deps').db, c.get('user'), await reportIdFrom(c));
    return c.json(result, 200);
  });
  app.openapi(template, async (c) => {
    const { project, version } = c.req.valid('query');
    const p = project.trim().toLowerCase();
    if (!isManifestProject(p)) throw Invalid(`Invalid value for 'project'. Must be one of: ASG, DTOL, DTOLENV or ERGA`);
    const definition = version ? findDefinition(p, version) : currentDefinition(p);
    if (!definition) {
      const known = loadManifestDefinitions().filter((d) => d.project === p).map((d) => d.version);
      throw Invalid(`Unknown version '${version}' of ${p.toUpperCase()}. Known versions: ${known.join(', ')}`);
    }
    const body = await buildTemplate(definition);
    return c.body(new Uint8Array(body), 200, {
      'content-type': XLSX,
      'content-disposition': `attachment; filename="${definition.manifestType}_manifest_template_v${definition.version}.xlsx"`,
    });
  });
}
