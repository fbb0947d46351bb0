import { z } from '@hono/zod-openapi';
import { GroupMemberParamsSchema, GroupParamsSchema, GroupSchema, NewGroupSchema, NewMemberSchema } from '@/lib/groups/contract';
import { addMember, createGroup, deleteGroup, getGroup, listGroups, removeMember } from '@/lib/groups/groups';
import type { ApiApp } from '../context';
import { route } from '../policy';
import { jsonResponse, pick } from '../schemas';

const tags = ['Groups'];

const list = route(
  {
    method: 'get',
    path: '/groups',
    tags,
    summary: 'The caller’s groups: those they own or belong to (an admin’s: all), by name',
    responses: { 200: jsonResponse('Groups', z.array(GroupSchema)), ...pick(401) },
  },
  { access: 'signed-in' },
);

const create = route(
  {
    method: 'post',
    path: '/groups',
    tags,
    summary: 'Make a group; the caller owns it and is its first member',
    request: { body: { required: true, content: { 'application/json': { schema: NewGroupSchema } } } },
    responses: { 201: jsonResponse('The new group', GroupSchema), ...pick(400, 401, 409, 415) },
  },
  { access: 'signed-in' },
);

const read = route(
  {
    method: 'get',
    path: '/groups/{group_id}',
    tags,
    summary: 'One group the caller owns or belongs to',
    request: { params: GroupParamsSchema },
    responses: { 200: jsonResponse('The group', GroupSchema), ...pick(400, 401, 404) },
  },
  { access: 'signed-in' },
);

const remove = route(
  {
    method: 'delete',
    path: '/groups/{group_id}',
    tags,
    summary: 'Delete a group (its owner, an admin): what was shared with it is no longer shared with its members',
    request: { params: GroupParamsSchema },
    responses: { 204: { description: 'Deleted' }, ...pick(400, 401, 403, 404) },
  },
  { access: 'signed-in' },
);

const addOne = route(
  {
    method: 'post',
    path: '/groups/{group_id}/members',
    tags,
    summary: 'Add a person to the group (its owner, an admin); adding a member again changes nothing',
    request: { params: GroupParamsSchema, body: { required: true, content: { 'application/json': { schema: NewMemberSchema } } } },
    responses: { 200: jsonResponse('The group', GroupSchema), ...pick(400, 401, 403, 404, 415) },
  },
  { access: 'signed-in' },
);

const removeOne = route(
  {
    method: 'delete',
    path: '/groups/{group_id}/members/{username}',
    tags,
    summary: 'Remove a person from the group (its owner, an admin; a member may remove themselves)',
    description: 'What the group was shared with is no longer theirs from this moment. The owner stays a member.',
    request: { params: GroupMemberParamsSchema },
    responses: { 204: { description: 'Removed' }, ...pick(400, 401, 403, 404, 409) },
  },
  { access: 'signed-in' },
);

export function registerGroupRoutes(app: ApiApp) {
  app.openapi(list, async (c) => c.json(await listGroups(c.get('deps').db, c.get('user')), 200));
  app.openapi(create, async (c) => c.json(await createGroup(c.get('deps').db, c.get('user'), c.req.valid('json')), 201));
  app.openapi(read, async (c) => c.json(await getGroup(c.get('deps').db, c.get('user'), c.req.valid('param').group_id), 200));
  app.openapi(remove, async (c) => {
    await deleteGroup(c.get('deps').db, c.get('user'), c.req.valid('param').group_id);
    return c.body(null, 204);
  });
  app.openapi(addOne, async (c) =>
    c.json(await addMember(c.get('deps').db, c.get('user'), c.req.valid('param').group_id, c.req.valid('json')), 200),
  );
  app.openapi(removeOne, async (c) => {
    const { group_id, username } = c.req.valid('param');
    await removeMember(c.get('deps').db, c.get('user'), group_id, username);
    return c.body(null, 204);
  });
}
