import { z } from '@hono/zod-openapi';
import { createApiKey, listApiKeys, revokeApiKey, type ApiKeyInfo as StoredKey } from '@/lib/auth/api-keys';
import { endEverySession } from '@/lib/auth/sessions';
import {
  type ApiKeyInfo,
  ApiKeyInfoSchema,
  ApiKeyParamsSchema,
  NewApiKeyBodySchema,
  NewApiKeySchema,
  UserSchema,
} from '@/lib/users/contract';
import { userJson } from '@/lib/users/users';
import type { ApiApp } from '../context';
import { announcePage, PAGE_HEADERS } from '../paging';
import { route } from '../policy';
import { jsonResponse, PageQuery, pick } from '../schemas';

const keyJson = (k: StoredKey): ApiKeyInfo => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  created: k.createdAt.toISOString(),
  last_used: k.lastUsedAt?.toISOString() ?? null,
  revoked: k.revokedAt?.toISOString() ?? null,
});

const me = route(
  {
    method: 'get',
    path: '/account',
    tags: ['Account'],
    summary: 'The signed-in user',
    responses: { 200: jsonResponse('The caller', UserSchema), ...pick(401) },
  },
  { access: 'signed-in' },
);

const listKeys = route(
  {
    method: 'get',
    path: '/account/keys',
    tags: ['Account'],
    summary: 'A page of the caller’s API keys (never the keys themselves)',
    request: { query: PageQuery },
    responses: { 200: { ...jsonResponse('Keys, newest first', z.array(ApiKeyInfoSchema)), headers: PAGE_HEADERS }, ...pick(400, 401) },
  },
  { access: 'signed-in' },
);

const createKey = route(
  {
    method: 'post',
    path: '/account/keys',
    tags: ['Account'],
    summary: 'Create an API key; the key is in this response only',
    description: 'The body is optional: without one the key has no name.',
    request: { body: { required: false, content: { 'application/json': { schema: NewApiKeyBodySchema } } } },
    responses: { 201: jsonResponse('The new key', NewApiKeySchema), ...pick(400, 401, 415) },
  },
  { access: 'signed-in' },
);

const revokeKey = route(
  {
    method: 'delete',
    path: '/account/keys/{id}',
    tags: ['Account'],
    summary: 'Revoke an API key',
    request: { params: ApiKeyParamsSchema },
    responses: { 200: jsonResponse('The revoked key', ApiKeyInfoSchema), ...pick(400, 401, 404) },
  },
  { access: 'signed-in' },
);

const endSessions = route(
  {
    method: 'delete',
    path: '/account/sessions',
    tags: ['Account'],
    summary: 'Sign out everywhere: end every portal session of the caller',
    description:
      'Every browser signed in to the account is signed out at its next request, this one too. API keys stay valid: ' +
      'revoke them one by one (`DELETE /api/account/keys/{id}`). A new password does the same.',
    responses: { 204: { description: 'Every session ended' }, ...pick(401) },
  },
  { access: 'signed-in' },
);

export function registerAccountRoutes(app: ApiApp) {
  app.openapi(endSessions, async (c) => {
    await endEverySession(c.get('deps').db, c.get('user').id);
    return c.body(null, 204);
  });
  app.openapi(me, (c) => c.json(userJson(c.get('user')), 200));
  app.openapi(listKeys, async (c) => {
    const page = c.req.valid('query');
    const { rows, total } = await listApiKeys(c.get('deps').db, c.get('user').id, page);
    announcePage(c, page, rows.length, total);
    return c.json(rows.map(keyJson), 200);
  });
  app.openapi(createKey, async (c) => {
    // with no body the validator is skipped and hands over `{}`: no name
    const name = c.req.valid('json').name ?? '';
    const { key, info } = await createApiKey(c.get('deps').db, c.get('user').id, name);
    return c.json({ ...keyJson(info), key }, 201);
  });
  app.openapi(revokeKey, async (c) => {
    const info = await revokeApiKey(c.get('deps').db, c.get('user').id, c.req.valid('param').id);
    return c.json(keyJson(info), 200);
  });
}
