import { createRoute, z } from '@hono/zod-openapi';
import { decideSamples, pendingForManager } from '@/lib/samples/decision';
import { requireAuth } from '../auth';
import type { ApiApp } from '../context';
import { pick, security } from '../schemas';

const tags = ['Sample approval'];

const DecisionBody = z
  .object({
    svc_ids: z.array(z.string().regex(/^[0-9a-fA-F]{24}$/, 'svc_id is 24 hexadecimal characters')).min(1).max(10_000),
    decision: z.enum(['accept', 'reject']),
    reason: z.string().max(2000).optional(),
  })
  .openapi('SampleDecision');

const decide = createRoute({
  method: 'post',
  path: '/sample/decision',
  tags,
  summary: 'Accept or reject pending samples (sample managers of the samples’ project, and admins)',
  description: 'Accepted samples move to `processing`, ready for registration at ENA. The reason of a rejection is never returned by the public API.',
  security,
  middleware: [requireAuth] as const,
  request: { body: { required: true, content: { 'application/json': { schema: DecisionBody } } } },
  responses: {
    200: { description: 'Decided samples', content: { 'application/json': { schema: z.object({ accepted: z.array(z.string()), rejected: z.array(z.string()) }) } } },
    ...pick(400, 401, 404, 409),
  },
});

const pending = createRoute({
  method: 'get',
  path: '/sample/pending',
  tags,
  summary: 'Samples waiting for the caller’s decision (a sample manager’s review queue)',
  security,
  middleware: [requireAuth] as const,
  request: {
    query: z.object({
      limit: z.coerce.number().int().min(1).max(1000).default(100),
      offset: z.coerce.number().int().min(0).default(0),
    }),
  },
  responses: { 200: { description: 'A page of pending samples', content: { 'application/json': { schema: z.object({}).passthrough() } } }, ...pick(401) },
});

export function registerSampleDecisionRoutes(app: ApiApp) {
  app.openapi(decide, async (c) => {
    const b = c.req.valid('json');
    const result = await decideSamples(c.get('deps').db, c.get('user'), { svcIds: b.svc_ids, decision: b.decision, reason: b.reason });
    return c.json(result, 200);
  });
  app.openapi(pending, async (c) => {
    const { limit, offset } = c.req.valid('query');
    const page = await pendingForManager(c.get('deps').db, c.get('user'), { limit, offset });
    return c.json(
      {
        status: 'OK',
        number_found: page.total,
        data: page.samples.map((s) => ({
          svc_id: s.id,
          manifest_id: s.manifestId,
          profile_id: s.profileId,
          tol_project: s.project.toUpperCase(),
          status: s.status,
          SPECIMEN_ID: s.specimenId ?? '',
          RACK_OR_PLATE_ID: s.rackOrPlateId ?? '',
          TUBE_OR_WELL_ID: s.tubeOrWellId ?? '',
          TAXON_ID: s.taxonId ?? '',
          SCIENTIFIC_NAME: s.scientificName ?? '',
          time_created: s.timeCreated.toISOString(),
        })),
      },
      200,
    );
  });
}
