import { randomUUID } from 'node:crypto';
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { matchedRoutes } from 'hono/route';
import { metrics } from '@/lib/metrics/registry';
import { API_POLICY, securityHeaders, servedOverHttps } from '@/lib/security-headers';
import { trimEndOf } from '@/lib/values/text';
import type { ApiApp, ApiDeps, AppEnv } from './context';
import { databaseBreaker } from './database-breaker';
import { DATABASE_RETRY_AFTER_SECONDS, errorToResponse, problem, zodProblem } from './errors';
import { registerAccountRoutes } from './routes/account';
import { registerAdminJobRoutes } from './routes/admin-jobs';
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
import { registerSampleDecisionRoutes } from './routes/sample-decisions';
import { registerSampleRightsRoutes } from './routes/sample-rights';
import { registerSampleRoutes } from './routes/samples';
import { registerSequenceDataRoutes } from './routes/sequence-data';
import { registerSharingRoutes } from './routes/sharing';
import { registerStatsRoutes } from './routes/stats';
import { registerStudyRoutes } from './routes/studies';
import { registerStudyActionRoutes } from './routes/study-actions';
import { registerSubmissionRoutes } from './routes/submissions';

const REQUEST_ID = /^[\w.:-]{1,128}$/;
// how long a read may wait for a database that has gone away before it is answered 503
const READ_WAIT_MS = 4_000;

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

  const { http } = metrics();
  app.use('*', async (c, next) => {
    const started = performance.now();
    const given = c.req.header('x-request-id');
    const requestId = given && REQUEST_ID.test(given) ? given : randomUUID();
    c.set('deps', deps);
    c.set('requestId', requestId);
    const refusal = refuseMalformedUrl(c.req.url);
    if (refusal) {
      c.res = problem(c, refusal.status, refusal.detail);
    } else {
      await next();
    }
    // on Node's own response when @hono/node-server serves the API: reading the answer's headers made the adapter
    // build a web Headers object for every answer and then turn it back into Node's form, on every request.
    // Otherwise on the answer's own headers: c.header() on a finished answer copies it into a new Response, which
    // took @hono/node-server off its fast path for a string body (a web stream per answer)
    const outgoing = c.env?.outgoing;
    if (outgoing && !outgoing.headersSent) outgoing.setHeader('x-request-id', requestId);
    else c.res.headers.set('x-request-id', requestId);
    const user = c.var.user;
    const seconds = (performance.now() - started) / 1000;
    const route = routeOf(c);
    const method = c.req.method;
    http.record(method, route, c.res.status, seconds);
    deps.logger.info(
      {
        request_id: requestId,
        method,
        path: c.req.path,
        route,
        status: c.res.status,
        duration_ms: Math.round(seconds * 10_000) / 10,
        ...(user && { user: user.username }),
      },
      'request',
    );
  });

  // while the database is away, answer at once (health says why); the breaker closes on the database's first answer.
  // A read that was waiting while it was away is answered 503 too once it has waited READ_WAIT_MS: it changes
  // nothing, so what it would have read can be dropped. A write is left to finish, so that its answer is true.
  app.use('*', async (c, next) => {
    if (c.req.path === '/api/health') return next();
    const breaker = databaseBreaker(deps.db, deps.logger);
    const unavailable = () =>
      problem(c, 503, 'The database is not answering (it may be restarting); nothing was changed. Try again in a few seconds.', {
        headers: { 'retry-after': DATABASE_RETRY_AFTER_SECONDS },
      });
    if (breaker.open) {
      c.res = unavailable();
      return;
    }
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
    const started = Date.now();
    const handled = next();
    let timer: NodeJS.Timeout | undefined;
    const waitedOut = new Promise<'waited'>((resolve) => {
      const check = () => {
        if (breaker.openedSince(started)) resolve('waited');
        else timer = setTimeout(check, 250);
      };
      timer = setTimeout(check, READ_WAIT_MS);
    });
    const first = await Promise.race([handled.then(() => 'handled' as const), waitedOut]).finally(() => clearTimeout(timer));
    if (first === 'waited') {
      // what the read does next no longer reaches anyone; its failure is logged, not thrown at nobody
      handled.catch((err: unknown) =>
        deps.logger.warn({ err, request_id: c.get('requestId') }, 'a read dropped while the database was away failed'),
      );
      c.res = unavailable();
    }
  });

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

