import { stringify } from 'csv-stringify/sync';
import {
  CurrentVersionQuerySchema,
  CurrentVersionsSchema,
  DateRangeParamsSchema,
  ManifestIdSchema,
  ManifestParamsSchema,
  OutputQuerySchema,
  ProjectDateRangeParamsSchema,
  RoCrateSchema,
  SampleRecordSchema,
  SampleStatusItemSchema,
  SequencingCentreQuerySchema,
} from '@/lib/query/contract';
import {
  allManifestIds,
  currentVersions,
  manifestIdsBetween,
  manifestIdsOfCentre,
  manifestRoCrate,
  manifestSampleStatus,
  manifestSamples,
} from '@/lib/query/manifests';
import { parseReturnType } from '@/lib/query/params';
import { releasedSequenceData } from '@/lib/submissions/study';
import { CSV_STRINGIFY_OPTIONS } from '@/lib/values/csv';
import type { ApiApp } from '../context';
import { listResponse, outputOptions, QUERY_PATTERNS, sendRoCrate, sendRows } from '../formats';
import { openapiConstrained } from '../openapi';
import { route } from '../policy';
import { CSV_CONTENT, pick } from '../schemas';

const tags = ['Manifests'];
const ids = listResponse('Manifest ids, newest manifest first', ManifestIdSchema);
const q = OutputQuerySchema;

const list = route(
  {
    method: 'get',
    path: '/manifest',
    tags,
    summary: 'Ids of every manifest that holds samples',
    request: { query: q },
    responses: { 200: ids, ...pick(400) },
  },
  { access: 'anyone' },
);

const byCentre = route(
  {
    method: 'get',
    path: '/manifest/sequencing_centre',
    tags,
    summary: 'Ids of the manifests of a sequencing centre',
    description:
      'The centre is named by its label (`EARLHAM INSTITUTE`) or short name (`EI`), in any case. A manifest belongs to ' +
      'the centre when its profile chose the centre, or when one of its samples names the centre as GAL.',
    request: { query: q.extend(SequencingCentreQuerySchema.shape) },
    responses: { 200: ids, ...pick(400) },
  },
  { access: 'anyone' },
);

const versions = route(
  {
    method: 'get',
    path: '/manifest/current_version',
    tags,
    summary: 'The current manifest version of each project, or of one',
    description:
      'A one-element array, as the reference answers: `[{"ASG": "2.5", "DTOL": "2.5", …}]`. CSV columns: manifest_type, version.',
    request: { query: CurrentVersionQuerySchema },
    responses: {
      200: { description: 'Versions', content: { 'application/json': { schema: CurrentVersionsSchema }, ...CSV_CONTENT } },
      ...pick(400),
    },
  },
  { access: 'anyone' },
);

const between = route(
  {
    method: 'get',
    path: '/manifest/{from}/{to}',
    tags,
    summary: 'Ids of the manifests recorded in [from, to)',
    description: 'Dates are ISO 8601 (`2024-01-01T00:00:00+00:00`; `Z`, `+00:0`, a date alone are accepted).',
    request: { params: DateRangeParamsSchema, query: q },
    responses: { 200: ids, ...pick(400) },
  },
  { access: 'anyone' },
);

const projectBetween = route(
  {
    method: 'get',
    path: '/manifest/{project}/{from}/{to}',
    tags,
    summary: 'Ids of the manifests of one or more projects recorded in [from, to)',
    request: { params: ProjectDateRangeParamsSchema, query: q },
    responses: { 200: ids, ...pick(400) },
  },
  { access: 'anyone' },
);

const status = route(
  {
    method: 'get',
    path: '/manifest/{manifest_id}/sample_status',
    tags,
    summary: 'The status of each sample of a manifest',
    request: { params: ManifestParamsSchema, query: q },
    responses: {
      200: listResponse('svc_id, manifest_id, status, time_created, time_updated per sample', SampleStatusItemSchema),
      ...pick(400),
    },
  },
  { access: 'anyone' },
);

const byId = route(
  {
    method: 'get',
    path: '/manifest/{manifest_id}',
    tags,
    summary: 'The samples of a manifest (JSON, CSV or RO-Crate)',
    description:
      '`return_type=rocrate` answers an RO-Crate 1.2 metadata document (`application/ld+json`): the manifest as the root ' +
      'dataset, one BioSample per sample, with its people, taxa and places.',
    request: { params: ManifestParamsSchema, query: q },
    responses: {
      200: {
        description: 'Sample records (JSON or CSV), or the RO-Crate',
        content: { ...listResponse('', SampleRecordSchema).content, 'application/ld+json': { schema: RoCrateSchema } },
      },
      ...pick(400),
    },
  },
  { access: 'anyone' },
);

export function registerManifestReadRoutes(app: ApiApp) {
  app.openapi(list, async (c) => {
    const out = outputOptions(c.req.valid('query'));
    return sendRows(c, await allManifestIds(c.get('deps').db, out), out);
  });
  app.openapi(byCentre, async (c) => {
    const query = c.req.valid('query');
    const out = outputOptions(query);
    return sendRows(c, await manifestIdsOfCentre(c.get('deps').db, { centre: query.sequencing_centre, page: out.page }), out);
  });
  app.openapi(versions, (c) => {
    const query = c.req.valid('query');
    const returnType = parseReturnType(query.return_type, ['json', 'csv']);
    const found = currentVersions({ manifestType: query.manifest_type });
    if (returnType === 'csv') {
      return c.body(stringify([['manifest_type', 'version'], ...Object.entries(found)], CSV_STRINGIFY_OPTIONS), 200, {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': 'attachment; filename=tol_export.csv',
      });
    }
    return c.json([found], 200);
  });
  openapiConstrained(
    app,
    projectBetween,
    { project: QUERY_PATTERNS.projects, from: QUERY_PATTERNS.date, to: QUERY_PATTERNS.date },
    async (c) => {
      const { project, from, to } = c.req.valid('param');
      const out = outputOptions(c.req.valid('query'));
      return sendRows(c, await manifestIdsBetween(c.get('deps').db, { projects: project, from, to, page: out.page }), out);
    },
  );
  openapiConstrained(app, between, { from: QUERY_PATTERNS.date, to: QUERY_PATTERNS.date }, async (c) => {
    const { from, to } = c.req.valid('param');
    const out = outputOptions(c.req.valid('query'));
    return sendRows(c, await manifestIdsBetween(c.get('deps').db, { from, to, page: out.page }), out);
  });
  openapiConstrained(app, status, { manifest_id: QUERY_PATTERNS.manifestId }, async (c) => {
    const out = outputOptions(c.req.valid('query'));
    const result = await manifestSampleStatus(c.get('deps').db, { manifestId: c.req.valid('param').manifest_id, page: out.page });
    return sendRows(c, result, out);
  });
  openapiConstrained(app, byId, { manifest_id: QUERY_PATTERNS.manifestId }, async (c) => {
    const { db, config } = c.get('deps');
    const manifestId = c.req.valid('param').manifest_id;
    const out = outputOptions(c.req.valid('query'), ['json', 'csv', 'rocrate']);
    if (out.returnType === 'rocrate') {
      const crate = await manifestRoCrate(db, {
        manifestId,
        baseUrl: config.baseUrl,
        sequenceDataOf: (biosamples, profileId) => releasedSequenceData(db, biosamples, profileId),
      });
      return sendRoCrate(c, crate, manifestId.toLowerCase());
    }
    return sendRows(c, await manifestSamples(db, { manifestId, ...out }), out);
  });
}
