import { createRoute, z } from '@hono/zod-openapi';
import { TOL_PROJECTS } from '@/db/schema';
import { createUser, listUsers, updateUser } from '@/lib/users/users';
import { requireAdmin, requireAuth } from '../auth';
import type { ApiApp } from '../context';
import { jsonResponse, pick, security } from '../schemas';
import { UserSchema, userJson } from './account';

const projects = z.array(z.enum(TOL_PROJECTS));
const NewUserBody = z
  .object({
    username: z.string(),
    password: z.string(),
    email: z.string().default(''),
    is_admin: z.boolean().default(false),
    member_of: projects.default([]),
    manager_of: projects.default([]),
  })
  .openapi('NewUser');
const UserPatchBody = z
  .object({
    email: z.string().optional(),
    password: z.string().optional(),
    is_admin: z.boolean().optional(),
    is_active: z.boolean().optional(),
    member_of: projects.optional(),
    manager_of: projects.optional(),
  })
  .openapi('UserPatch');


const list = createRoute({
  method: 'get',
  path: '/admin/users',
  tags: ['Admin'],
  summary: 'All users with their project memberships and manager roles',
  security,
  middleware: [requireAuth, requireAdmin] as const,
  responses: { 200: jsonResponse('Users', z.array(UserSchema)), ...pick(401, 404) },
});

const create = createRoute({
  method: 'post',
  path: '/admin/users',
  tags: ['Admin'],
  summary: 'Create a user',
  security,
  middleware: [requireAuth, requireAdmin] as const,
  request: { body: { required: true, content: { 'application/json': { schema: NewUserBody } } } },
  responses: { 201: jsonResponse('The new user', UserSchema), ...pick(400, 401, 404, 409) },
});

const patch = createRoute({
  method: 'patch',
  path: '/admin/users/{id}',
  tags: ['Admin'],
  summary: 'Change a user’s email, password, admin flag, activity, memberships or manager roles',
  security,
  middleware: [requireAuth, requireAdmin] as const,
  request: {
    params: z.object({ id: z.coerce.number().int().positive() }),
    body: { required: true, content: { 'application/json': { schema: UserPatchBody } } },
  },
  responses: { 200: jsonResponse('The updated user', UserSchema), ...pick(400, 401, 404) },
});

export function registerAdminUserRoutes(app: ApiApp) {
  app.openapi(list, async (c) => c.json((await listUsers(c.get('deps').db)).map(userJson), 200));
  app.openapi(create, async (c) => {
    const b = c.req.valid('json');
    const user = await createUser(c.get('deps').db, {
      username: b.username,
      password: b.password,
      email: b.email,
      isAdmin: b.is_admin,
      memberOf: b.member_of,
      managerOf: b.manager_of,
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
    });
    return c.json(userJson(user), 200);
  });
}
