import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { API_POLICY, securityHeaders, servedOverHttps } from '@/lib/security-headers';
import type { ApiApp, ApiDeps, AppEnv } from './context';
import { errorToResponse, problem, zodProblem } from './errors';
import { methodsFor } from './not-found';
import { requestLog } from './request-log';
import { registerAccountRoutes } from './routes/account';
import { registerAdminAcceptanceRoutes } from './routes/admin-acceptance';
import { registerAdminJobRoutes } from './routes/admin-jobs';
import { registerAdminReferenceRoutes } from './routes/admin-reference';
import { registerAdminUserRoutes } from './routes/admin-users';
import { registerApiKeyRoutes } from './routes/api-key';
import { registerAuditRoutes } from './routes/audit';
import { registerAuditBrowserRoutes } from './routes/audit-browser';
import { registerBarcodeRoutes } from './routes/barcodes';
import { registerBiodataSampleRoutes } from './routes/biodata-samples';
import { registerChecklistRoutes } from './routes/checklists';
import { registerDocsRoutes } from './routes/docs';
import { registerFileRoutes } from './routes/files';
import { registerGroupRoutes } from './routes/groups';
import { registerHealthRoutes } from './routes/health';
import { registerImageRoutes } from './routes/images';
import { registerManifestSpreadsheetRoutes } from './routes/manifest-spreadsheet';
import { registerManifestValidationRoutes } from './routes/manifest-validation';
import { registerManifestReadRoutes } from './routes/manifests-read';
import { registerMappingRoutes } from './routes/mapping';
import { registerMetricsRoutes } from './routes/metrics';
import { registerPasswordResetRoutes } from './routes/password-reset';
import { registerPermitRoutes } from './routes/permits';
import { registerProfileRoutes } from './routes/profiles';
import { registerRemovalRoutes } from './routes/removal';
import { registerSampleBrowserRoutes } from './routes/sample-browser';
import { registerSampleChecklistRoutes } from './routes/sample-checklists';
import { registerSampleCorrectionRoutes } from './routes/sample-corrections';
import { registerSampleDecisionRoutes } from './routes/sample-decisions';
import { registerSampleRightsRoutes } from './routes/sample-rights';
import { registerSampleRoutes } from './routes/samples';
import { registerSequenceDataRoutes } from './routes/sequence-data';
import { registerSharingRoutes } from './routes/sharing';
import { registerStatsRoutes } from './routes/stats';
import { registerStudyRoutes } from './routes/studies';
import { registerStudyActionRoutes } from './routes/study-actions';
import { registerSubmissionRoutes } from './routes/submissions';
import { waitForDatabase } from './wait-for-database';

/** The whole HTTP API: every /api request passes through here, in Next.js and in tests alike. */
export function createApiApp(deps: ApiDeps): ApiApp {
  const app: ApiApp = new OpenAPIHono<AppEnv>({
    strict: false, // a trailing slash is accepted everywhere
    defaultHook: (result, c) => {
      if (!result.success) return zodProblem(c as Context<AppEnv>, result.error);
    },
  }).basePath('/api') as unknown as ApiApp;

  // every answer carries the security headers (lib/security-headers.ts), refusals included; a route may set its own
  // policy (the docs page). On Node's own response when there is one, as x-request-id is set below
  const headers = securityHeaders(API_POLICY, { https: servedOverHttps(deps.config.baseUrl) });
  app.use('*', async (c, next) => {
    const outgoing = c.env?.outgoing;
    if (outgoing && !outgoing.headersSent) {
      for (const [name, value] of headers) outgoing.setHeader(name, value);
      return next();
    }
    await next();
    for (const [name, value] of headers) if (!c.res.headers.has(name)) c.res.headers.set(name, value);
  });

  app.use('*', requestLog(deps));
  app.use('*', waitForDatabase);

  app.openAPIRegistry.registerComponent('securitySchemes', 'Token', {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description: 'Send `Authorization: token <key>`; get a key from POST /api/apiKey.',
  });

  registerHealthRoutes(app);
  registerMetricsRoutes(app);
  registerApiKeyRoutes(app);
  registerPasswordResetRoutes(app);
  registerAccountRoutes(app);
  registerAdminUserRoutes(app);
  registerAdminJobRoutes(app, deps.jobs.described());
  registerAdminAcceptanceRoutes(app);
  registerAdminReferenceRoutes(app);
  registerChecklistRoutes(app);
  registerProfileRoutes(app);
  registerSharingRoutes(app);
  registerGroupRoutes(app);
  registerFileRoutes(app);
  registerBiodataSampleRoutes(app);
  registerBarcodeRoutes(app);
  registerStudyRoutes(app);
  registerStudyActionRoutes(app);
  registerSequenceDataRoutes(app);
  registerManifestValidationRoutes(app);
  registerPermitRoutes(app);
  registerImageRoutes(app);
  registerSampleChecklistRoutes(app);
  registerSampleDecisionRoutes(app);
  registerSampleRightsRoutes(app);
  registerSampleCorrectionRoutes(app);
  registerSubmissionRoutes(app);
  registerManifestReadRoutes(app);
  registerManifestSpreadsheetRoutes(app);
  registerSampleRoutes(app);
  registerAuditRoutes(app);
  registerStatsRoutes(app);
  registerMappingRoutes(app);
  registerSampleBrowserRoutes(app);
  registerAuditBrowserRoutes(app);
  registerRemovalRoutes(app);
  registerDocsRoutes(app);

  app.onError((err, c) => errorToResponse(err, c));
  app.notFound((c) => {
    const allowed = methodsFor(app, c.req.path).filter((m) => m !== c.req.method);
    if (allowed.length) {
      return problem(c, 405, `Method "${c.req.method}" not allowed.`, { headers: { allow: allowed.join(', ') } });
    }
    return problem(c, 404, `No route for ${c.req.method} ${c.req.path}`);
  });
  return app;
}
