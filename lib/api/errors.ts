import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ZodError } from 'zod';
import { AppError, type ErrorCode, type FieldError } from '@/lib/errors';
import type { AppEnv } from './context';

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
};

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
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
  const body = problemBody(status, detail, { ...opts, requestId: c.get('requestId') });
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
    return problem(c, STATUS[err.code], err.message, { errors: err.errors, extra: err.extra });
  }
  if (err instanceof ZodError) return zodProblem(c, err);
  if (err instanceof HTTPException && err.status < 500) {
    return problem(c, err.status as ContentfulStatusCode, err.message || TITLES[err.status] || 'Error');
  }
  c.get('deps').logger.error({ err, request_id: c.get('requestId') }, 'unhandled error');
  return problem(c, 500, 'An unexpected error occurred. Quote the request id when reporting it.');
}
