import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { matchedRoutes } from 'hono/route';
import { metrics } from '@/lib/metrics/registry';
import type { ApiDeps, AppEnv } from './context';
import { problem } from './errors';
import { refuseMalformedUrl } from './malformed-url';

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * Every request's first step: its id (the caller's x-request-id when well formed), the app's dependencies, a URL no
 * route should see refused, and once answered, its line in the log and its count in the metrics.
 */
export function requestLog(deps: ApiDeps) {
  const { http } = metrics();
  return createMiddleware<AppEnv>(async (c, next) => {
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
