import type { RouteConfig } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { SvcIdSchema } from '@/lib/identifiers/contract';
import {
  AccessionsParamsSchema,
  AssociatedProjectsQuerySchema,
  BioimagesQuerySchema,
  DateRangeParamsSchema,
  FieldNameSchema,
  OutputQuerySchema,
  ProfileTubesSchema,
  ProjectQuerySchema,
  ProjectsParamsSchema,
  SampleFieldParamsSchema,
  SampleRecordSchema,
  SequencingCentreQuerySchema,
  SvcIdsParamsSchema,
  TaxonIdsParamsSchema,
  type TubeOrWellQuery,
  TubeOrWellQuerySchema,
  VersionFieldsQuerySchema,
} from '@/lib/query/contract';
import { updatableFieldList, versionFieldList } from '@/lib/query/field-lists';
import { parseReturnType, parseStandard } from '@/lib/query/params';
import { samplesByFieldValues } from '@/lib/query/sample-field';
import {
  sampleIdsOfProjects,
  samplesByBiosampleAccessions,
  samplesBySvcIds,
  samplesByTaxonIds,
  samplesCreatedBetween,
  samplesOfAssociatedProjects,
  samplesOfSequencingCentre,
  samplesWithSubmittedBioimages,
} from '@/lib/query/samples';
import { fromArray } from '@/lib/query/stream';
import { tubeOrWellIds } from '@/lib/query/tube-or-well';
import type { ApiApp, AppEnv } from '../context';
import { arrayWrappedResponse, datesOf, listResponse, outputOptions, QUERY_PATTERNS, sendRows } from '../formats';
import { openapiConstrained } from '../openapi';
import { route } from '../policy';
import { pick } from '../schemas';

const tags = ['Samples'];
const records = listResponse(
  'Sample records, every exported field; in dwc/ena/mixs the fields renamed through the standards map',
  SampleRecordSchema,
);
const q = OutputQuerySchema;
const STANDARD_NOTE =
  '`standard=dwc|ena|mixs` renames every field to its term in that standard; fields without a term are left out, the ' +
  'service’s own keys keep an `svc_` prefix, and where two fields share a term the later one keeps its value as ' +
  '`svc_<FIELD>` (MIxS lat_lon holds "lat lon").';

type Extra = Pick<RouteConfig, 'request'> & Partial<Pick<RouteConfig, 'description' | 'responses'>>;
const sampleRoute = <P extends string, E extends Extra>(path: P, summary: string, extra: E) =>
  route(
    {
      method: 'get' as const,
      path,
      tags,
      summary,
      description: STANDARD_NOTE,
      responses: { 200: records, ...pick(400) },
      ...extra,
    },
    { access: 'anyone' },
  );

const associated = sampleRoute('/sample/associated_tol_project', 'Samples of profiles carrying every sub-project named', {
  request: { query: q.extend(AssociatedProjectsQuerySchema.shape) },
});

const updatable = sampleRoute('/sample/updatable_fields', 'Fields a re-uploaded manifest may change', {
  description: 'Sorted; a comma list of projects gives the union. In another standard, each field’s term at the current version.',
  request: { query: q.extend(ProjectQuerySchema.shape) },
  responses: { 200: listResponse('Field names', FieldNameSchema), ...pick(400) },
});

