import { mailContext } from '@/lib/mail/outbox';
import { localContextsClientFromConfig } from '@/lib/repositories/local-contexts';
import { privateForManager } from '@/lib/samples/private';
import { PrivateSamplesSchema, RightsCheckAnswerSchema, RightsCheckRequestSchema } from '@/lib/samples/review-contract';
import { checkRightsNow, RECHECK_AFTER_HOURS } from '@/lib/samples/rights';
import type { ApiApp } from '../context';
import { route } from '../policy';
import { jsonResponse, PageQuery, pick } from '../schemas';

const tags = ['Sample approval'];

// a person waits on this call: one short try and one retry, not the scheduled check's patience
const HUB_REQUEST_TIMING = { timeoutMs: 8_000, retries: 1 };

const check = route(
  {
    method: 'post',
    path: '/sample/rights/check',
    tags,
    summary: 'Look up private samples’ traditional-knowledge projects at the Local Contexts Hub now (their sample managers, and admins)',
    description:
      'An ERGA sample whose traditional-knowledge rights apply and that names a Local Contexts Hub project is `private`: ' +
      'it is not decided, not sent to ENA and shown as `embargoed` by the public API until the hub says the community ' +
      `made the project public. The service asks the hub about every private sample every ${RECHECK_AFTER_HOURS} hours; ` +
      'this asks at once, one call per project. A sample whose project is public becomes `pending` (its managers are ' +
      'emailed) and can then be decided. An unreachable hub changes nothing (`hub_unreachable`). Samples that are not ' +
      'private are answered as they are. Ids of samples the caller does not manage answer 404, as unknown ones do.',
    request: { body: { required: true, content: { 'application/json': { schema: RightsCheckRequestSchema } } } },
    responses: { 200: jsonResponse('Each sample after the check', RightsCheckAnswerSchema), ...pick(400, 401, 404, 415) },
  },
  { access: 'approver' },
);

const privateSamples = route(
  {
    method: 'get',
    path: '/sample/private',
    tags,
    summary: 'Private samples of the caller’s projects: they wait for their traditional-knowledge rights, not for a decision',
    description:
      'Oldest first, each with its Local Contexts Hub project, when the hub last answered about it and what it said; ' +
      '`hub` is the outcome of the last look-up at the hub.',
    request: { query: PageQuery },
    responses: { 200: jsonResponse('A page of private samples', PrivateSamplesSchema), ...pick(400, 401) },
  },
  { access: 'approver' },
);

export function registerSampleRightsRoutes(app: ApiApp) {
  app.openapi(check, async (c) => {
    const { db, config, jobs, logger } = c.get('deps');
    const hub = localContextsClientFromConfig(config, logger, HUB_REQUEST_TIMING);
    const answer = await checkRightsNow({ db, logger, hub, mail: mailContext(config, jobs) }, c.get('user'), c.req.valid('json').svc_ids);
    return c.json(answer, 200);
  });
  app.openapi(privateSamples, async (c) => {
    const { db, config, logger } = c.get('deps');
    const hub = localContextsClientFromConfig(config, logger);
    return c.json(await privateForManager(db, c.get('user'), hub, c.req.valid('query')), 200);
  });
}
