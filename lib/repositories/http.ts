import type { Logger } from 'pino';
import { metrics } from '@/lib/metrics/registry';
import { trimEndOf } from '@/lib/values/text';
import { RepositoryError, RepositoryHttpError, type RepositoryService, RepositoryUnavailableError } from './errors';

/**
 * The HTTP plumbing every repository client shares: one timeout per attempt, retries with exponential backoff and
 * jitter on 5xx, 429 and network failures, one log line per request and per response. Credentials travel only in
 * headers, which are never logged; URLs are logged without user info or secret query values.
 */
export interface HttpOptions {
  logger: Logger;
  /** names the repository in log lines and errors */
  service?: RepositoryService;
  /** per attempt, including reading the body */
  timeoutMs?: number;
  /** further attempts after the first */
  retries?: number;
  /** the first backoff; each later one doubles, up to maxRetryDelayMs */
  retryDelayMs?: number;
  maxRetryDelayMs?: number;
  /** injectable for tests */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  fetch?: typeof fetch;
}

/** Just the plumbing settings of a client's options: credentials stay with the client that puts them in headers. */
export function plumbingOf(options: Omit<HttpOptions, 'service'>, service: RepositoryService): HttpOptions {
  const { logger, timeoutMs, retries, retryDelayMs, maxRetryDelayMs, sleep, random, fetch } = options;
  return { logger, service, timeoutMs, retries, retryDelayMs, maxRetryDelayMs, sleep, random, fetch };
}

export const HTTP_DEFAULTS = {
  timeoutMs: 30_000,
  retries: 3,
  retryDelayMs: 500,
  maxRetryDelayMs: 15_000,
} as const;

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A body, or a function making a fresh one per attempt (needed to retry a stream). */
export type BodySource = BodyInit | (() => BodyInit);

export interface HttpRequest {
  method: HttpMethod;
  url: string | URL;
  headers?: Record<string, string>;
  body?: BodySource;
  timeoutMs?: number;
  /**
   * Whether the request may be sent again after it may already have reached the server (a timeout or a reset
   * connection). Defaults to true for every method but POST. Refused connections and 5xx answers are retried
   * regardless, since the server did not act on them (5xx: by HTTP's contract).
   */
  idempotent?: boolean;
  /** non-2xx statuses handed back to the caller instead of thrown (404 for a look-up) */
  accept?: readonly number[];
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  headers: Headers;
  /** the whole body as text: repository answers are small JSON or XML documents */
  body: string;
  attempts: number;
}

const SECRET_PARAM = /token|key|secret|password|passwd|pwd|signature|credential|auth|session/i;

/** The URL as it may appear in logs and errors: no user info, secret query values replaced. */
export function redactUrl(input: string | URL): string {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return '[unparsable url]';
  }
  url.username = '';
  url.password = '';
  for (const name of [...url.searchParams.keys()]) {
    if (SECRET_PARAM.test(name)) url.searchParams.set(name, 'redacted');
  }
  return url.toString();
}

/** `Authorization: Basic …` for a user and password. */
export function basicAuth(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
}

