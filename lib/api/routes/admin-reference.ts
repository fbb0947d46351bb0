import { z } from '@hono/zod-openapi';
import {
  associatedTypeJson,
  createAssociatedType,
  createSequencingCentre,
  sequencingCentreJson,
  updateAssociatedType,
  updateSequencingCentre,
} from '@/lib/reference/admin';
import { REFERENCE_CACHE_SECONDS } from '@/lib/reference/cache';
import {
  AssociatedTypePatchBodySchema,
  AssociatedTypeSchema,
  NewAssociatedTypeBodySchema,
  NewSequencingCentreBodySchema,
  ReferenceNameParamsSchema,
  SequencingCentrePatchBodySchema,
  SequencingCentreSchema,
} from '@/lib/reference/contract';
import { associatedTypes, sequencingCentres } from '@/lib/reference/read';
import type { ApiApp } from '../context';
import { route } from '../policy';
import { jsonResponse, pick } from '../schemas';

const tags = ['Admin'];
const NEVER_DELETED =
  'There is no DELETE: profiles and samples keep the names they carry, so a type or centre is retired instead ' +
  '(`selectable` false): no longer offered for a new choice, still valid where it is already used.';
const SEEN = `A change is seen at once by the instance that made it and within ${REFERENCE_CACHE_SECONDS} seconds by the others.`;

const listTypes = route(
  {
    method: 'get',
    path: '/admin/associated-types',
    tags,
    summary: 'The associated project types (sub-projects), retired ones included, in the order lists show them',
    description: NEVER_DELETED,
    responses: { 200: jsonResponse('Every associated type', z.array(AssociatedTypeSchema)), ...pick(401, 404) },
  },
  { access: 'admin' },
);

const createType = route(
  {
    method: 'post',
    path: '/admin/associated-types',
    tags,
    summary: 'Add an associated project type',
    description: `Audited. 409 when the name is taken. ${SEEN}`,
    request: { body: { required: true, content: { 'application/json': { schema: NewAssociatedTypeBodySchema } } } },
    responses: { 201: jsonResponse('The new type', AssociatedTypeSchema), ...pick(400, 401, 404, 409, 415) },
  },
  { access: 'admin' },
);

const patchType = route(
  {
    method: 'patch',
    path: '/admin/associated-types/{name}',
    tags,
    summary: 'Change an associated type’s label, approvals, whether it is offered, or its acceptance text',
    description: `Audited. Retire a type with \`selectable: false\`. ${NEVER_DELETED} ${SEEN}`,
    request: {
      params: ReferenceNameParamsSchema,
      body: { required: true, content: { 'application/json': { schema: AssociatedTypePatchBodySchema } } },
    },
    responses: { 200: jsonResponse('The type as changed', AssociatedTypeSchema), ...pick(400, 401, 404, 415) },
  },
  { access: 'admin' },
);

const listCentres = route(
  {
    method: 'get',
    path: '/admin/sequencing-centres',
    tags,
    summary: 'The sequencing centres, retired ones included, with their contacts, in the order lists show them',
    description: NEVER_DELETED,
    responses: { 200: jsonResponse('Every sequencing centre', z.array(SequencingCentreSchema)), ...pick(401, 404) },
  },
  { access: 'admin' },
);

const createCentre = route(
  {
    method: 'post',
    path: '/admin/sequencing-centres',
    tags,
    summary: 'Add a sequencing centre',
    description:
      'Audited. 409 when the name is taken; a centre that needs approval needs the associated type of its name first ' +
      `(400), whose approvers approve its samples. ${SEEN}`,
    request: { body: { required: true, content: { 'application/json': { schema: NewSequencingCentreBodySchema } } } },
    responses: { 201: jsonResponse('The new centre', SequencingCentreSchema), ...pick(400, 401, 404, 409, 415) },
  },
  { access: 'admin' },
);

const patchCentre = route(
  {
    method: 'patch',
    path: '/admin/sequencing-centres/{name}',
    tags,
    summary: 'Change a sequencing centre’s label, approval, contacts, or whether it is offered',
    description: `Audited. Retire a centre with \`selectable: false\`. ${NEVER_DELETED} ${SEEN}`,
    request: {
      params: ReferenceNameParamsSchema,
      body: { required: true, content: { 'application/json': { schema: SequencingCentrePatchBodySchema } } },
    },
    responses: { 200: jsonResponse('The centre as changed', SequencingCentreSchema), ...pick(400, 401, 404, 415) },
  },
  { access: 'admin' },
);

export function registerAdminReferenceRoutes(app: ApiApp) {
  app.openapi(listTypes, async (c) => c.json((await associatedTypes(c.get('deps').db)).map(associatedTypeJson), 200));
  app.openapi(createType, async (c) => {
    const row = await createAssociatedType(c.get('deps').db, c.get('user').id, c.req.valid('json'));
    return c.json(associatedTypeJson(row), 201);
  });
  app.openapi(patchType, async (c) => {
    const row = await updateAssociatedType(c.get('deps').db, c.get('user').id, c.req.valid('param').name, c.req.valid('json'));
    return c.json(associatedTypeJson(row), 200);
  });
  app.openapi(listCentres, async (c) => c.json((await sequencingCentres(c.get('deps').db)).map(sequencingCentreJson), 200));
  app.openapi(createCentre, async (c) => {
    const row = await createSequencingCentre(c.get('deps').db, c.get('user').id, c.req.valid('json'));
    return c.json(sequencingCentreJson(row), 201);
  });
  app.openapi(patchCentre, async (c) => {
    const row = await updateSequencingCentre(c.get('deps').db, c.get('user').id, c.req.valid('param').name, c.req.valid('json'));
    return c.json(sequencingCentreJson(row), 200);
  });
}
