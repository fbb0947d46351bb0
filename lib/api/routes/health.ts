import { createRoute, z } from '@hono/zod-openapi';
import { sql } from 'drizzle-orm';
import type { ApiApp } from '../context';

const health = createRoute({
  method: 'get',
  path: '/health',
  tags: ['Service'],
  summary: 'Liveness with a database round trip',
  responses: {
    200: {
      description: 'The service and its database answer',
      content: { 'application/json': { schema: z.object({ status: z.literal('ok') }) } },
    },
  },
});

export function registerHealthRoutes(app: ApiApp) {
  app.openapi(health, async (c) => {
    await c.get('deps').db.execute(sql`select 1`);
    return c.json({ status: 'ok' as const }, 200);
  });
}
