import { auditBetween, auditOfFieldValue, auditOfManifests, auditOfSamples, auditOfUpdateType } from '@/lib/audit/audit';
import {
  AuditFieldParamsSchema,
  AuditManifestsParamsSchema,
  AuditProjectQuerySchema,
  AuditRecordSchema,
  AuditSamplesQuerySchema,
  DateRangeParamsSchema,
  OutputQuerySchema,
  UpdateTypeParamsSchema,
} from '@/lib/query/contract';
import type { ApiApp } from '../context';
import { listResponse, outputOptions, QUERY_PATTERNS, sendRows } from '../formats';
import { openapiConstrained } from '../openapi';
import { route } from '../policy';
import { pick } from '../schemas';

const tags = ['Audit'];
const q = OutputQuerySchema;
const updates = listResponse(
  'Changes, newest first: field, outdated_value, updated_value, update_type, time_updated, then the sample’s ' +
    'RACK_OR_PLATE_ID, SPECIMEN_ID, TUBE_OR_WELL_ID, biosampleAccession, manifest_id, public_name, sraAccession, ' +
    'svc_audit_type, svc_id, svc_profile_title, tol_project. Who made a change is never returned.',
  AuditRecordSchema,
);

const samples = route(
  {
    method: 'get',
    path: '/audit/samples',
    tags,
    summary: 'Changes to samples, narrowed by svc_id, project and field',
    request: { query: q.extend(AuditSamplesQuerySchema.shape) },
    responses: { 200: updates, ...pick(400) },
  },
  { access: 'anyone' },
);

const between = route(
  {
    method: 'get',
    path: '/audit/sample/{from}/{to}',
    tags,
    summary: 'Changes made in [from, to)',
    request: { params: DateRangeParamsSchema, query: q },
    responses: { 200: updates, ...pick(400) },
  },
  { access: 'anyone' },
);

const byManifest = route(
  {
    method: 'get',
    path: '/audit/sample/manifest_id/{manifest_id}',
    tags,
    summary: 'Changes to the samples of one or more manifests',
    request: { params: AuditManifestsParamsSchema, query: q },
    responses: { 200: updates, ...pick(400) },
  },
  { access: 'anyone' },
);

const byType = route(
  {
    method: 'get',
    path: '/audit/sample/update_type/{update_type}',
    tags,
    summary: 'Changes by users (a re-uploaded manifest) or by the service itself',
    request: { params: UpdateTypeParamsSchema, query: q.extend(AuditProjectQuerySchema.shape) },
    responses: { 200: updates, ...pick(400) },
  },
  { access: 'anyone' },
);

const byField = route(
  {
    method: 'get',
    path: '/audit/sample/{field}/{field_value}',
    tags,
    summary: 'Changes to the samples whose field has exactly this value',
    description: 'field: RACK_OR_PLATE_ID, SPECIMEN_ID, TUBE_OR_WELL_ID, biosampleAccession, public_name or sraAccession.',
    request: { params: AuditFieldParamsSchema, query: q },
    responses: { 200: updates, ...pick(400) },
  },
  { access: 'anyone' },
);

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