/**
 * The pattern of the operation that answered (`/api/sample/svc_id/:svc_ids`), or `unmatched`: a label of bounded
 * values, whatever paths are asked for. Middleware is registered for every method; an operation for one.
 */
/** A route's path with each parameter's pattern left out (`:svc_ids{[^\/]+}` → `:svc_ids`); braces may nest once. */
function withoutPatterns(route: string): string {
  let out = '';
  for (let i = 0; i < route.length; i++) {
    out += route[i];
    if (route[i] !== ':') continue;
    let j = i + 1;
    while (j < route.length && /\w/.test(route[j] as string)) j++;
    if (route[j] !== '{') continue;
    let depth = 0;
    let k = j;
    for (; k < route.length; k++) {
      if (route[k] === '{') depth++;
      else if (route[k] === '}' && --depth === 0) break;
    }
    if (k >= route.length) continue;
    out += route.slice(i + 1, j);
    i = k;
  }
  return out;
}

function routeOf(c: Context<AppEnv>): string {
  const operation = matchedRoutes(c).findLast((r) => r.method !== 'ALL');
  if (!operation) return 'unmatched';
  let label = ROUTE_LABELS.get(operation.path);
  if (label === undefined) {
    // a parameter's pattern (`:svc_ids{[^\/]+}`) is said by its name alone
    label = withoutPatterns(operation.path);
    ROUTE_LABELS.set(operation.path, label);
  }
  return label;
}

/** Each registered route's label, made once: its regular expression ran on every request. One per route: bounded. */
const ROUTE_LABELS = new Map<string, string>();

// URLs longer than this are refused before routing (the server lets up to 64 KiB of headers through to say so)
export const MAX_URL_LENGTH = 8 * 1024;

/**
 * What no route should see: an over-long URL (414), a NUL character, raw or percent-encoded, and percent-encoding
 * that does not decode to UTF-8 (400), anywhere in the path or the query.
 */
function refuseMalformedUrl(url: string): { status: 400 | 414; detail: string } | null {
  if (url.length > MAX_URL_LENGTH)
    return { status: 414, detail: `The URL is longer than ${MAX_URL_LENGTH} characters; send long lists in a POST body.` };
  const start = url.indexOf('/', url.indexOf('//') + 2);
  const pathAndQuery = start < 0 ? '' : url.slice(start);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a raw NUL in the URL is exactly what is refused here
  if (/%00|\u0000/i.test(pathAndQuery)) return { status: 400, detail: 'The URL contains a NUL character (%00), which no value may hold.' };
  for (const part of pathAndQuery.split(/[/?&=]/)) {
    if (!part.includes('%')) continue;
    try {
      decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      return { status: 400, detail: `The URL has malformed percent-encoding: "${part.slice(0, 40)}" is not UTF-8.` };
    }
  }
  return null;
}

/** Methods with a route for this path: tells 405 from 404. */
function methodsFor(app: ApiApp, path: string): string[] {
  const found = new Set<string>();
  for (const r of app.routes) {
    if (r.method === 'ALL') continue;
    if (routeRegex(r.path).test(trimEndOf(path, '/'))) found.add(r.method);
  }
  if (found.has('GET')) found.add('HEAD');
  return [...found];
}

const regexCache = new Map<string, RegExp>();
function routeRegex(pattern: string): RegExp {
  let re = regexCache.get(pattern);
  if (!re) {
    const body = trimEndOf(pattern, '/')
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
