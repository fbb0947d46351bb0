import { createMiddleware } from 'hono/factory';
import { looksLikeApiKey, resolveApiKey } from '@/lib/auth/api-keys';
import { guessLimits } from '@/lib/auth/limits';
import { sessionUserId } from '@/lib/auth/session';
import { AppError, NotFound, Unauthorized } from '@/lib/errors';
import { getUser } from '@/lib/users/users';
import { clientAddress } from './client-address';
import type { AppEnv } from './context';

/**
 * The key from an Authorization header. Accepts `token <key>` (any case), `Bearer <key>`, the reference system's
 * doubled `token Token <key>` (a client prefixing the `Token <key>` value that the reference's apiKey returned),
 * and a bare key of our own recognisable form. Throws 401 with the reference's sentences otherwise.
 */
export function keyFromAuthorization(header: string): string {
  const value = header.trim();
  if (looksLikeApiKey(value)) return value;
  const scheme = /^(?:token|bearer)(?=\s|$)/i.exec(value);
  if (!scheme) throw Unauthorized('Authentication credentials were not provided.');
  let rest = value.slice(scheme[0].length).trim();
  if (/^token\s/i.test(rest)) rest = rest.slice('token'.length).trim();
  if (!rest) throw Unauthorized('Invalid token header. No credentials provided.');
  if (/\s/.test(rest)) throw Unauthorized('Invalid token header. Token string should not contain spaces.');
  return rest;
}

/** Resolves the caller from an API key or, when no Authorization header is sent, the portal's session cookie. */
export const requireAuth = createMiddleware<AppEnv>(async (c, next) => {
  const { db, config } = c.get('deps');
  const header = c.req.header('authorization');
  let userId: number | null;
  if (header !== undefined) {
    let key: string;
    try {
      key = keyFromAuthorization(header);
    } catch (err) {
      await guessLimits(db).keyFailed(clientAddress(c));
      throw err;
    }
    userId = await resolveApiKey(db, key);
    if (userId === null) {
      // guessing keys is throttled per client; a valid key is never slowed
      await guessLimits(db).keyFailed(clientAddress(c));
      throw Unauthorized('Invalid token.');
    }
  } else {
    userId = await sessionUserId(c.req.header('cookie'), config.authSecret);
    if (userId === null) throw Unauthorized('Authentication credentials were not provided.');
  }
  const user = await getUser(db, userId).catch((err: unknown) => {
    if (err instanceof AppError && err.code === 'not_found') return null;
    throw err;
  });
  if (!user?.isActive) throw Unauthorized('User inactive or deleted.');
  c.set('user', user);
  await next();
});

/** After requireAuth. Admin-only areas answer 404 to others, so their existence is not advertised. */
export const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  if (!c.get('user').isAdmin) throw NotFound(`No route for ${c.req.method} ${c.req.path}`);
  await next();
});