/** `base` + path segments, keeping any path `base` already has (`…/api` + `deposit` → `…/api/deposit`). */
export function joinUrl(base: string, ...segments: string[]): string {
  const trimmed = trimEndOf(base, '/');
  const path = segments
    .map((s) => trimEndOf(s.replace(/^\/+/, ''), '/'))
    .filter(Boolean)
    .join('/');
  return path ? `${trimmed}/${path}` : trimmed;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// errors raised before a request reached the server: always safe to repeat
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

function errorCode(err: unknown): string | undefined {
  const seen = new Set<unknown>();
  let e: unknown = err;
  while (e && typeof e === 'object' && !seen.has(e)) {
    seen.add(e);
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

const isTimeout = (err: unknown): boolean =>
  err instanceof Error && (err.name === 'TimeoutError' || (err.name === 'AbortError' && /timeout/i.test(err.message)));

const isRetryableStatus = (status: number): boolean => status >= 500 || status === 429;

/** Seconds or an HTTP date, as Retry-After allows; undefined when absent or unreadable. */
function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const value = headers.get('retry-after');
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function backoff(
  opts: Required<Pick<HttpOptions, 'retryDelayMs' | 'maxRetryDelayMs' | 'random'>>,
  attempt: number,
  floor?: number,
): number {
  const exp = Math.min(opts.maxRetryDelayMs, opts.retryDelayMs * 2 ** (attempt - 1));
  // "equal jitter": at least half the exponential delay, so retries of many jobs spread out without collapsing to 0
  const jittered = exp / 2 + opts.random() * (exp / 2);
  return Math.min(opts.maxRetryDelayMs, Math.max(jittered, floor ?? 0));
}

const isStream = (body: unknown): boolean => typeof ReadableStream !== 'undefined' && body instanceof ReadableStream;

/**
 * Sends one request, retrying as `HttpOptions` says. Returns 2xx answers and the `accept`ed statuses; throws
 * RepositoryHttpError for any other status and RepositoryUnavailableError when no attempt got an answer.
 * Aborting `request.signal` stops at once with the abort reason.
 */
export async function httpRequest(options: HttpOptions, request: HttpRequest): Promise<HttpResponse> {
  const service = options.service ?? 'repository';
  const fetchImpl = options.fetch ?? fetch;
  const sleep = options.sleep ?? defaultSleep;
  const timing = {
    retryDelayMs: options.retryDelayMs ?? HTTP_DEFAULTS.retryDelayMs,
    maxRetryDelayMs: options.maxRetryDelayMs ?? HTTP_DEFAULTS.maxRetryDelayMs,
    random: options.random ?? Math.random,
  };
  const timeoutMs = request.timeoutMs ?? options.timeoutMs ?? HTTP_DEFAULTS.timeoutMs;
  const maxAttempts = 1 + Math.max(0, options.retries ?? HTTP_DEFAULTS.retries);
  const idempotent = request.idempotent ?? request.method !== 'POST';
  const url = String(request.url);
  const logUrl = redactUrl(url);
  // a programming error, not an outage: fail at once, without echoing the URL's secrets
  let parsedUrl: URL;
  try {
    parsedUrl = new URL(url);
  } catch {
    throw new RepositoryError(service, `not a URL: ${logUrl}`);
  }
  if (parsedUrl.username || parsedUrl.password)
    throw new RepositoryError(service, `credentials belong in headers, not in the URL ${logUrl}`);
  const log = options.logger.child({ service });
  const calls = metrics().repositoryCalls;
  // a stream handed over directly can be read once only
  const replayable = !isStream(request.body);

  for (let attempt = 1; ; attempt++) {
    const started = performance.now();
    const fields = { method: request.method, url: logUrl, attempt };
    log.debug(fields, 'repository request');
    const signals = [AbortSignal.timeout(timeoutMs)];
    if (request.signal) signals.push(request.signal);
    const body = typeof request.body === 'function' ? request.body() : request.body;
    const init: RequestInit & { duplex?: 'half' } = {
      method: request.method,
      headers: request.headers,
      body,
      signal: AbortSignal.any(signals),
    };
    if (isStream(body)) init.duplex = 'half';

    let status: number;
    let headers: Headers;
    let text: string;
    try {
      const res = await fetchImpl(url, init);
      status = res.status;
      headers = res.headers;
      text = await res.text();
    } catch (err) {
      if (request.signal?.aborted) throw request.signal.reason ?? err;
      const durationMs = Math.round(performance.now() - started);
      const timedOut = isTimeout(err);
      const code = errorCode(err);
      const notSent = code !== undefined && NOT_SENT_CODES.has(code);
      const canRetry = attempt < maxAttempts && replayable && (idempotent || notSent);
      // an attempt that will be made again is the normal life of a remote service: a warning once it is the last
      log[canRetry ? 'debug' : 'warn'](
        { ...fields, durationMs, timedOut, code, error: err instanceof Error ? err.message : String(err), willRetry: canRetry },
        'repository request failed',
      );
      if (!canRetry) {
        calls.inc({ service, outcome: 'unavailable' });
        throw new RepositoryUnavailableError(service, request.method, logUrl, attempt, timedOut, err);
      }
      await sleep(backoff(timing, attempt));
      continue;
    }

    const durationMs = Math.round(performance.now() - started);
    const ok = (status >= 200 && status < 300) || (request.accept?.includes(status) ?? false);
    const canRetry = !ok && isRetryableStatus(status) && attempt < maxAttempts && replayable;
    log[ok ? 'info' : 'warn']({ ...fields, status, durationMs, ...(canRetry ? { willRetry: true } : {}) }, 'repository response');
    if (ok) {
      calls.inc({ service, outcome: 'ok' });
      return { status, headers, body: text, attempts: attempt };
    }
    if (!canRetry) {
      calls.inc({ service, outcome: isRetryableStatus(status) ? 'unavailable' : 'refused' });
      throw new RepositoryHttpError(service, request.method, logUrl, status, text);
    }
    await sleep(backoff(timing, attempt, retryAfterMs(headers)));
  }
}
