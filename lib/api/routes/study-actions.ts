import type { z } from '@hono/zod-openapi';
import { stringify } from 'csv-stringify/sync';
import type { Context } from 'hono';
import { listing } from '@/lib/checklists/definitions';
import { Invalid } from '@/lib/errors';
import { createEnaClient, enaClientOptionsFromConfig } from '@/lib/repositories/ena';
import { createZenodoClient, zenodoClientOptionsFromConfig } from '@/lib/repositories/zenodo';
import { StudyParamsSchema } from '@/lib/studies/contract';
import { publishStudy, queueStudySubmission, type StudyClients, studyAccessions, studySubmissionStatus } from '@/lib/submissions/study';
import {
  AccessionQuerySchema,
  AccessionRowsSchema,
  PublishQuerySchema,
  RepositoryQuerySchema,
  StudyPublishAnswerSchema,
  StudySubmissionStatusSchema,
  StudySubmitAnswerSchema,
} from '@/lib/submissions/study/contract';
import { CSV_STRINGIFY_OPTIONS } from '@/lib/values/csv';
import type { ApiApp, AppEnv } from '../context';
import { openapiConstrained } from '../openapi';
import { route } from '../policy';
import { CSV_CONTENT, jsonResponse, pick } from '../schemas';
import { studyPathPatterns } from './studies';

const tags = ['Study submission'];
const base = '/profiles/{profile_id}/schema/{schema_name}/studies/{study_id}/action';

const submit = route(
  {
    method: 'post',
    path: `${base}/submit`,
    tags,
    summary: 'Queue the study’s submission to ENA (a PROJECT) or Zenodo (a deposition)',
    description:
      '409 when the repository is not a target of the checklist (REMBI goes to Zenodo only), when its credentials ' +
      '(ENA_USERNAME/ENA_PASSWORD, ZENODO_TOKEN) are not configured, when a submission is already running, or when ' +
      'nothing changed since the last one. Nothing is queued then.',
    request: { params: StudyParamsSchema, query: RepositoryQuerySchema },
    responses: { 202: jsonResponse('Queued', StudySubmitAnswerSchema), ...pick(400, 401, 403, 404, 409) },
  },
  { access: { profile: 'contribute', in: 'profile_id' } },
);

const status = route(
  {
    method: 'get',
    path: `${base}/submit`,
    tags,
    summary: 'The study’s submission status at a repository',
    request: { params: StudyParamsSchema, query: RepositoryQuerySchema },
    responses: { 200: jsonResponse('Status', StudySubmissionStatusSchema), ...pick(400, 401, 403, 404) },
  },
  { access: { profile: 'view', in: 'profile_id' } },
);

const accessionConfig = {
  method: 'get',
  path: `${base}/accession`,
  tags,
  summary: 'The study’s accessions (all repositories by default)',
  request: { params: StudyParamsSchema, query: AccessionQuerySchema },
  responses: {
    200: { description: 'Accession rows', content: { ...jsonResponse('', AccessionRowsSchema).content, ...CSV_CONTENT } },
    ...pick(400, 401, 403, 404),
  },
} as const;
const accession = route(accessionConfig, { access: { profile: 'view', in: 'profile_id' } });
const accessionPost = route({ ...accessionConfig, method: 'post' }, { access: { profile: 'view', in: 'profile_id' } });

const publish = route(
  {
    method: 'post',
    path: `${base}/publish`,
    tags,
    summary: 'Release the held ENA project (or set its hold date) or publish the Zenodo deposition',
    description:
      'Synchronous: the repository is asked in the request. 409 while a submission runs, before the first one, when ' +
      'already published or released, and when the repository refuses; 503 when it cannot be reached (nothing changed).',
    request: { params: StudyParamsSchema, query: PublishQuerySchema },
    responses: { 200: jsonResponse('Published', StudyPublishAnswerSchema), ...pick(400, 401, 403, 404, 409, 503) },
  },
  { access: { profile: 'contribute', in: 'profile_id' } },
);

const clientsOf = (c: Context<AppEnv>): StudyClients => {
  const { config, logger } = c.get('deps');
  return {
    ena: () => createEnaClient(enaClientOptionsFromConfig(config, logger)),
    zenodo: () => createZenodoClient(zenodoClientOptionsFromConfig(config, logger)),
  };
};

const scopeOf = (p: { profile_id: string; schema_name: string; study_id: string }) => ({
  profileId: p.profile_id,
  schemaName: p.schema_name,
  studyId: p.study_id,
});

const RETURN_TYPES = ['json', 'csv'] as const;
type StudyParams = z.output<typeof StudyParamsSchema>;
type AccessionQuery = z.output<typeof AccessionQuerySchema>;

export function registerStudyActionRoutes(app: ApiApp) {
  openapiConstrained(app, submit, studyPathPatterns, async (c) => {
    const { db, jobs, config, logger } = c.get('deps');
    const result = await queueStudySubmission(
      {
        db,
        jobs,
        requireCredentials: (repo) =>
          void (repo === 'ena' ? enaClientOptionsFromConfig(config, logger) : zenodoClientOptionsFromConfig(config, logger)),
      },
      c.get('user'),
      { ...scopeOf(c.req.valid('param')), repository: c.req.valid('query').repository },
    );
    return c.json(result, 202);
  });
  openapiConstrained(app, status, studyPathPatterns, async (c) => {
    const scope = { ...scopeOf(c.req.valid('param')), repository: c.req.valid('query').repository };
    return c.json(await studySubmissionStatus(c.get('deps').db, c.get('user'), scope), 200);
  });
  const answerAccessions = async (c: Context<AppEnv>, params: StudyParams, query: AccessionQuery) => {
    const { repository, return_type } = query;
    const returnType = return_type?.trim().toLowerCase() || 'json';
    if (returnType !== 'json' && returnType !== 'csv') {
      const message = `Invalid value for 'return_type'. Accepted values are: ${listing(RETURN_TYPES)}`;
      throw Invalid(message, [{ path: 'return_type', message }]);
    }
    const scope = scopeOf(params);
    const rows = await studyAccessions(c.get('deps').db, c.get('user'), { ...scope, repository });
    if (returnType === 'json') return c.json(rows, 200);
    const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
    return c.body(stringify(rows, { header: true, columns, ...CSV_STRINGIFY_OPTIONS }), 200, {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${scope.studyId}_accessions.csv"`,
    });
  };
  openapiConstrained(app, accession, studyPathPatterns, (c) => answerAccessions(c, c.req.valid('param'), c.req.valid('query')));
  openapiConstrained(app, accessionPost, studyPathPatterns, (c) => answerAccessions(c, c.req.valid('param'), c.req.valid('query')));
  openapiConstrained(app, publish, studyPathPatterns, async (c) => {
    const { repository, hold_until } = c.req.valid('query');
    const result = await publishStudy({ db: c.get('deps').db, ...clientsOf(c) }, c.get('user'), {
      ...scopeOf(c.req.valid('param')),
      repository,
      holdUntil: hold_until,
    });
    return c.json(result, 200);
  });
}
