import type { RouteConfig, RouteHandler } from '@hono/zod-openapi';
import { PATTERNS } from '@/lib/identifiers/contract';
import type { ApiApp, AppEnv } from './context';

/** Regexes for path parameters that several routes share (the identifiers' own patterns). */
export const PATH_PATTERNS = {
  profile_id: PATTERNS.objectId,
} as const;

/**
 * Registers a route whose parameters are constrained by regex in the router (Hono's `:name{regex}`), so that a
 * literal sibling such as `profiles/types` or `profiles/singlecells/checklists` is never taken for an id and a
 * malformed id is simply no route. The OpenAPI document keeps the plain `{name}` form, which is all OpenAPI knows.
 */
export function openapiConstrained<R extends RouteConfig>(
  app: ApiApp,
  route: R,
  patterns: Record<string, string>,
  handler: RouteHandler<R, AppEnv>,
): void {
  const { middleware: _middleware, hide, ...documented } = route;
  if (!hide) app.openAPIRegistry.registerPath(documented);
  const path = route.path.replace(/\{(\w+)\}/g, (_m, name: string) => (patterns[name] ? `:${name}{${patterns[name]}}` : `:${name}`));
  app.openapi({ ...route, path, hide: true }, handler);
}
