import { z } from '@hono/zod-openapi';
import {
  NewShareSchema,
  ProfileParamsSchema,
  ProfileShareSchema,
  ShareParamsSchema,
  TransferredSchema,
  TransferSchema,
} from '@/lib/profiles/contract';
import { listShares, shareProfile, transferProfile, unshareProfile } from '@/lib/profiles/shares';
import type { ApiApp } from '../context';
import { openapiConstrained, PATH_PATTERNS } from '../openapi';
import { route } from '../policy';
import { jsonResponse, pick } from '../schemas';

const tags = ['Sharing'];

const list = route(
  {
    method: 'get',
    path: '/profiles/{profile_id}/shares',
    tags,
    summary: 'Who the profile is shared with, and as what',
    description: 'Anyone who may see the profile sees its shares.',
    request: { params: ProfileParamsSchema },
    responses: { 200: jsonResponse('Shares', z.array(ProfileShareSchema)), ...pick(401, 403, 404) },
  },
  { access: { profile: 'view', in: 'profile_id' } },
);

const share = route(
  {
    method: 'post',
    path: '/profiles/{profile_id}/shares',
    tags,
    summary: 'Share the profile with a person or a group (its owner, an admin)',
    description:
      'A viewer sees the profile, its manifests, reports, samples, studies and submissions; a contributor also uploads and ' +
      'confirms manifests, uploads studies and data files and submits studies. Sharing again with the same person or ' +
      'group changes the role (200). A Tree of Life profile is shared only with members of its project. Shared people ' +
      'also receive the profile’s emails.',
    request: { params: ProfileParamsSchema, body: { required: true, content: { 'application/json': { schema: NewShareSchema } } } },
    responses: {
      201: jsonResponse('The new share', ProfileShareSchema),
      200: jsonResponse('The share, with its role changed', ProfileShareSchema),
      ...pick(400, 401, 403, 404, 409, 415),
    },
  },
  { access: { profile: 'own', in: 'profile_id' } },
);

const unshare = route(
  {
    method: 'delete',
    path: '/profiles/{profile_id}/shares/{share_id}',
    tags,
    summary: 'End a share (the owner, an admin, or the person it is with): access ends at once',
    request: { params: ShareParamsSchema },
    responses: { 204: { description: 'Ended, with an audit event' }, ...pick(400, 401, 403, 404) },
  },
  { access: { profile: 'view', in: 'profile_id' } },
);

const transfer = route(
  {
    method: 'put',
    path: '/profiles/{profile_id}/owner',
    tags,
    summary: 'Give the profile to another owner (its owner, an admin)',
    description:
      'The new owner must be active and, for a Tree of Life profile, a member of its project; a title they already use is ' +
      '409. The former owner keeps `former_owner_role` (contributor by default) as a share. Audited.',
    request: { params: ProfileParamsSchema, body: { required: true, content: { 'application/json': { schema: TransferSchema } } } },
    responses: { 200: jsonResponse('The new ownership', TransferredSchema), ...pick(400, 401, 403, 404, 409, 415) },
  },
  { access: { profile: 'own', in: 'profile_id' } },
);

const idPattern = { profile_id: PATH_PATTERNS.profile_id };

export function registerSharingRoutes(app: ApiApp) {
  openapiConstrained(app, list, idPattern, async (c) =>
    c.json(await listShares(c.get('deps').db, c.get('user'), c.req.valid('param').profile_id), 200),
  );
  openapiConstrained(app, share, idPattern, async (c) => {
    const { share: made, created } = await shareProfile(
      c.get('deps').db,
      c.get('user'),
      c.req.valid('param').profile_id,
      c.req.valid('json'),
    );
    return created ? c.json(made, 201) : c.json(made, 200);
  });
  openapiConstrained(app, unshare, idPattern, async (c) => {
    const { profile_id, share_id } = c.req.valid('param');
    await unshareProfile(c.get('deps').db, c.get('user'), profile_id, share_id);
    return c.body(null, 204);
  });
  openapiConstrained(app, transfer, idPattern, async (c) =>
    c.json(await transferProfile(c.get('deps').db, c.get('user'), c.req.valid('param').profile_id, c.req.valid('json')), 200),
  );
}
