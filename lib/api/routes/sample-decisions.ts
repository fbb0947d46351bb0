import { z } from '@hono/zod-openapi';
import { mailContext } from '@/lib/mail/outbox';
import { DecisionAnswerSchema, DecisionRequestSchema, PendingSamplesSchema } from '@/lib/samples/contract';
import { decideSamples, pendingForManager } from '@/lib/samples/decision';
import { registrationQueue } from '@/lib/samples/registration';
import { reviewQueue } from '@/lib/samples/review';
import { DECIDED_DAYS, REVIEW_SORTS, ReviewQuerySchema, ReviewQueueSchema } from '@/lib/samples/review-contract';
import type { ApiApp } from '../context';
import { route } from '../policy';
import { jsonResponse, PageQuery, pick } from '../schemas';

const tags = ['Sample approval'];

const decide = route(
  {
    method: 'post',
    path: '/sample/decision',
    tags,
    summary: 'Accept or reject pending samples (sample managers of the samples’ project, and admins)',
    description:
      'A sample whose last required approval this is goes on to registration at once, queued in the same ' +
      'transaction: `processing` (a registration job), `awaiting_tolid` (its specimen first needs a ToLID from the ToLID ' +
      'service) or `awaiting_ena` (no Webin account configured yet; it is sent as soon as there is one). ' +
      '`registrations` lists the registrations started. The reason of a rejection is never returned by the public API.',
    request: { body: { required: true, content: { 'application/json': { schema: DecisionRequestSchema } } } },
    responses: { 200: jsonResponse('Decided samples', DecisionAnswerSchema), ...pick(400, 401, 404, 409, 415) },
  },
  { access: 'approver' },
);

const PendingQuery = PageQuery.extend({
  sort: z.enum(REVIEW_SORTS).default('newest').openapi({ description: 'newest (default) or oldest samples first' }),
});

const pending = route(
  {
    method: 'get',
    path: '/sample/pending',
    tags,
    summary: 'Samples waiting for the caller’s decision (a sample manager’s review queue)',
    description: 'Newest first (the samples of the manifest confirmed last), as the review queue; `sort=oldest` turns it round.',
    request: { query: PendingQuery },
    responses: { 200: jsonResponse('A page of pending samples', PendingSamplesSchema), ...pick(400, 401) },
  },
  { access: 'approver' },
);

const review = route(
  {
    method: 'get',
    path: '/sample/review',
    tags,
    summary: 'The caller’s review queue by manifest: samples awaiting a decision, or decided lately',
    description:
      '`state=awaiting` (default): the samples of the projects the caller manages (an admin: every project) that wait ' +
      'for a decision, grouped by the manifest that brought them, the manifest they were told about last first, with who ' +
      `confirmed the manifest and when, and the ERGA permits each sample names. \`state=decided\`: the samples decided in the last ${DECIDED_DAYS} ` +
      'days and not awaiting a decision again, latest decision first, with where each stands now (ToLID, registration ' +
      'at ENA, accession, or the reason of a rejection). `sort=oldest` turns either list round; `profile`, `uploader` and ' +
      '`manifest` narrow it, and `choices` lists the profiles and uploaders the list holds without them. Paged by ' +
      'manifest: every sample of a listed manifest is in its group, in the order of its spreadsheet’s rows.',
    request: { query: ReviewQuerySchema },
    responses: { 200: jsonResponse('A page of manifests with their samples', ReviewQueueSchema), ...pick(400, 401) },
  },
  { access: 'approver' },
);

export function registerSampleDecisionRoutes(app: ApiApp) {
  app.openapi(review, async (c) => c.json(await reviewQueue(c.get('deps').db, c.get('user'), c.req.valid('query')), 200));
  app.openapi(decide, async (c) => {
    const b = c.req.valid('json');
    const { db, config, jobs } = c.get('deps');
    const result = await decideSamples(
      db,
      c.get('user'),
      { svcIds: b.svc_ids, decision: b.decision, reason: b.reason },
      registrationQueue(config, jobs),
      mailContext(config, jobs),
    );
    return c.json(result, 200);
  });
  app.openapi(pending, async (c) => c.json(await pendingForManager(c.get('deps').db, c.get('user'), c.req.valid('query')), 200));
}
