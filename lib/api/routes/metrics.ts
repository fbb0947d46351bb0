import { createHash, timingSafeEqual } from 'node:crypto';
import { createRoute, z } from '@hono/zod-openapi';
import { createMiddleware } from 'hono/factory';
import { METRICS_CONTENT_TYPE, scrapeMetrics } from '@/lib/metrics/scrape';
import { requireAdmin, requireAuth } from '../auth';
import type { ApiApp, AppEnv } from '../context';
import { pick } from '../schemas';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** `Bearer <METRICS_TOKEN>`, compared in constant time (digests of equal length, whatever was sent). */
function isMetricsToken(header: string | undefined, token: string | undefined): boolean {
  if (!token || !header) return false;
  const m = /^bearer\s+(\S+)\s*$/i.exec(header.trim());
  return m?.[1] !== undefined && timingSafeEqual(digest(m[1]), digest(token));
}

/**
 * A scraper with METRICS_TOKEN, or an admin (key or session); anyone else is refused as on any admin route: 401
 * without credentials or with a wrong key or token (counted as a guess), 404 for a user who is not an admin.
 */
const metricsAccess = createMiddleware<AppEnv>(async (c, next) => {
  if (isMetricsToken(c.req.header('authorization'), c.get('deps').config.METRICS_TOKEN)) return next();
  await requireAuth(c, async () => {
    await requireAdmin(c, next);
  });
});

const route = createRoute({
  method: 'get',
  path: '/metrics',
  tags: ['Service'],
  summary: 'The service in the Prometheus text format: requests, latency, jobs, dead letters, repository outages, throttling, emails',
  description:
    'For a Prometheus scraper with `Authorization: Bearer <METRICS_TOKEN>` (when the service has one), or an admin. ' +
    'The names and what to alert on are in the README. Counters are per process; the jobs, dead letters and emails ' +
    'are read from the database at each scrape, so every instance reports the same figures for them.',
  security: [{ MetricsToken: [] }, { Token: [] }],
  middleware: [metricsAccess] as const,
  responses: {
    200: {
      description: 'The metrics',
      // the media type without its parameters (`version=0.0.4; charset=utf-8`), as the document names every other
      content: {
        'text/plain': { schema: z.string().openapi({ description: `Prometheus text exposition format (${METRICS_CONTENT_TYPE})` }) },
      },
    },
    ...pick(401, 404),
  },
});

export function registerMetricsRoutes(app: ApiApp) {
  app.openAPIRegistry.registerComponent('securitySchemes', 'MetricsToken', {
    type: 'http',
    scheme: 'bearer',
    description: 'The METRICS_TOKEN the service was started with, for a Prometheus scraper.',
  });
  app.openapi(route, async (c) => {
    const { db, jobs } = c.get('deps');
    const text = await scrapeMetrics(
      db,
      jobs.described().map((j) => j.name),
    );
    return c.body(text, 200, { 'content-type': METRICS_CONTENT_TYPE, 'cache-control': 'no-store' });
  });
}
