import { requestPasswordReset, resetPassword } from '@/lib/auth/password-reset';
import { mailContext } from '@/lib/mail/outbox';
import { PasswordResetAnswerSchema, PasswordResetRequestSchema, PasswordResetSchema } from '@/lib/users/contract';
import { clientAddress } from '../client-address';
import type { ApiApp } from '../context';
import { route } from '../policy';
import { jsonResponse, pick } from '../schemas';

const request = route(
  {
    method: 'post',
    path: '/password-reset',
    tags: ['Password reset'],
    summary: 'Email a link that sets a new password to the account with this username or email address',
    description:
      'The answer is the same whether or not an account matches, so nobody learns which names or addresses have one. The link works ' +
      'for an hour and only once. Accounts without a password (made by signing in with ORCID) get no link. 404 when the broker ' +
      'sends no email (no SMTP server configured).',
    request: { body: { required: true, content: { 'application/json': { schema: PasswordResetRequestSchema } } } },
    responses: { 202: jsonResponse('Sent, if an account matches', PasswordResetAnswerSchema), ...pick(400, 404, 415, 429) },
  },
  { access: 'anyone' },
);

const confirm = route(
  {
    method: 'post',
    path: '/password-reset/confirm',
    tags: ['Password reset'],
    summary: 'Set a new password with the token of a reset email’s link',
    description:
      'The token stops working once the password changes (so it works once), after an hour, or when the account’s email address ' +
      'changes. The new password lifts every lock that failed sign-ins put on the account.',
    request: { body: { required: true, content: { 'application/json': { schema: PasswordResetSchema } } } },
    responses: { 200: jsonResponse('The password is set', PasswordResetAnswerSchema), ...pick(400, 415, 429) },
  },
  { access: 'anyone' },
);

export function registerPasswordResetRoutes(app: ApiApp) {
  app.openapi(request, async (c) => {
    const { db, config, jobs } = c.get('deps');
    const detail = await requestPasswordReset(
      { db, secret: config.authSecret, mail: mailContext(config, jobs), client: clientAddress(c) },
      c.req.valid('json'),
    );
    return c.json({ detail }, 202);
  });
  app.openapi(confirm, async (c) => {
    const { db, config } = c.get('deps');
    const { username } = await resetPassword({ db, secret: config.authSecret, client: clientAddress(c) }, c.req.valid('json'));
    return c.json({ detail: `The password of ${username} is set: sign in with it now.` }, 200);
  });
}
