import { createRoute, z } from '@hono/zod-openapi';
import { createApiKey } from '@/lib/auth/api-keys';
import { Unauthorized } from '@/lib/errors';
import { authenticate } from '@/lib/users/users';
import type { ApiApp } from '../context';
import { pick } from '../schemas';

const required = z.string({ error: 'This field is required.' }).min(1, 'This field is required.');
const Credentials = z
  .object({
    username: required.openapi({ example: 'jane' }),
    password: required.openapi({ example: 'correct horse battery staple' }),
  })
  .openapi('Credentials');

const KeyResponse = z
  .object({
    token: z.string().openapi({ example: 'rmb_3q2…', description: 'the API key; send it as `Authorization: token <key>`' }),
    user_id: z.number().int(),
    email: z.string(),
  })
  .openapi('ApiKey');

const apiKey = createRoute({
  method: 'post',
  path: '/apiKey',
  tags: ['API key'],
  summary: 'Obtain a new API key for a username and password',
  description: 'Each call creates a new key. Keys are shown once; list and revoke them in the portal.',
  request: {
    body: {
      // not `required`: with it every media type's validator runs on every request; the handler re-checks instead
      required: false,
      content: {
        'application/x-www-form-urlencoded': { schema: Credentials },
        'multipart/form-data': { schema: Credentials },
        'application/json': { schema: Credentials },
      },
    },
  },
  responses: {
    200: { description: 'A new key', content: { 'application/json': { schema: KeyResponse } } },
    ...pick(400, 401),
  },
});

export function registerApiKeyRoutes(app: ApiApp) {
  app.openapi(apiKey, async (c) => {
    const isJson = (c.req.header('content-type') ?? '').toLowerCase().includes('json');
    const { username, password } = Credentials.parse(isJson ? c.req.valid('json') : c.req.valid('form'));
    const { db } = c.get('deps');
    const user = await authenticate(db, username, password);
    if (!user) throw Unauthorized('Unable to log in with provided credentials.');
    const { key } = await createApiKey(db, user.id, 'apiKey endpoint');
    c.set('user', user);
    return c.json({ token: key, user_id: user.id, email: user.email }, 200);
  });
}
