import { createApiKey } from '@/lib/auth/api-keys';
import { signInWithPassword } from '@/lib/auth/sign-in';
import { Unauthorized } from '@/lib/errors';
import { type ApiKeyAnswer, ApiKeyAnswerSchema, CredentialsSchema } from '@/lib/users/contract';
import { clientAddress } from '../client-address';
import type { ApiApp } from '../context';
import { route } from '../policy';
import { jsonResponse, pick } from '../schemas';

const apiKey = route(
  {
    method: 'post',
    path: '/apiKey',
    tags: ['API key'],
    summary: 'Obtain a new API key for a username and password',
    description: 'Each call creates a new key. Keys are shown once; list and revoke them in the portal.',
    request: {
      body: {
        // not `required`: with it every media type's validator runs on every request, so a form would be refused as
        // JSON; each validator runs for its own content type, and the handler checks that one of them did
        required: false,
        content: {
          'application/x-www-form-urlencoded': { schema: CredentialsSchema },
          'multipart/form-data': { schema: CredentialsSchema },
          'application/json': { schema: CredentialsSchema },
        },
      },
    },
    responses: { 200: jsonResponse('A new key', ApiKeyAnswerSchema), ...pick(400, 401, 415, 429) },
  },
  { access: 'anyone' },
);

export function registerApiKeyRoutes(app: ApiApp) {
  app.openapi(apiKey, async (c) => {
    // the validator of the content type sent has checked its body; the others hand over `{}`, as both do with no body
    const { username, password } = CredentialsSchema.parse({ ...c.req.valid('form'), ...c.req.valid('json') });
    const { db } = c.get('deps');
    const user = await signInWithPassword(db, clientAddress(c), username, password);
    if (!user) throw Unauthorized('Unable to log in with provided credentials.');
    const { key } = await createApiKey(db, user.id, 'apiKey endpoint');
    c.set('user', user);
    const answer: ApiKeyAnswer = { token: key, user_id: user.id, email: user.email };
    return c.json(answer, 200);
  });
}
