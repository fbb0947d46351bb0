import { ProfileParamsSchema } from '@/lib/profiles/contract';
import { AccessionsParamsSchema } from '@/lib/query/contract';
import { createEnaClient, enaClientOptionsFromConfig } from '@/lib/repositories/ena';
import { profileSequenceData, refreshProfileArchiveStatus, releasedSequenceData } from '@/lib/submissions/study';
import { ReleasedSequenceDataListSchema, SequenceDataListSchema, SequenceDataQuerySchema } from '@/lib/submissions/study/contract';
import { splitList } from '@/lib/values/lists';
import type { ApiApp } from '../context';
import { QUERY_PATTERNS } from '../formats';
import { openapiConstrained, PATH_PATTERNS } from '../openapi';
import { route } from '../policy';
import { jsonResponse, pick } from '../schemas';

const tags = ['Studies'];
const idPattern = { profile_id: PATH_PATTERNS.profile_id };

const list = route(
  {
    method: 'get',
    path: '/profiles/{profile_id}/sequence-data',
    tags,
    summary: 'The reads, assemblies and sequence annotations of the profile’s studies, with where each stands at ENA',
    description:
      'Every read row, assembly and sequence annotation of the profile’s studies that go to ENA: its state (pending, ' +
      'processing, waiting with why, accepted, rejected with ENA’s words), its accessions (experiment and run; analysis ' +
      'for assemblies and annotations) and ENA’s processing of its files as last asked (received, processing, archived, ' +
      'failed with ENA’s reason). For those who may see the profile.',
    request: { params: ProfileParamsSchema, query: SequenceDataQuerySchema },
    responses: { 200: jsonResponse('What the studies made from the samples', SequenceDataListSchema), ...pick(400, 401, 404) },
  },
  { access: { profile: 'view', in: 'profile_id' } },
);

const refresh = route(
  {
    method: 'post',
    path: '/profiles/{profile_id}/sequence-data/action/refresh',
    tags,
    summary: 'Ask ENA now how far it has processed the files of the profile’s runs and analyses',
    description:
      'Webin’s reports service is asked about every run and analysis whose files are not yet archived or failed ' +
      '(the `study.archive-status` job asks every half hour); answers the list as GET does. 409 without the ENA ' +
      'account’s settings; 503 when ENA cannot be reached (what was known is kept). For those who may add to the profile.',
    request: { params: ProfileParamsSchema, query: SequenceDataQuerySchema },
    responses: { 200: jsonResponse('The list, with ENA’s latest answers', SequenceDataListSchema), ...pick(400, 401, 403, 404, 409, 503) },
  },
  { access: { profile: 'contribute', in: 'profile_id' } },
);

const ofSamples = route(
  {
    method: 'get',
    path: '/sample/biosampleAccessions/{biosampleAccessions}/sequence_data',
    tags: ['Samples'],
    summary: 'The runs, assemblies and annotations made from these samples (comma list of BioSample accessions)',
    description:
      'From the studies of this broker that ENA has made public (a held study’s objects stay private): each read row ' +
      'with its experiment and run accessions, each assembly and sequence annotation with its analysis accession (ERZ…), ' +
      'and the project. A sample under traditional-knowledge rights is left out. No key needed.',
    request: { params: AccessionsParamsSchema },
    responses: { 200: jsonResponse('What ENA holds made from the samples', ReleasedSequenceDataListSchema), ...pick(400) },
  },
  { access: 'anyone' },
);

export function registerSequenceDataRoutes(app: ApiApp) {
  openapiConstrained(app, ofSamples, { biosampleAccessions: QUERY_PATTERNS.list }, async (c) => {
    const accessions = splitList(c.req.valid('param').biosampleAccessions, { upper: true });
    const found = await releasedSequenceData(c.get('deps').db, accessions);
    const data = accessions.flatMap((a) => found.get(a) ?? []);
    return c.json({ number_found: data.length, data }, 200);
  });
  openapiConstrained(app, list, idPattern, async (c) => {
    const { db } = c.get('deps');
    return c.json(await profileSequenceData(db, c.get('user'), c.req.valid('param').profile_id, c.req.valid('query').kind), 200);
  });
  openapiConstrained(app, refresh, idPattern, async (c) => {
    const { db, config, logger } = c.get('deps');
    const profileId = c.req.valid('param').profile_id;
    await refreshProfileArchiveStatus(db, createEnaClient(enaClientOptionsFromConfig(config, logger)), c.get('user'), profileId);
    return c.json(await profileSequenceData(db, c.get('user'), profileId, c.req.valid('query').kind), 200);
  });
}
