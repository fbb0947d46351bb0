import { createRoute, type RouteConfig } from '@hono/zod-openapi';
import { requireAuth } from './auth';
import { security } from './schemas';

type Middleware = NonNullable<RouteConfig['middleware']>;

/**
 * A route for signed-in callers (an API key or the portal's session): the document names the key, and requireAuth
 * runs before the route's own middleware (limits, admin), so no operation can forget either.
 */
export function signedIn<const R extends Omit<RouteConfig, 'security' | 'middleware'> & { middleware?: Middleware }>(route: R) {
  const own = route.middleware ? (Array.isArray(route.middleware) ? route.middleware : [route.middleware]) : [];
  return createRoute({ ...route, security, middleware: [requireAuth, ...own] as const });
}
