import { z } from '@hono/zod-openapi';
import { adminUsersPage } from '@/lib/auth/admin-users';
import { guessLimits } from '@/lib/auth/limits';
import {
  AdminUserSchema,
  NewUserBodySchema,
  UserParamsSchema,
  UserPatchBodySchema,
  UserSchema,
  UserSearchSchema,
} from '@/lib/users/contract';
import { createUser, getUser, updateUser, userJson } from '@/lib/users/users';
import type { ApiApp } from '../context';
import { announcePage, PAGE_HEADERS } from '../paging';
import { route } from '../policy';
import { jsonResponse, PageQuery, pick } from '../schemas';

const list = route(
  {
    method: 'get',
    path: '/admin/users',
    tags: ['Admin'],
    summary: 'A page of the users, by name, with their project memberships, manager roles and the associated types they approve',
    description: 'With `q`, only the users whose username, email, full name or ORCID iD contains it (any case); the total counts those.',
    request: { query: PageQuery.extend(UserSearchSchema.shape) },
    responses: {
      200: {
        ...jsonResponse('Users, with their groups and the profiles shared with them', z.array(AdminUserSchema)),
        headers: PAGE_HEADERS,
      },
      ...pick(400, 401, 404),
    },
  },
  { access: 'admin' },
);

const create = route(
  {
    method: 'post',
    path: '/admin/users',
    tags: ['Admin'],
    summary: 'Create a user',
    request: { body: { required: true, content: { 'application/json': { schema: NewUserBodySchema } } } },
    responses: { 201: jsonResponse('The new user', UserSchema), ...pick(400, 401, 404, 409, 415) },
  },
  { access: 'admin' },
);

const patch = route(
  {
    method: 'patch',
    path: '/admin/users/{id}',
    tags: ['Admin'],
    summary:
      'Change a user’s email, password, admin flag, activity, memberships, manager roles or approver types, or unlink their ORCID iD',
    description: 'A new password also lifts every lock that failed sign-ins put on the account.',
    request: {
      params: UserParamsSchema,
      body: { required: true, content: { 'application/json': { schema: UserPatchBodySchema } } },
    },
    responses: { 200: jsonResponse('The updated user', UserSchema), ...pick(400, 401, 404, 415) },
  },
  { access: 'admin' },
);

const unlock = route(
  {
    method: 'post',
    path: '/admin/users/{id}/unlock',
    tags: ['Admin'],
    summary: 'Lift every lock that failed sign-ins put on a user’s account, from every address, leaving the password as it is',
    request: { params: UserParamsSchema },
    responses: { 200: jsonResponse('The user, who may sign in again from everywhere', UserSchema), ...pick(400, 401, 404) },
  },
  { access: 'admin' },
);

export function registerAdminUserRoutes(app: ApiApp) {
  app.openapi(list, async (c) => {
    const page = c.req.valid('query');
    const { rows, total } = await adminUsersPage(c.get('deps').db, page);
    announcePage(c, page, rows.length, total);
    return c.json(rows, 200);
  });
  app.openapi(create, async (c) => {
    const b = c.req.valid('json');
    const user = await createUser(c.get('deps').db, {
      username: b.username,
      password: b.password,
      email: b.email,
      isAdmin: b.is_admin,
      memberOf: b.member_of,
      managerOf: b.manager_of,
      approverOf: b.approver_of,
    });
    return c.json(userJson(user), 201);
  });
  app.openapi(patch, async (c) => {
    const b = c.req.valid('json');
    const user = await updateUser(c.get('deps').db, c.req.valid('param').id, {
      email: b.email,
      password: b.password,
      isAdmin: b.is_admin,
      isActive: b.is_active,
      memberOf: b.member_of,
      managerOf: b.manager_of,
      approverOf: b.approver_of,
      orcidId: b.orcid_id,
    });
    // a new password is the remedy the lock's message offers: it works at once, from every address
    if (b.password) await guessLimits(c.get('deps').db).accountReset(user.username);
    return c.json(userJson(user), 200);
  });
  app.openapi(unlock, async (c) => {
    const { db } = c.get('deps');
    const user = await getUser(db, c.req.valid('param').id);
    await guessLimits(db).accountReset(user.username);
    return c.json(userJson(user), 200);
  });
}
