import { randomUUID } from 'node:crypto';
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { ApiApp, ApiDeps, AppEnv } from './context';
import { errorToResponse, problem, zodProblem } from './errors';
import { registerAccountRoutes } from './routes/account';
import { registerAdminUserRoutes } from './routes/admin-users';
import { registerApiKeyRoutes } from './routes/api-key';
import { registerChecklistRoutes } from './routes/checklists';
import { registerDocsRoutes } from './routes/docs';
import { registerFileRoutes } from './routes/files';
import { registerHealthRoutes } from './routes/health';
import { registerManifestValidationRoutes } from './routes/manifest-validation';
import { registerSampleDecisionRoutes } from './routes/sample-decisions';
import { registerSubmissionRoutes } from './routes/submissions';
import { registerProfileRoutes } from './routes/profiles';
import { registerManifestReadRoutes } from './routes/manifests-read';
import { registerSampleRoutes } from './routes/samples';
import { registerAuditRoutes } from './routes/audit';
import { registerStatsRoutes } from './routes/stats';
import { registerMappingRoutes } from './routes/mapping';
import { registerSampleBrowserRoutes } from './routes/sample-browser';
import { registerAuditBrowserRoutes } from './routes/audit-browser';
import { registerStudyActionRoutes } from './routes/study-actions';
import { registerStudyRoutes } from './routes/studies';

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** The whole HTTP API: every /api request passes through here, in Next.js and in tests alike. */
export function createApiApp(deps: ApiDeps): ApiApp {
  const app: ApiApp = new OpenAPIHono<AppEnv>({
    strict: false, // a trailing slash is accepted everywhere
    defaultHook: (result, c) => {
      if (!result.success) return zodProblem(c as Context<AppEnv>, result.error);
    },
  }).basePath('/api') as unknown as ApiApp;

  app.use('*', async (c, next) => {
    const started = performance.now();
    const given = c.req.header('x-request-id');
    const requestId = given && REQUEST_ID.test(given) ? given : randomUUID();
    c.set('deps', deps);
    c.set('requestId', requestId);
    await next();
    c.header('x-request-id', requestId);
    const user = c.var.user;
    deps.logger.info(
      {
        request_id: requestId,
        method: c.req.method,
        path: c.req.path,
        route: c.req.routePath,
        status: c.res.status,
        duration_ms: Math.round((performance.now() - started) * 10) / 10,
        ...(user && { user: user.username }),
      },
      'request',
    );
  });

  app.openAPIRegistry.registerComponent('securitySchemes', 'Token', {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description: 'Send `Authorization: token <key>`; get a key from POST /api/apiKey.',
  });

  registerHealthRoutes(app);
  registerApiKeyRoutes(app);
  registerAccountRoutes(app);
  registerAdminUserRoutes(app);
  registerChecklistRoutes(app);
  registerProfileRoutes(app);
  registerFileRoutes(app);
  registerStudyRoutes(app);
  registerStudyActionRoutes(app);
  registerManifestValidationRoutes(app);
  registerSampleDecisionRoutes(app);
  registerSubmissionRoutes(app);
  registerManifestReadRoutes(app);
  registerSampleRoutes(app);
  registerAuditRoutes(app);
  registerStatsRoutes(app);
  registerMappingRoutes(app);
  registerSampleBrowserRoutes(app);
  registerAuditBrowserRoutes(app);
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

/** Methods with a route for this path: tells 405 from 404. */
function methodsFor(app: ApiApp, path: string): string[] {
  const found = new Set<string>();
  for (const r of app.routes) {
    if (r.method === 'ALL') continue;
    if (routeRegex(r.path).test(path.replace(/\/+$/, ''))) found.add(r.method);
  }
  if (found.has('GET')) found.add('HEAD');
  return [...found];
}

const regexCache = new Map<string, RegExp>();
function routeRegex(pattern: string): RegExp {
  let re = regexCache.get(pattern);
  if (!re) {
    const body = pattern
      .replace(/\/+$/, '')
      .split('/')
      .map((seg) => {
        const m = /^:\w+(?:\{(.+)\})?\??$/.exec(seg);
        if (m) return m[1] ? `(?:${m[1]})` : '[^/]+';
        if (seg === '*') return '.*';
        return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      })
      .join('/');
    re = new RegExp(`^${body}$`);
    regexCache.set(pattern, re);
  }
  return re;
}
