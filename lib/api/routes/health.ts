import { fileStore } from '@/lib/files/files';
import { HealthQuerySchema, HealthSchema } from '@/lib/health/contract';
import { checkHealth } from '@/lib/health/health';
import type { ApiApp } from '../context';
import { route } from '../policy';
import { jsonResponse, pick } from '../schemas';

const health = route(
  {
    method: 'get',
    path: '/health',
    tags: ['Service'],
    summary: 'The database, the job queue and the storage, each checked within three seconds, and the external services configured',
    description:
      '200 while the database answers (`status` is `degraded` when the queue or the storage does not); 503 with ' +
      '`Retry-After` when the database does not (e.g. while PostgreSQL restarts). The database is asked on every call; ' +
      'the queue and the storage as they answered within the last few seconds (`checked_at`), or now with `deep=true`.',
    request: { query: HealthQuerySchema },
    responses: {
      200: jsonResponse('The service answers', HealthSchema),
      503: jsonResponse('The database does not answer', HealthSchema),
      ...pick(400),
    },
  },
  { access: 'anyone' },
);

export function registerHealthRoutes(app: ApiApp) {
  app.openapi(health, async (c) => {
    const { db, config, jobs, logger, databaseKind } = c.get('deps');
    const { deep } = c.req.valid('query');
    const result = await checkHealth(
      { db, kind: databaseKind, jobs, files: fileStore({ db, config, logger }), config },
      { deep: deep === 'true' },
    );
    if (result.status === 'down') {
      c.header('retry-after', '5');
      return c.json(result, 503);
    }
    return c.json(result, 200);
  });
}
