import { FailedJobParamsSchema, FailedJobsQuerySchema, failedJobSchemas, type JobDescription } from '@/lib/jobs/contract';
import { failedJobsAnswer } from '@/lib/jobs/dead-letters';
import { retryDeadLetter } from '@/lib/jobs/retry';
import type { ApiApp } from '../context';
import { route } from '../policy';
import { jsonResponse, PageQuery, pick } from '../schemas';

const tags = ['Admin'];

/** The routes, their answers documented for the jobs the service runs (JobQueue.described). */
export function registerAdminJobRoutes(app: ApiApp, described: readonly JobDescription[]) {
  const { FailedJobsSchema, RetriedJobSchema } = failedJobSchemas(described);
  const list = route(
    {
      method: 'get',
      path: '/admin/jobs',
      tags,
      summary: 'The job queue now, and the work given up for good (the dead-letter list), newest first',
      description:
        'Work is given up when the last run of its job failed, the process running its last run died, its job was lost, ' +
        'or a repository stayed unreachable for two days. Its owner sees it failed with the reason; an admin can retry it.',
      request: { query: PageQuery.extend(FailedJobsQuerySchema.shape) },
      responses: { 200: jsonResponse('The queue and a page of failed jobs', FailedJobsSchema), ...pick(400, 401, 404) },
    },
    { access: 'admin' },
  );

  const retry = route(
    {
      method: 'post',
      path: '/admin/jobs/failed/{id}/retry',
      tags,
      summary: 'Run given-up work again: the work is reopened and its job queued, once',
      description:
        '409 when it was retried already, or when the work cannot run again as it was (a report whose upload is gone, a ' +
        'submission superseded by a newer one, a job that only runs on schedule).',
      request: { params: FailedJobParamsSchema },
      responses: { 200: jsonResponse('The entry, marked retried, and what was queued', RetriedJobSchema), ...pick(400, 401, 404, 409) },
    },
    { access: 'admin' },
  );

  app.openapi(list, async (c) => {
    const { limit, offset, open } = c.req.valid('query');
    return c.json(await failedJobsAnswer(c.get('deps'), { limit, offset, open: open === 'true' }), 200);
  });
  app.openapi(retry, async (c) => {
    const { db, jobs } = c.get('deps');
    return c.json(await retryDeadLetter({ db, jobs }, c.get('user'), c.req.valid('param').id), 200);
  });
}
