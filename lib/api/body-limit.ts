import type { RouteConfig } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { createMiddleware } from 'hono/factory';
import { matchedRoutes } from 'hono/route';
import type { Config } from '@/lib/config';
import { TooLarge } from '@/lib/errors';
import type { AppEnv } from './context';

/**
 * How large a request's body may be, declared with its route: every body is bounded before it is read, at
 * DEFAULT_BODY_MAX_BYTES unless the route says otherwise (an upload), so a route that takes files cannot be forgotten
 * in a list elsewhere: a list of exempt paths once left camera photographs refused at 2 MB.
 */
export type BodyPolicy =
  | {
      /** the largest body taken */
      maxBytes: (config: Config) => number;
      /** the refusal's words */
      tooLarge: (config: Config) => string;
    }
  /** the route reads its body as a stream and counts the bytes itself (a signed upload of any size) */
  | 'streamed';

/** Bodies of everything but uploads: 10,000 svc_ids or 1,000 file names fit with room to spare. */
export const DEFAULT_BODY_MAX_BYTES = 2 * 1024 * 1024;

const DEFAULT: BodyPolicy = {
  maxBytes: () => DEFAULT_BODY_MAX_BYTES,
  tooLarge: () => `The request body is larger than ${DEFAULT_BODY_MAX_BYTES} bytes; files go to the upload endpoints.`,
};

// by `METHOD /path/{param}`, the route's own spelling; routes are declared once, as the modules load
const declared = new Map<string, BodyPolicy>();
const keyOf = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

/** The route, its body bounded by `policy` rather than the default. */
export function withBodyLimit<const R extends RouteConfig>(route: R, policy: BodyPolicy): R {
  declared.set(keyOf(route.method, route.path), policy);
  return route;
}

/** The route's own spelling of the operation a request matched (`/api/manifest/:id{[0-9a-f]+}/images` → `/manifest/{id}/images`). */
function declaredPolicy(c: Context<AppEnv>): BodyPolicy | undefined {
  const operation = matchedRoutes(c).findLast((r) => r.method !== 'ALL');
  if (!operation) return undefined;
  const path = operation.path.replace(/^\/api(?=\/)/, '').replace(/:(\w+)(?:\{(?:[^{}]|\{[^{}]*\})*\})?\??/g, '{$1}');
  return declared.get(keyOf(operation.method, path));
}

/** Bounds every request's body by its route's policy: refused at once by its Content-Length, or as it streams. */
export const boundedBody = createMiddleware<AppEnv>(async (c, next) => {
  if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
  const policy = declaredPolicy(c) ?? DEFAULT;
  if (policy === 'streamed') return next();
  const { config } = c.get('deps');
  const max = policy.maxBytes(config);
  const tooLarge = () => TooLarge(policy.tooLarge(config));
  if (Number(c.req.header('content-length') ?? 0) > max) throw tooLarge();
  return bodyLimit({
    maxSize: max,
    onError: () => {
      throw tooLarge();
    },
  })(c, next);
});
