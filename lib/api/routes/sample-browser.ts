import { SampleBrowsePageSchema, SampleBrowseQuerySchema } from '@/lib/browse/contract';
import { browseSamples, sampleBrowsePage } from '@/lib/browse/samples';
import { ProfileParamsSchema } from '@/lib/profiles/contract';
import { CommonValuesSchema, ProfileSampleSummarySchema } from '@/lib/samples/contract';
import { profileCommonValues } from '@/lib/samples/manifest-template';
import { profileSampleSummary } from '@/lib/samples/summary';
import type { ApiApp } from '../context';
import { sendRows } from '../formats';
import { openapiConstrained, PATH_PATTERNS } from '../openapi';
import { route } from '../policy';
import { CSV_CONTENT, jsonResponse, pick } from '../schemas';

const browse = route(
  {
    method: 'get',
    path: '/samples/browse',
    tags: ['Portal'],
    summary: 'Samples, filtered, sorted and paged (the portal’s sample browser)',
    description:
      'Every filter may be combined: profiles (mine: the reader’s own and shared profiles; all, the default), project and status (comma lists), manifest_id, sequencing_centre (label or short ' +
      'name), taxon_id (comma list, exact), scientific_name (case-insensitive substring), and field + contains (a sample ' +
      'field containing the text, case-insensitively and literally; commas separate alternatives, as in ' +
      'sample/sample_field). sort: time_created (default, newest first), svc_id, project, status, taxon_id, ' +
      'scientific_name or tube; order asc or desc. JSON answers one page (limit, default 50, at most 500; offset) with ' +
      '`columns`, the browser’s columns under their names in the standard; `return_type=csv` streams every match ' +
      '(or the page asked for) with all fields. Records are rendered as by the query API, `standard` renaming them.',
    request: { query: SampleBrowseQuerySchema },
    responses: {
      200: {
        description: 'One page of sample records, or CSV',
        content: { 'application/json': { schema: SampleBrowsePageSchema }, ...CSV_CONTENT },
      },
      ...pick(400, 401),
    },
  },
  { access: 'signed-in' },
);

const summary = route(
  {
    method: 'get',
    path: '/profiles/{profile_id}/samples/summary',
    tags: ['Portal'],
    summary: 'What a profile holds: its confirmed manifests, its samples counted by status, its permits',
    description:
      'Manifests newest first, each with its samples by status; the same counts for the whole profile (statuses with no ' +
      'sample are left out), and how many rejected samples failed at registration after approval; the ERGA permits ' +
      'its samples name, the latest confirmed upload of each, with a URL to download it. For the profile’s owner (and ' +
      'admins); anyone else is told 404, as for an unknown profile.',
    request: { params: ProfileParamsSchema },
    responses: { 200: jsonResponse('The profile’s manifests, samples and permits', ProfileSampleSummarySchema), ...pick(401, 403, 404) },
  },
  { access: { profile: 'view', in: 'profile_id' } },
);

const commonValues = route(
  {
    method: 'get',
    path: '/profiles/{profile_id}/common-values',
    tags: ['Portal'],
    summary: 'The values a profile’s samples hold in the columns a manifest template may pre-fill, the most used first',
    description:
      'For each column of the profile’s current manifest that a sheet usually fills alike (collector, affiliations, GAL, ' +
      'location, …): its label, its allowed values, what a template of the profile pre-fills by itself, and the distinct ' +
      'values of the profile’s samples, the most used first (at most 20), for `manifest/template?profile_id=…&prefill=…`. ' +
      'For whoever may see the profile; anyone else is told 404. A profile that is not of a Tree of Life type is 400.',
    request: { params: ProfileParamsSchema },
    responses: { 200: jsonResponse('The columns and their values', CommonValuesSchema), ...pick(400, 401, 403, 404) },
  },
  { access: { profile: 'view', in: 'profile_id' } },
);

export function registerSampleBrowserRoutes(app: ApiApp) {
  openapiConstrained(app, summary, { profile_id: PATH_PATTERNS.profile_id }, async (c) =>
    c.json(await profileSampleSummary(c.get('deps').db, c.get('user'), c.req.valid('param').profile_id), 200),
  );
  openapiConstrained(app, commonValues, { profile_id: PATH_PATTERNS.profile_id }, async (c) =>
    c.json(await profileCommonValues(c.get('deps').db, c.get('user'), c.req.valid('param').profile_id), 200),
  );
  app.openapi(browse, async (c) => {
    const p = c.req.valid('query');
    const { db } = c.get('deps');
    if (p.return_type === 'csv') return sendRows(c, await browseSamples(db, c.get('user'), p), { returnType: 'csv', standard: p.standard });
    return c.json(await sampleBrowsePage(db, c.get('user'), p), 200);
  });
}
