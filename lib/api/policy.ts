import { createRoute, type RouteConfig } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { createMiddleware } from 'hono/factory';
import { REQUEST_LIMITS, type RequestLimitName, requestLimits } from '@/lib/auth/request-limits';
import type { Config } from '@/lib/config';
import { NotFound, TooLarge } from '@/lib/errors';
import type { ProfileNeed } from '@/lib/profiles/access';
import { getProfile } from '@/lib/profiles/profiles';
import { requireAdmin, requireAuth, requireMetricsScraper } from './auth';
import { clientAddress } from './client-address';
import type { ApiApp, AppEnv } from './context';
import { security } from './schemas';

/** What an operation names whose profile decides who may call it, when no path parameter names the profile. */
export type ProfileOf = 'manifest' | 'report' | 'sample' | 'image' | 'submission' | 'body';

/**
 * Who may call an operation. `anyone`: no credentials. `signed-in`: an API key or the portal's session, and the
 * answer is the caller's own (their keys, their profiles). `admin`: others are answered 404. `{ profile, in }`: the
 * caller's role on the profile named by a path parameter must allow `profile` (404 when the caller cannot see it, 403
 * when they may only look), checked here. `{ profile, of }`: the same role on the profile of the manifest, report,
 * sample, image or submission the operation names (or of the body's `profile_id`), and with `reviewers` also the
 * sample managers who decide on its samples: only the domain can find that profile, so this declares the rule and the
 * domain checks it, answering 404 as for an unknown thing. `approver`: a sample manager, an approver of the samples'
 * associated types; the domain answers only what the caller decides on.
 */
export type Access =
  | 'anyone'
  | 'signed-in'
  | 'admin'
  /** an admin, or a Prometheus scraper with the METRICS_TOKEN */
  | 'admin-or-scraper'
  | 'approver'
  | { profile: ProfileNeed; in: 'profile_id' }
  | { profile: ProfileNeed; of: ProfileOf; reviewers?: true };

/** How large a request's body may be. */
export type BodyPolicy =
  | {
      /** the largest body taken */
      maxBytes: (config: Config) => number;
      /** the refusal's words */
      tooLarge: (config: Config) => string;
    }
  /** the route reads its body as a stream and counts the bytes itself (a signed upload of any size) */
  | 'streamed';

/** An operation's rules, declared with it and enforced before its body is read. */
export interface RoutePolicy {
  access: Access;
  /** the default (DEFAULT_BODY_MAX_BYTES) unless the route takes files */
  body?: BodyPolicy;
  /** requests counted per caller (lib/auth/request-limits.ts) */
  rateLimit?: RequestLimitName;
  /** the domain's own check of the caller, run before the body is read (the manifest a photo is for, say) */
  guard?: (c: Context<AppEnv>) => Promise<unknown>;
}

/** Bodies of everything but uploads: 10,000 svc_ids or 1,000 file names fit with room to spare. */
export const DEFAULT_BODY_MAX_BYTES = 2 * 1024 * 1024;

/** A spreadsheet upload: one file of at most UPLOAD_MAX_BYTES, with room for the multipart form around it. */
export const SHEET_UPLOAD: BodyPolicy = {
  maxBytes: (config) => config.UPLOAD_MAX_BYTES + 64 * 1024,
  tooLarge: (config) => `The file is larger than the limit of ${config.UPLOAD_MAX_BYTES} bytes.`,
};

const DEFAULT_BODY: BodyPolicy = {
  maxBytes: () => DEFAULT_BODY_MAX_BYTES,
  tooLarge: () => `The request body is larger than ${DEFAULT_BODY_MAX_BYTES} bytes; files go to the upload endpoints.`,
};

// by `METHOD /path/{param}`, the route's own spelling; routes are declared once, as the modules load
const declared = new Map<string, RoutePolicy>();
const keyOf = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

type Middleware = NonNullable<RouteConfig['middleware']>;
type Declarable = Omit<RouteConfig, 'security' | 'middleware'> & { middleware?: Middleware };

/**
 * An operation with its policy: the document shows it (`x-required-role`, the body limit, the rate limit) and
 * its first middleware applies it, so a route that takes files or needs a role cannot be forgotten in a list elsewhere.
 */
export function route<const R extends Declarable>(config: R, policy: RoutePolicy) {
  declare(config.method, config.path, policy);
  const own = config.middleware ? [config.middleware].flat() : [];
  return createRoute({ ...config, security: securityOf(policy.access), middleware: [enforce(policy), ...own] } as R);
}

function securityOf(access: Access): RouteConfig['security'] {
  if (access === 'anyone') return undefined;
  if (access === 'admin-or-scraper') return [{ MetricsToken: [] }, { Token: [] }];
  return security;
}

/** The policy of an operation registered without `route` (the API's own document and docs page). */
export function declare(method: string, path: string, policy: RoutePolicy): void {
  declared.set(keyOf(method, path), policy);
}

