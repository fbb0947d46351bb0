import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { looksLikeApiKey, resolveApiKey } from '@/lib/auth/api-keys';
import { guessLimits } from '@/lib/auth/limits';
import { signedInUser } from '@/lib/auth/session';
import type { Config } from '@/lib/config';
import { AppError, Forbidden, NotFound, Unauthorized } from '@/lib/errors';
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

/** Resolves the caller from an API key or, when no Authorization header is sent, the portal’s session cookie. */
export const requireAuth = createMiddleware<AppEnv>(async (c, next) => {
  const { db, config } = c.get('deps');
  const header = c.req.header('authorization');
  if (header === undefined) {
    // the portal's session: it counts only while not ended (lib/auth/sessions.ts)
    const user = await signedInUser(db, c.req.header('cookie'), config.authSecret);
    if (!user) throw Unauthorized('Authentication credentials were not provided.');
    // a browser sends the cookie with a request any site makes; only the portal's own pages may change anything
    if (!SAFE_METHODS.has(c.req.method) && !fromThisSite(c, config)) {
      throw Forbidden('A change made with the portal’s session must come from the portal’s own pages; a script sends an API key instead.');
    }
    c.set('user', user);
    return next();
  }
  let key: string;
  try {
    key = keyFromAuthorization(header);
  } catch (err) {
    await guessLimits(db).keyFailed(clientAddress(c));
    throw err;
  }
  const userId = await resolveApiKey(db, key);
  if (userId === null) {
    // guessing keys is throttled per client; a valid key is never slowed
    await guessLimits(db).keyFailed(clientAddress(c));
    throw Unauthorized('Invalid token.');
  }
  const user = await getUser(db, userId).catch((err: unknown) => {
    if (err instanceof AppError && err.code === 'not_found') return null;
    throw err;
  });
  if (!user?.isActive) throw Unauthorized('User inactive or deleted.');
  c.set('user', user);
  await next();
});

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const first = (value: string | undefined) => value?.split(',')[0]?.trim() || undefined;

/**
 * Whether a request comes from a page of this site, by what the browser says of it (OWASP's check of standard
 * headers): its Origin is the service's public address (NEXTAUTH_URL) or the host the request was sent to (the Host
 * header, or behind a trusted proxy the host it forwarded); a browser that sends no Origin must say the request is
 * same-origin (Sec-Fetch-Site). A sibling subdomain is another origin.
 */
function fromThisSite(c: Context<AppEnv>, config: Config): boolean {
  const origin = c.req.header('origin');
  if (origin === undefined) return c.req.header('sec-fetch-site') === 'same-origin';
  let host: string;
  try {
    const url = new URL(origin);
    if (url.origin === new URL(config.baseUrl).origin) return true;
    host = url.host;
  } catch {
    // `null` (a sandboxed frame, a file) or not a URL
    return false;
  }
  const addressed = (config.TRUST_PROXY && first(c.req.header('x-forwarded-host'))) || c.req.header('host');
  return addressed !== undefined && host === addressed.toLowerCase();
}

/** After requireAuth. Admin-only areas answer 404 to others, so their existence is not advertised. */
export const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  if (!c.get('user').isAdmin) throw NotFound(`No route for ${c.req.method} ${c.req.path}`);
  await next();
});

const digest = (s: string) => createHash('sha256').update(s).digest();

/** `Bearer <METRICS_TOKEN>`, compared in constant time (digests of equal length, whatever was sent). */
function isMetricsToken(header: string | undefined, token: string | undefined): boolean {
  if (!token || !header) return false;
  const m = /^bearer\s+(\S+)\s*$/i.exec(header.trim());
  return m?.[1] !== undefined && timingSafeEqual(digest(m[1]), digest(token));
}

/**
 * A scraper with METRICS_TOKEN, or an admin (key or session); anyone else is refused as on any admin route: 401
 * without credentials or with a wrong key or token (counted as a guess), 404 for a user who is not an admin.
 */
export const requireMetricsScraper = createMiddleware<AppEnv>(async (c, next) => {
  if (isMetricsToken(c.req.header('authorization'), c.get('deps').config.METRICS_TOKEN)) return next();
  await requireAuth(c, async () => {
    await requireAdmin(c, next);
  });
});
