import { z } from '@hono/zod-openapi';
import { externalServices } from '@/lib/config';
import { ReturnTypeQuerySchema } from '@/lib/query/contract';
import { fromArray } from '@/lib/query/stream';
import {
  CountSchema,
  PublicDashboardSchema,
  SampleCountQuerySchema,
  SampleTypeParamsSchema,
  StatsSummarySchema,
} from '@/lib/stats/contract';
import { DASHBOARD_CACHE_SECONDS, publicDashboard } from '@/lib/stats/public';
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
import { route } from '../policy';
import { jsonResponse, pick } from '../schemas';

const tags = ['Statistics'];
const count = (description: string) => jsonResponse(`${description}: a bare JSON number, as the reference answers`, CountSchema);

/** Counts of a whole table: one route shape, each with its query. */
const tableCounts = [
  { path: '/stats/number_of_users', summary: 'Number of registered users', what: 'Users', of: numberOfUsers },
  { path: '/stats/number_of_profiles', summary: 'Number of profiles', what: 'Profiles', of: numberOfProfiles },
  { path: '/stats/number_of_datafiles', summary: 'Number of data files uploaded to profiles', what: 'Data files', of: numberOfDatafiles },
].map(({ path, summary, what, of }) => ({
  route: route({ method: 'get', path, tags, summary, responses: { 200: count(what) } }, { access: 'anyone' }),
  of,
}));
const samplesDescription = 'Samples created in [d_from, d_to) when the dates are given (also without a sample type, unlike the reference).';
const samplesAll = route(
  {
    method: 'get',
    path: '/stats/number_of_samples',
    tags,
    summary: 'Number of samples',
    description: samplesDescription,
    request: { query: SampleCountQuerySchema },
    responses: { 200: count('Samples'), ...pick(400) },
  },
  { access: 'anyone' },
);
const samplesOfType = route(
  {
    method: 'get',
    path: '/stats/number_of_samples/{sample_type}',
    tags,
    summary: 'Number of samples of a project',
    description: `${samplesDescription} sample_type: ASG, DTOL, DTOLENV or ERGA (any case).`,
    request: { params: SampleTypeParamsSchema, query: SampleCountQuerySchema },
    responses: { 200: count('Samples'), ...pick(400) },
  },
  { access: 'anyone' },
);
/** The project vocabularies, as lists in every output format. */
const projectLists = [
  { path: '/stats/tol_projects', summary: 'The Tree of Life projects brokered', what: 'Project labels', names: async () => tolProjects() },
  {
    path: '/stats/associated_tol_projects',
    summary: 'The sub-projects brokered',
    what: 'Sub-project labels',
    names: associatedTolProjects,
  },
].map(({ path, summary, what, names }) => ({
  route: route(
    {
      method: 'get',
      path,
      tags,
      summary,
      request: { query: ReturnTypeQuerySchema },
      responses: { 200: listResponse(what, z.string()), ...pick(400) },
    },
    { access: 'anyone' },
  ),
  names,
}));
const summary = route(
  {
    method: 'get',
    path: '/stats/summary',
    tags,
    summary: 'Everything the statistics dashboard shows, in one object',
    description:
      'users, profiles, datafiles; samples (total, by project and status, per month of creation); manifests (total, per ' +
      'sequencing centre); submissions by status; services: which external services (ENA, the ToLID service, Zenodo, ' +
      'mail) the settings reach, and what a missing one means.',
    responses: { 200: jsonResponse('Aggregate counts only', StatsSummarySchema) },
  },
  { access: 'anyone' },
);

const dashboard = route(
  {
    method: 'get',
    path: '/stats/dashboard',
    tags,
    summary: 'The public dashboard’s figures: public samples by project and status, per month, top taxa, collection places',
    description:
      'What `/dashboard` shows, as JSON. Private samples and those embargoed under traditional-knowledge rights are not ' +
      `counted (the query API answers them as \`{"status": "embargoed"}\`). The figures are counted at most ` +
      `${DASHBOARD_CACHE_SECONDS} seconds before they are answered (\`generated\` says when), so the answer stays fast ` +
      'however many samples there are.',
    responses: { 200: jsonResponse('Aggregate counts of public samples', PublicDashboardSchema) },
  },
  { access: 'anyone' },
);

export function registerStatsRoutes(app: ApiApp) {
  for (const { route, of } of tableCounts) app.openapi(route, async (c) => c.json(await of(c.get('deps').db), 200));
  app.openapi(samplesAll, async (c) => c.json(await numberOfSamples(c.get('deps').db, datesOf(c.req.valid('query'))), 200));
  app.openapi(samplesOfType, async (c) => {
    const input = { sampleType: c.req.valid('param').sample_type, ...datesOf(c.req.valid('query')) };
    return c.json(await numberOfSamples(c.get('deps').db, input), 200);
  });
  for (const { route, names } of projectLists)
    app.openapi(route, async (c) => sendRows(c, fromArray(await names(c.get('deps').db), ['name']), outputOptions(c.req.valid('query'))));
  app.openapi(dashboard, async (c) => c.json(await publicDashboard(c.get('deps').db), 200));
  app.openapi(summary, async (c) => {
    const { db, config } = c.get('deps');
    return c.json({ ...(await statsSummary(db)), services: externalServices(config) }, 200);
  });
}
