import { createRoute, z } from '@hono/zod-openapi';
import { enaClientOptionsFromConfig } from '@/lib/repositories/ena';
import { queueSampleRegistration } from '@/lib/submissions/register-samples';
import { getSubmission, listSubmissions, submissionJson } from '@/lib/submissions/submissions';
import { requireAuth } from '../auth';
import type { ApiApp } from '../context';
import { jsonResponse, pick, security } from '../schemas';

const tags = ['Submissions'];
const SubmissionSchema = z.object({}).passthrough().openapi('Submission', {
  description: 'submission_id, kind (samples | study), repository, status (pending, processing, accepted, rejected, published), accessions, receipts, error',
});

const register = createRoute({
  method: 'post',
  path: '/sample/register',
  tags,
  summary: 'Register accepted samples at ENA (BioSamples), as a background submission',
  description:
    'Specimens first, then the samples linked to them (sample derived from / same as / symbiont of). Accessions are ' +
    'written to the samples as `system` updates. 409 naming the missing setting when no Webin account is configured.',
  security,
  middleware: [requireAuth] as const,
  request: {
    body: {
      required: true,
      content: { 'application/json': { schema: z.object({ svc_ids: z.array(z.string().regex(/^[0-9a-fA-F]{24}$/)).min(1).max(10_000) }) } },
    },
  },
  responses: {
    202: jsonResponse('Queued submissions, one per profile', z.array(z.object({ submission_id: z.string(), samples: z.number() }))),
    ...pick(400, 401, 404, 409),
  },
});

const list = createRoute({
  method: 'get',
  path: '/submissions',
  tags,
  summary: 'The caller’s submissions to public repositories, newest first',
  security,
  middleware: [requireAuth] as const,
  responses: { 200: jsonResponse('Submissions', z.array(SubmissionSchema)), ...pick(401) },
});

const one = createRoute({
  method: 'get',
  path: '/submissions/{submission_id}',
  tags,
  summary: 'One submission with its receipts',
  security,
  middleware: [requireAuth] as const,
  request: { params: z.object({ submission_id: z.string() }) },
  responses: { 200: jsonResponse('The submission', SubmissionSchema), ...pick(401, 404) },
});

export function registerSubmissionRoutes(app: ApiApp) {
  app.openapi(register, async (c) => {
    const { db, jobs, config, logger } = c.get('deps');
    const queued = await queueSampleRegistration(
      { db, jobs, enaConfigured: () => void enaClientOptionsFromConfig(config, logger) },
      c.get('user'),
      c.req.valid('json').svc_ids,
    );
    return c.json(queued, 202);
  });
  app.openapi(list, async (c) => {
    const rows = await listSubmissions(c.get('deps').db, c.get('user'));
    return c.json(rows.map((r) => submissionJson(r.submission, r.profileTitle)), 200);
  });
  app.openapi(one, async (c) => {
    const row = await getSubmission(c.get('deps').db, c.get('user'), c.req.valid('param').submission_id);
    return c.json(submissionJson(row.submission, row.profileTitle), 200);
  });
}