const bySvcId = sampleRoute('/sample/svc_id/{svc_ids}', 'Samples by svc_id (comma list), in the order asked', {
  request: { params: SvcIdsParamsSchema, query: q },
});
const byAccession = sampleRoute('/sample/biosampleAccessions/{biosampleAccessions}', 'Samples by BioSamples accession (comma list)', {
  request: { params: AccessionsParamsSchema, query: q },
});
const byAccessionSingular = sampleRoute(
  '/sample/biosampleAccession/{biosampleAccessions}',
  'Alias of sample/biosampleAccessions (the reference’s spelling)',
  {
    request: { params: AccessionsParamsSchema, query: q },
  },
);
const byField = sampleRoute('/sample/sample_field/{field}/{values}', 'Samples whose field contains any of the values', {
  description:
    'Case-insensitive substring match on any of the comma-separated values, taken literally. `svc_id` matches exactly, ' +
    '`svc_profile_title` searches the profile title, and time_created / time_updated / last_bioimage_submitted mean ' +
    '“on or after the earliest date given”. ' +
    STANDARD_NOTE,
  request: { params: SampleFieldParamsSchema, query: q },
});
const byCentre = sampleRoute('/sample/sequencing_centre', 'Samples of a sequencing centre (label or short name)', {
  request: { query: q.extend(SequencingCentreQuerySchema.shape) },
});
const byTaxon = sampleRoute('/sample/taxon_id/{taxon_ids}', 'Samples by NCBI taxon id (comma list)', {
  request: { params: TaxonIdsParamsSchema, query: q },
});
const bioimages = sampleRoute('/sample/with_submitted_bioimages', 'Samples with images submitted to the BioImage Archive, newest first', {
  description: 'Dates filter on the image submission time; `from`/`to` are accepted beside the reference’s `d_from`/`d_to`.',
  request: { query: BioimagesQuerySchema },
  responses: {
    200: listResponse(
      'SPECIMEN_ID, TAXON_ID, biosampleAccession, last_bioimage_submitted, svc_profile_title, tol_project',
      SampleRecordSchema,
    ),
    ...pick(400),
  },
});

const tubesResponse = arrayWrappedResponse('Profiles with the tube or well ids of their samples', ProfileTubesSchema);
const tubes = (method: 'get' | 'post', path: '/sample/tube_or_well_ids' | '/profile/tube_or_well_ids') =>
  route(
    {
      method,
      path,
      tags,
      summary: 'Profile titles with the tube or well ids of their samples',
      description:
        'Served at both paths, by GET and POST, with both parameter spellings (profile_type or project, ' +
        'associated_profile_type or associated_tol_project, d_from/d_to or from/to). The body is ignored.',
      request: { query: TubeOrWellQuerySchema },
      responses: { 200: tubesResponse, ...pick(400) },
    },
    { access: 'anyone' },
  );

const versionFields = sampleRoute('/sample/project/manifest_version/fields', 'Fields of one manifest version of a project', {
  description: 'The one-element array form of the reference. Fields without a term in the standard are left out.',
  request: { query: q.extend(VersionFieldsQuerySchema.shape) },
  responses: { 200: arrayWrappedResponse('Field names', FieldNameSchema), ...pick(400) },
});

const between = sampleRoute('/sample/{from}/{to}', 'Samples created in [from, to), newest first', {
  request: { params: DateRangeParamsSchema, query: q },
});
const ofProjects = sampleRoute('/sample/{project}', 'svc_ids of the samples of one or more projects', {
  description: 'A comma list of asg, dtol, dtolenv, erga (any case).',
  request: { params: ProjectsParamsSchema, query: q },
  responses: { 200: listResponse('svc_ids', SvcIdSchema), ...pick(400) },
});

function tubesHandler(c: Context<AppEnv>, query: TubeOrWellQuery) {
  const returnType = parseReturnType(query.return_type, ['json', 'csv']);
  const projectParam = query.profile_type !== undefined ? 'profile_type' : 'project';
  return tubeOrWellIds(c.get('deps').db, {
    project: query.profile_type ?? query.project,
    projectParam,
    associated: query.associated_profile_type ?? query.associated_tol_project,
    ...datesOf(query),
  }).then((found) => {
    if (returnType === 'csv') {
      const rows = found.map((p) => ({ svc_profile_title: p.profile_title, TUBE_OR_WELL_IDs: p.TUBE_OR_WELL_IDs.join(' ') }));
      return sendRows(c, fromArray(rows, ['svc_profile_title', 'TUBE_OR_WELL_IDs']), { returnType });
    }
    return sendRows(c, fromArray(found, []), { returnType, arrayWrapped: true });
  });
}

