import { createRoute, z } from '@hono/zod-openapi';
import { auditBetween, auditOfFieldValue, auditOfManifests, auditOfSamples, auditOfUpdateType } from '@/lib/audit/audit';
import type { ApiApp } from '../context';
import { listResponse, outputOptions, outputQuery, pathParam, QUERY_PATTERNS, sendRows } from '../formats';
import { openapiConstrained } from '../openapi';
import { pick } from '../schemas';

const tags = ['Audit'];
const q = z.object(outputQuery);
const listParam = outputQuery.return_type;
const updates = listResponse(
  'Changes, newest first: field, outdated_value, updated_value, update_type, time_updated, then the sample’s ' +
    'RACK_OR_PLATE_ID, SPECIMEN_ID, TUBE_OR_WELL_ID, biosampleAccession, manifest_id, public_name, sraAccession, ' +
    'svc_audit_type, svc_id, svc_profile_title, tol_project. Who made a change is never returned.',
);

const samples = createRoute({
  method: 'get',
  path: '/audit/samples',
  tags,
  summary: 'Changes to samples, narrowed by svc_id, project and field',
  request: {
    query: q.extend({
      svc_id: listParam.openapi({ description: 'comma list or repeated' }),
      project: listParam.openapi({ example: 'dtol' }),
      updatable_field: listParam.openapi({ description: 'one of the project’s updatable fields', example: 'SEX' }),
    }),
  },
  responses: { 200: updates, ...pick(400) },
});

const between = createRoute({
  method: 'get',
  path: '/audit/sample/{from}/{to}',
  tags,
  summary: 'Changes made in [from, to)',
  request: {
    params: z.object({ from: pathParam('from', '2025-01-01T00:00:00+00:00'), to: pathParam('to', '2026-01-01T00:00:00+00:00') }),
    query: q,
  },
  responses: { 200: updates, ...pick(400) },
});

const byManifest = createRoute({
  method: 'get',
  path: '/audit/sample/manifest_id/{manifest_id}',
  tags,
  summary: 'Changes to the samples of one or more manifests',
  request: { params: z.object({ manifest_id: pathParam('manifest_id', 'f8e5c23d-f735-439f-bfaf-a6886e31741e') }), query: q },
  responses: { 200: updates, ...pick(400) },
});

const byType = createRoute({
  method: 'get',
  path: '/audit/sample/update_type/{update_type}',
  tags,
  summary: 'Changes by users (a re-uploaded manifest) or by the service itself',
  request: {
    params: z.object({ update_type: pathParam('update_type', 'user') }),
    query: q.extend({ project: listParam.openapi({ description: 'repeated or a comma list', example: 'erga' }) }),
  },
  responses: { 200: updates, ...pick(400) },
});

const byField = createRoute({
  method: 'get',
  path: '/audit/sample/{field}/{field_value}',
  tags,
  summary: 'Changes to the samples whose field has exactly this value',
  description: 'field: RACK_OR_PLATE_ID, SPECIMEN_ID, TUBE_OR_WELL_ID, biosampleAccession, public_name or sraAccession.',
  request: { params: z.object({ field: pathParam('field', 'SPECIMEN_ID'), field_value: pathParam('field_value', 'NHMUK014425123') }), query: q },
  responses: { 200: updates, ...pick(400) },
});

export function registerAuditRoutes(app: ApiApp) {
  app.openapi(samples, async (c) => {
    const query = c.req.valid('query');
    const out = outputOptions(query);
    const result = await auditOfSamples(c.get('deps').db, {
      svcIds: query.svc_id,
      project: query.project,
      updatableField: query.updatable_field,
      page: out.page,
    });
    return sendRows(c, result, out);
  });
  openapiConstrained(app, byManifest, { manifest_id: QUERY_PATTERNS.list }, async (c) => {
    const out = outputOptions(c.req.valid('query'));
    return sendRows(c, await auditOfManifests(c.get('deps').db, { manifestIds: c.req.valid('param').manifest_id, page: out.page }), out);
  });
  openapiConstrained(app, byType, { update_type: QUERY_PATTERNS.list }, async (c) => {
    const query = c.req.valid('query');
    const out = outputOptions(query);
    const result = await auditOfUpdateType(c.get('deps').db, {
      updateType: c.req.valid('param').update_type,
      project: query.project,
      page: out.page,
    });
    return sendRows(c, result, out);
  });
  openapiConstrained(app, between, { from: QUERY_PATTERNS.date, to: QUERY_PATTERNS.date }, async (c) => {
    const out = outputOptions(c.req.valid('query'));
    const { from, to } = c.req.valid('param');
    return sendRows(c, await auditBetween(c.get('deps').db, { from, to, page: out.page }), out);
  });
  openapiConstrained(app, byField, { field: QUERY_PATTERNS.auditField, field_value: '.+' }, async (c) => {
    const out = outputOptions(c.req.valid('query'));
    const { field, field_value } = c.req.valid('param');
    return sendRows(c, await auditOfFieldValue(c.get('deps').db, { field, value: field_value, page: out.page }), out);
  });
}
