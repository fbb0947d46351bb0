import { createRoute, z } from '@hono/zod-openapi';
import { externalServices } from '@/lib/config';
import { ReturnTypeQuerySchema } from '@/lib/query/contract';
import { fromArray } from '@/lib/query/stream';
import { CountSchema, SampleCountQuerySchema, SampleTypeParamsSchema, StatsSummarySchema } from '@/lib/stats/contract';
import {
  associatedTolProjects,
  numberOfDatafiles,
  numberOfProfiles,
  numberOfSamples,
  numberOfUsers,
  statsSummary,
  tolProjects,
} from '@/lib/stats/stats';
import type { ApiApp } from '../context';
import { datesOf, listResponse, outputOptions, sendRows } from '../formats';
import { jsonResponse, pick } from '../schemas';

const tags = ['Statistics'];
const count = (description: string) => jsonResponse(`${description}: a bare JSON number, as the reference answers`, CountSchema);

const users = createRoute({
  method: 'get',
  path: '/stats/number_of_users',
  tags,
  summary: 'Number of registered users',
  responses: { 200: count('Users') },
});
const profiles = createRoute({
  method: 'get',
  path: '/stats/number_of_profiles',
  tags,
  summary: 'Number of profiles',
  responses: { 200: count('Profiles') },
});
const datafiles = createRoute({
  method: 'get',
  path: '/stats/number_of_datafiles',
  tags,
  summary: 'Number of data files uploaded to profiles',
  responses: { 200: count('Data files') },
});
const samplesDescription = 'Samples created in [d_from, d_to) when the dates are given (also without a sample type, unlike the reference).';
const samplesAll = createRoute({
  method: 'get',
  path: '/stats/number_of_samples',
  tags,
  summary: 'Number of samples',
  description: samplesDescription,
  request: { query: SampleCountQuerySchema },
  responses: { 200: count('Samples'), ...pick(400) },
});
const samplesOfType = createRoute({
  method: 'get',
  path: '/stats/number_of_samples/{sample_type}',
  tags,
  summary: 'Number of samples of a project',
  description: `${samplesDescription} sample_type: ASG, DTOL, DTOLENV or ERGA (any case).`,
  request: { params: SampleTypeParamsSchema, query: SampleCountQuerySchema },
  responses: { 200: count('Samples'), ...pick(400) },
});
const tol = createRoute({
  method: 'get',
  path: '/stats/tol_projects',
  tags,
  summary: 'The Tree of Life projects brokered',
  request: { query: ReturnTypeQuerySchema },
  responses: { 200: listResponse('Project labels', z.string()), ...pick(400) },
});
const associated = createRoute({
  method: 'get',
  path: '/stats/associated_tol_projects',
  tags,
  summary: 'The sub-projects brokered',
  request: { query: ReturnTypeQuerySchema },
  responses: { 200: listResponse('Sub-project labels', z.string()), ...pick(400) },
});
const summary = createRoute({
  method: 'get',
  path: '/stats/summary',
  tags,
  summary: 'Everything the statistics dashboard shows, in one object',
  description:
    'users, profiles, datafiles; samples (total, by project and status, per month of creation); manifests (total, per ' +
    'sequencing centre); submissions by status; services: which external services (ENA, the ToLID service, Zenodo, ' +
    'mail) the settings reach, and what a missing one means.',
  responses: { 200: jsonResponse('Aggregate counts only', StatsSummarySchema) },
});

export function registerStatsRoutes(app: ApiApp) {
  app.openapi(users, async (c) => c.json(await numberOfUsers(c.get('deps').db), 200));
  app.openapi(profiles, async (c) => c.json(await numberOfProfiles(c.get('deps').db), 200));
  app.openapi(datafiles, async (c) => c.json(await numberOfDatafiles(c.get('deps').db), 200));
  app.openapi(samplesAll, async (c) => c.json(await numberOfSamples(c.get('deps').db, datesOf(c.req.valid('query'))), 200));
  app.openapi(samplesOfType, async (c) => {
    const input = { sampleType: c.req.valid('param').sample_type, ...datesOf(c.req.valid('query')) };
    return c.json(await numberOfSamples(c.get('deps').db, input), 200);
  });
  app.openapi(tol, (c) => {
    const out = outputOptions(c.req.valid('query'));
    return sendRows(c, fromArray(tolProjects(), ['name']), out);
  });
  app.openapi(associated, (c) => {
    const out = outputOptions(c.req.valid('query'));
    return sendRows(c, fromArray(associatedTolProjects(), ['name']), out);
  });
  app.openapi(summary, async (c) => {
    const { db, config } = c.get('deps');
    return c.json({ ...(await statsSummary(db)), services: externalServices(config) }, 200);
  });
}