export function registerSampleRoutes(app: ApiApp) {
  const db = (c: Context<AppEnv>) => c.get('deps').db;

  app.openapi(associated, async (c) => {
    const query = c.req.valid('query');
    const out = outputOptions(query);
    return sendRows(c, await samplesOfAssociatedProjects(db(c), { values: query.values, ...out }), out);
  });
  app.openapi(updatable, (c) => {
    const query = c.req.valid('query');
    const out = outputOptions(query);
    const names = updatableFieldList({ project: query.project, standard: out.standard });
    return sendRows(c, fromArray(names, ['field']), out);
  });
  openapiConstrained(app, bySvcId, { svc_ids: QUERY_PATTERNS.list }, async (c) => {
    const out = outputOptions(c.req.valid('query'));
    return sendRows(c, await samplesBySvcIds(db(c), { ids: c.req.valid('param').svc_ids, ...out }), out);
  });
  for (const r of [byAccession, byAccessionSingular]) {
    openapiConstrained(app, r, { biosampleAccessions: QUERY_PATTERNS.list }, async (c) => {
      const out = outputOptions(c.req.valid('query'));
      const accessions = c.req.valid('param').biosampleAccessions;
      return sendRows(c, await samplesByBiosampleAccessions(db(c), { accessions, ...out }), out);
    });
  }
  openapiConstrained(app, byField, { field: QUERY_PATTERNS.list, values: '.+' }, async (c) => {
    const out = outputOptions(c.req.valid('query'));
    const { field, values } = c.req.valid('param');
    return sendRows(c, await samplesByFieldValues(db(c), { field, values, ...out }), out);
  });
  app.openapi(byCentre, async (c) => {
    const query = c.req.valid('query');
    const out = outputOptions(query);
    return sendRows(c, await samplesOfSequencingCentre(db(c), { centre: query.sequencing_centre, ...out }), out);
  });
  openapiConstrained(app, byTaxon, { taxon_ids: QUERY_PATTERNS.list }, async (c) => {
    const out = outputOptions(c.req.valid('query'));
    return sendRows(c, await samplesByTaxonIds(db(c), { taxonIds: c.req.valid('param').taxon_ids, ...out }), out);
  });
  app.openapi(bioimages, async (c) => {
    const query = c.req.valid('query');
    const out = outputOptions(query);
    return sendRows(c, await samplesWithSubmittedBioimages(db(c), { project: query.project, ...datesOf(query), page: out.page }), out);
  });
  app.openapi(tubes('get', '/sample/tube_or_well_ids'), (c) => tubesHandler(c, c.req.valid('query')));
  app.openapi(tubes('post', '/sample/tube_or_well_ids'), (c) => tubesHandler(c, c.req.valid('query')));
  app.openapi(tubes('post', '/profile/tube_or_well_ids'), (c) => tubesHandler(c, c.req.valid('query')));
  app.openapi(tubes('get', '/profile/tube_or_well_ids'), (c) => tubesHandler(c, c.req.valid('query')));
  app.openapi(versionFields, (c) => {
    const query = c.req.valid('query');
    const returnType = parseReturnType(query.return_type, ['json', 'csv']);
    // the reference did not validate standard here; an unknown one is still a mistake worth a 400
    const standard = parseStandard(query.standard);
    const names = versionFieldList({ project: query.project, manifestVersion: query.manifest_version, standard });
    return sendRows(c, fromArray(names, ['field']), { returnType, standard, arrayWrapped: true });
  });
  openapiConstrained(app, between, { from: QUERY_PATTERNS.date, to: QUERY_PATTERNS.date }, async (c) => {
    const out = outputOptions(c.req.valid('query'));
    const { from, to } = c.req.valid('param');
    return sendRows(c, await samplesCreatedBetween(db(c), { from, to, ...out }), out);
  });
  openapiConstrained(app, ofProjects, { project: QUERY_PATTERNS.projects }, async (c) => {
    const out = outputOptions(c.req.valid('query'));
    return sendRows(c, await sampleIdsOfProjects(db(c), { projects: c.req.valid('param').project, page: out.page }), out);
  });
}
