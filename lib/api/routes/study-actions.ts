import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { stringify } from 'csv-stringify/sync';
import type { Repository } from '@/db/schema';
import { Invalid } from '@/lib/errors';
import { createEnaClient, enaClientOptionsFromConfig } from '@/lib/repositories/ena';
import { createZenodoClient, zenodoClientOptionsFromConfig } from '@/lib/repositories/zenodo';
import {
  parseRepository,
  publishStudy,
  queueStudySubmission,
  studyAccessions,
  studySubmissionStatus,
  type StudyClients,
} from '@/lib/submissions/study';
import { requireAuth } from '../auth';
import type { ApiApp, AppEnv } from '../context';
import { openapiConstrained } from '../openapi';
import { jsonResponse, pick, security } from '../schemas';
import { StudyParams, studyPathPatterns } from './studies';

const tags = ['Study submission'];
const base = '/profiles/{profile_id}/schema/{schema_name}/studies/{study_id}/action';
const RepositoryQuery = z.object({
  repository: z.string().optional().openapi({ description: 'ena (default) or zenodo' }),
});
const AnswerSchema = z.object({}).passthrough();

const submit = createRoute({
  method: 'post',
  path: `${base}/submit`,
  tags,
  summary: 'Queue the study’s submission to ENA (a PROJECT) or Zenodo (a deposition)',
  description:
    '409 when the repository is not a target of the checklist (REMBI goes to Zenodo only), when its credentials ' +
    '(ENA_USERNAME/ENA_PASSWORD, ZENODO_TOKEN) are not configured, when a submission is already running, or when ' +
    'nothing changed since the last one. Nothing is queued then.',
  security,
  middleware: [requireAuth] as const,
  request: { params: StudyParams, query: RepositoryQuery },
  responses: { 202: jsonResponse('Queued', AnswerSchema), ...pick(400, 401, 404, 409) },
});
const status = createRoute({ ...submit, method: 'get', summary: 'The study’s submission status at a repository', responses: { 200: jsonResponse('Status', AnswerSchema), ...pick(400, 401, 404) } });

const AccessionQuery = RepositoryQuery.extend({
  repository: z.string().optional().openapi({ description: 'ena or zenodo; default: every repository the study goes to' }),
  return_type: z.string().optional().openapi({ description: 'json (default) or csv' }),
});
const accession = createRoute({
  method: 'get',
  path: `${base}/accession`,
  tags,
  summary: 'The study’s accessions (all repositories by default)',
  security,
  middleware: [requireAuth] as const,
  request: { params: StudyParams, query: AccessionQuery },
  responses: {
    200: {
      description: 'Accession rows',
      content: { 'application/json': { schema: z.array(z.record(z.string(), z.string())) }, 'text/csv': { schema: z.string() } },
    },
    ...pick(400, 401, 404),
  },
});
const accessionPost = createRoute({ ...accession, method: 'post' });

const publish = createRoute({
  method: 'post',
  path: `${base}/publish`,
  tags,
  summary: 'Release the held ENA project (or set its hold date) or publish the Zenodo deposition',
  security,
  middleware: [requireAuth] as const,
  request: {
    params: StudyParams,
    query: RepositoryQuery.extend({
      hold_until: z.string().optional().openapi({ description: 'ENA only: YYYY-MM-DD to release on instead of now' }),
    }),
  },
  responses: { 200: jsonResponse('Published', AnswerSchema), ...pick(400, 401, 404, 409) },
});

const clientsOf = (c: Context<AppEnv>): StudyClients => {
  const { config, logger } = c.get('deps');
  return {
    ena: () => createEnaClient(enaClientOptionsFromConfig(config, logger)),
    zenodo: () => createZenodoClient(zenodoClientOptionsFromConfig(config, logger)),
  };
};

const scopeOf = (c: Context<AppEnv>) => ({
  profileId: c.req.param('profile_id') ?? '',
  schemaName: c.req.param('schema_name') ?? '',
  studyId: c.req.param('study_id') ?? '',
});

export function registerStudyActionRoutes(app: ApiApp) {
  openapiConstrained(app, submit, studyPathPatterns, async (c) => {
    const { db, jobs, config, logger } = c.get('deps');
    const repository = parseRepository(c.req.query('repository')) as Repository;
    const result = await queueStudySubmission(
      {
        db,
        jobs,
        requireCredentials: (repo) =>
          void (repo === 'ena' ? enaClientOptionsFromConfig(config, logger) : zenodoClientOptionsFromConfig(config, logger)),
      },
      c.get('user'),
      { ...scopeOf(c), repository },
    );
    return c.json(result, 202);
  });
  openapiConstrained(app, status, studyPathPatterns, async (c) => {
    const repository = parseRepository(c.req.query('repository')) as Repository;
    return c.json(await studySubmissionStatus(c.get('deps').db, c.get('user'), { ...scopeOf(c), repository }), 200);
  });
  const accessionHandler = async (c: Context<AppEnv>) => {
    const repository = parseRepository(c.req.query('repository'), null);
    const returnType = (c.req.query('return_type') ?? 'json').trim().toLowerCase() || 'json';
    if (returnType !== 'json' && returnType !== 'csv') throw Invalid(`Invalid value for 'return_type'. Accepted values are: json and csv`);
    const scope = scopeOf(c);
    const rows = await studyAccessions(c.get('deps').db, c.get('user'), { ...scope, repository });
    if (returnType === 'json') return c.json(rows, 200);
    const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
    return c.body(stringify(rows, { header: true, columns }), 200, {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${scope.studyId}_accessions.csv"`,
    });
  };
  openapiConstrained(app, accession, studyPathPatterns, accessionHandler);
  openapiConstrained(app, accessionPost, studyPathPatterns, accessionHandler);
  openapiConstrained(app, publish, studyPathPatterns, async (c) => {
    const repository = parseRepository(c.req.query('repository')) as Repository;
    const result = await publishStudy({ db: c.get('deps').db, ...clientsOf(c) }, c.get('user'), {
      ...scopeOf(c),
      repository,
      holdUntil: c.req.query('hold_until') || undefined,
    });
    return c.json(result, 200);
  });
}
