import { z } from '@hono/zod-openapi';
import { METRICS_CONTENT_TYPE, scrapeMetrics } from '@/lib/metrics/scrape';
import type { ApiApp } from '../context';
import { route } from '../policy';
import { pick } from '../schemas';

const scrape = route(
  {
    method: 'get',
    path: '/metrics',
    tags: ['Service'],
    summary: 'The service in the Prometheus text format: requests, latency, jobs, dead letters, repository outages, throttling, emails',
    description:
      'For a Prometheus scraper with `Authorization: Bearer <METRICS_TOKEN>` (when the service has one), or an admin. ' +
      'The names and what to alert on are in docs/operating.md. Counters are per process; the jobs, dead letters and emails ' +
      'are read from the database at each scrape, so every instance reports the same figures for them.',
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
  },
  { access: 'admin-or-scraper' },
);

export function registerMetricsRoutes(app: ApiApp) {
  app.openAPIRegistry.registerComponent('securitySchemes', 'MetricsToken', {
    type: 'http',
    scheme: 'bearer',
    description: 'The METRICS_TOKEN the service was started with, for a Prometheus scraper.',
  });
  app.openapi(scrape, async (c) => {
    const { db, jobs } = c.get('deps');
    const text = await scrapeMetrics(
      db,
      jobs.described().map((j) => j.name),
    );
    return c.text(text, 200, { 'content-type': METRICS_CONTENT_TYPE, 'cache-control': 'no-store' });
  });
}
