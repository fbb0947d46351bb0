import { createRoute, z } from '@hono/zod-openapi';
import { createApiKey, listApiKeys, revokeApiKey, type ApiKeyInfo } from '@/lib/auth/api-keys';
import type { UserRecord } from '@/lib/users/users';
import { requireAuth } from '../auth';
import type { ApiApp } from '../context';
import { jsonResponse, pick, security } from '../schemas';

export const UserSchema = z
  .object({
    id: z.number().int(),
    username: z.string(),
    email: z.string(),
    is_admin: z.boolean(),
    is_active: z.boolean(),
    member_of: z.array(z.string()),
    manager_of: z.array(z.string()),
    created: z.string(),
  })
  .openapi('User');

export const userJson = (u: UserRecord) => ({
  id: u.id,
  username: u.username,
  email: u.email,
  is_admin: u.isAdmin,
  is_active: u.isActive,
  member_of: u.memberOf,
  manager_of: u.managerOf,
  created: u.createdAt.toISOString(),
});

const KeyInfoSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    prefix: z.string().openapi({ description: 'first characters of the key, to tell keys apart' }),
    created: z.string(),
    last_used: z.string().nullable(),
    revoked: z.string().nullable(),
  })
  .openapi('ApiKeyInfo');

const keyJson = (k: ApiKeyInfo) => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  created: k.createdAt.toISOString(),
  last_used: k.lastUsedAt?.toISOString() ?? null,
  revoked: k.revokedAt?.toISOString() ?? null,
});


const me = createRoute({
  method: 'get',
  path: '/account',
  tags: ['Account'],
  summary: 'The signed-in user',
  security,
  middleware: [requireAuth] as const,
  responses: { 200: jsonResponse('The caller', UserSchema), ...pick(401) },
});

const listKeys = createRoute({
  method: 'get',
  path: '/account/keys',
  tags: ['Account'],
  summary: 'The caller’s API keys (never the keys themselves)',
  security,
  middleware: [requireAuth] as const,
  responses: { 200: jsonResponse('Keys, newest first', z.array(KeyInfoSchema)), ...pick(401) },
});

const createKey = createRoute({
  method: 'post',
  path: '/account/keys',
  tags: ['Account'],
  summary: 'Create an API key; the key is in this response only',
  security,
  middleware: [requireAuth] as const,
  request: {
    body: {
      required: false,
      content: { 'application/json': { schema: z.object({ name: z.string().trim().max(100).default('') }) } },
    },
  },
  responses: {
    201: jsonResponse('The new key', KeyInfoSchema.extend({ key: z.string() })),
    ...pick(400, 401),
  },
});

const revokeKey = createRoute({
  method: 'delete',
  path: '/account/keys/{id}',
  tags: ['Account'],
  summary: 'Revoke an API key',
  security,
  middleware: [requireAuth] as const,
  request: { params: z.object({ id: z.coerce.number().int().positive() }) },
  responses: { 200: jsonResponse('The revoked key', KeyInfoSchema), ...pick(401, 404) },
});

export function registerAccountRoutes(app: ApiApp) {
  app.openapi(me, (c) => c.json(userJson(c.get('user')), 200));
  app.openapi(listKeys, async (c) => {
    const keys = await listApiKeys(c.get('deps').db, c.get('user').id);
    return c.json(keys.map(keyJson), 200);
  });
  app.openapi(createKey, async (c) => {
    const body = c.req.header('content-type') ? c.req.valid('json') : { name: '' };
    const { key, info } = await createApiKey(c.get('deps').db, c.get('user').id, body.name ?? '');
    return c.json({ ...keyJson(info), key }, 201);
  });
  app.openapi(revokeKey, async (c) => {
    const info = await revokeApiKey(c.get('deps').db, c.get('user').id, c.req.valid('param').id);
    return c.json(keyJson(info), 200);
  });
}
