import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ZodError } from 'zod';
import { isDatabaseUnavailable, isDataException, isUniqueViolation } from '@/db/errors';
import { RateLimited } from '@/lib/auth/limit-store';
import { AppError, type ErrorCode, type FieldError } from '@/lib/errors';
import type { AppEnv } from './context';
import { databaseBreaker } from './database-breaker';

const STATUS: Record<ErrorCode, ContentfulStatusCode> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  rate_limited: 429,
  unavailable: 503,
};

// how long a client should wait before repeating a request that met an outage
const RETRY_AFTER_SECONDS = '30';
// a restarting database is back in seconds
export const DATABASE_RETRY_AFTER_SECONDS = '5';

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  414: 'URI Too Long',
  431: 'Request Header Fields Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  /** the same sentence as detail, for clients of the reference system that read `message` */
  message: string;
  request_id?: string;
  errors?: FieldError[];
  [extra: string]: unknown;
}

export function problemBody(
  status: number,
  detail: string,
  opts: { errors?: FieldError[]; requestId?: string; extra?: Record<string, unknown> } = {},
): Problem {
  return {
    type: 'about:blank',
    title: TITLES[status] ?? 'Error',
    status,
    detail,
    message: detail,
    ...(opts.requestId && { request_id: opts.requestId }),
    ...(opts.errors?.length && { errors: opts.errors }),
    ...opts.extra,
  };
}

export function problem(
  c: Context<AppEnv>,
  status: ContentfulStatusCode,
  detail: string,
  opts: { errors?: FieldError[]; extra?: Record<string, unknown>; headers?: Record<string, string> } = {},
): Response {
  // a request outside /api (a path that normalised away from it) met no middleware: it gets an id here
  const body = problemBody(status, detail, { ...opts, requestId: c.get('requestId') ?? randomUUID() });
  const headers: Record<string, string> = { 'content-type': 'application/problem+json', ...opts.headers };
  if (status === 401) headers['www-authenticate'] = 'Token';
  return c.body(JSON.stringify(body), status, headers);
}

export const zodIssues = (err: ZodError): FieldError[] =>
  err.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));

export function zodProblem(c: Context<AppEnv>, err: ZodError): Response {
  const errors = zodIssues(err);
  const detail = errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join('; ');
  return problem(c, 400, detail || 'Invalid request', { errors });
}

/** The single place where a thrown error becomes a response; nothing internal leaks past it. */
export function errorToResponse(err: unknown, c: Context<AppEnv>): Response {
  if (err instanceof AppError) {
    const status = STATUS[err.code];
    const retryAfter = status === 503 ? RETRY_AFTER_SECONDS : err instanceof RateLimited ? String(err.retryAfterSeconds) : undefined;
    return problem(c, status, err.message, {
      errors: err.errors,
      extra: err.extra,
      ...(retryAfter && { headers: { 'retry-after': retryAfter } }),
    });
  }
  if (err instanceof ZodError) return zodProblem(c, err);
  if (err instanceof HTTPException && err.status < 500) {
    return problem(c, err.status as ContentfulStatusCode, err.message || TITLES[err.status] || 'Error');
  }
  const logger = c.get('deps').logger;
  const requestId = c.get('requestId');
  if (isDatabaseUnavailable(err)) {
    databaseBreaker(c.get('deps').db, logger).trip();
    logger.error({ err, request_id: requestId }, 'database unavailable');
    return problem(c, 503, 'The database is not answering (it may be restarting); nothing was changed. Try again in a few seconds.', {
      headers: { 'retry-after': DATABASE_RETRY_AFTER_SECONDS },
    });
  }
  if (isDataException(err)) {
    // a route's own checks should have caught it: logged, so the check can be added
    logger.warn({ err, request_id: requestId }, 'a value reached the database that it refuses');
    return problem(c, 400, 'A value in the request cannot be stored or compared (for example a NUL character, or a number out of range).');
  }
  if (isUniqueViolation(err)) {
    logger.warn({ err, request_id: requestId }, 'unique violation not handled by its route');
    return problem(c, 409, 'This conflicts with something that already exists (perhaps created by a request at the same moment).');
  }
  logger.error({ err, request_id: requestId }, 'unhandled error');
  return problem(c, 500, 'An unexpected error occurred. Quote the request id when reporting it.');
}