/** Every declared operation and its policy, as the document spells them (`POST /manifest/{manifest_id}/images`). */
export function declaredPolicies(): ReadonlyMap<string, RoutePolicy> {
  return declared;
}

/**
 * The operation's policy, run first among its middleware, before its body is read: the body bounded, the caller
 * known, their role, their rate.
 */
const enforce = (policy: RoutePolicy) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const { config } = c.get('deps');
    const body = policy.body ?? DEFAULT_BODY;
    const guarded = () => withCaller(c, policy, next);
    if (c.req.method === 'GET' || c.req.method === 'HEAD' || body === 'streamed') return guarded();
    const max = body.maxBytes(config);
    const tooLarge = () => TooLarge(body.tooLarge(config));
    if (Number(c.req.header('content-length') ?? 0) > max) throw tooLarge();
    return bodyLimit({
      maxSize: max,
      onError: () => {
        throw tooLarge();
      },
    })(c, guarded);
  });

async function withCaller(c: Context<AppEnv>, policy: RoutePolicy, next: () => Promise<void>): Promise<void> {
  const { access } = policy;
  if (access === 'anyone') return limited(c, policy, next);
  const then = async () => {
    await limited(c, policy, next);
  };
  if (access === 'admin-or-scraper') {
    await requireMetricsScraper(c, then);
    return;
  }
  await requireAuth(c, async () => {
    if (access === 'admin') {
      await requireAdmin(c, then);
      return;
    }
    if (typeof access === 'object' && 'in' in access) {
      const id = c.req.param(access.in);
      if (!id) throw NotFound(`No route for ${c.req.method} ${c.req.path}`);
      await getProfile(c.get('deps').db, c.get('user'), id, access.profile);
    }
    return limited(c, policy, next);
  });
}

async function limited(c: Context<AppEnv>, policy: RoutePolicy, next: () => Promise<void>): Promise<void> {
  if (policy.guard) await policy.guard(c);
  if (policy.rateLimit) {
    const user = c.var.user;
    await requestLimits(c.get('deps').db).consume(policy.rateLimit, user ? `user:${user.id}` : `client:${clientAddress(c)}`);
  }
  await next();
}

const ROLE_WORDS: Record<ProfileNeed, string> = {
  view: 'profile viewer',
  contribute: 'profile contributor',
  own: 'profile owner',
};

const OF_WORDS: Record<ProfileOf, string> = {
  manifest: 'the manifest’s profile',
  report: 'the report’s profile',
  sample: 'the sample’s profile',
  image: 'the image’s profile',
  submission: 'the submission’s profile',
  body: 'the profile its body names (`profile_id`)',
};

/** What the document says of who may call: `x-required-role`. */
export function roleOf(access: Access): string {
  if (access === 'approver') return 'sample manager (an approver of the samples’ associated types)';
  if (typeof access !== 'object') return access;
  if ('in' in access) return ROLE_WORDS[access.profile];
  const role = `${ROLE_WORDS[access.profile]} of ${OF_WORDS[access.of]}`;
  return access.reviewers ? `${role}, or a sample manager deciding on its samples` : role;
}

type Paths = NonNullable<ReturnType<ApiApp['getOpenAPI31Document']>['paths']>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/**
 * The document's operations with their policies: `x-required-role`, `x-body-max-bytes` and `x-rate-limit`, and the
 * same in words at the end of each description, with the limits this instance is configured with.
 */
export function describePolicies(paths: Paths, config: Config): void {
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const op = item[method];
      // the document's paths carry the app's base path (/api); routes declare theirs without it
      const policy = declared.get(keyOf(method, path.replace(/^\/api(?=\/|$)/, '') || '/'));
      if (!op || !policy) continue;
      const words: string[] = [];
      op['x-required-role'] = roleOf(policy.access);
      words.push(`**Who:** ${roleOf(policy.access)}.`);
      if (method !== 'get') {
        const body = policy.body ?? DEFAULT_BODY;
        if (body === 'streamed') {
          op['x-body-max-bytes'] = 'streamed';
          words.push('**Body:** streamed; its size is checked as it arrives.');
        } else {
          op['x-body-max-bytes'] = body.maxBytes(config);
          words.push(`**Body:** at most ${body.maxBytes(config)} bytes (413 above).`);
        }
      }
      if (policy.rateLimit) {
        const limit = REQUEST_LIMITS[policy.rateLimit];
        op['x-rate-limit'] = { name: policy.rateLimit, requests: limit.points, seconds: limit.duration, per: 'caller' };
        words.push(`**Rate:** at most ${limit.points} requests per ${limit.duration} s per caller (429 above).`);
      }
      op.description = [op.description, words.join(' ')].filter(Boolean).join('\n\n');
    }
  }
}
