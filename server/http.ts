import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { problemBody } from '@/lib/api/errors';
import { CLIENT_ADDRESS_HEADER } from '@/lib/auth/client-address';
import type { Runtime } from '@/lib/server/runtime';

/**
 * The service's Node HTTP server, shared by `npm start` (API and portal) and `npm run start:api` (API and jobs
 * only). `/api` requests go straight to the Hono app, so the API's own code is the first to see every request
 * (malformed paths, oversized URLs and all); anything else goes to `pages` when there is one.
 */

// URLs and headers up to this size reach our code, which answers over-long ones with 414 in the JSON error shape
const MAX_HEADER_BYTES = 64 * 1024;

const isApi = (url: string) => /^\/api(\/|$|\?)/.test(url) && !/^\/api\/auth(\/|$|\?)/.test(url);

/** The connection's address, or behind a trusted proxy the last address its X-Forwarded-For names. */
function clientAddressOf(req: IncomingMessage, trustProxy: boolean): string {
  const forwarded = req.headers['x-forwarded-for'];
  if (trustProxy && forwarded) {
    const hops = (Array.isArray(forwarded) ? forwarded.join(',') : forwarded)
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const last = hops.at(-1);
    if (last !== undefined) return last;
  }
  return req.socket.remoteAddress ?? 'unknown';
}

/**
 * Puts the caller's address under CLIENT_ADDRESS_HEADER in both places a request's headers are read from: the parsed
 * object and the raw list, which @hono/node-server reads instead for requests with a body. Whatever the client sent
 * under that name is dropped from both, so no one chooses the address their guesses are counted under.
 */
function stampClientAddress(req: IncomingMessage, address: string): void {
  const raw = req.rawHeaders;
  const kept: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] as string;
    if (name.toLowerCase() !== CLIENT_ADDRESS_HEADER) kept.push(name, raw[i + 1] as string);
  }
  kept.push(CLIENT_ADDRESS_HEADER, address);
  raw.splice(0, raw.length, ...kept);
  req.headers[CLIENT_ADDRESS_HEADER] = address;
}

const problemResponse = (status: number, detail: string, requestId: string) =>
  new Response(JSON.stringify(problemBody(status, detail, { requestId })), {
    status,
    headers: { 'content-type': 'application/problem+json', 'x-request-id': requestId },
  });

export function serveService(
  runtime: Runtime,
  opts: { port: number; pages?: (req: IncomingMessage, res: ServerResponse) => void | Promise<void> },
): void {
  const api = getRequestListener((request, env) => runtime.api.fetch(request, env), {
    errorHandler: (err) => {
      const requestId = randomUUID();
      runtime.logger.error({ err, request_id: requestId }, 'request failed before the API answered');
      return problemResponse(500, 'An unexpected error occurred. Quote the request id when reporting it.', requestId);
    },
  });
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, (req: IncomingMessage, res: ServerResponse) => {
    // the address rate limits count by, set here whatever the client sent under that name
    stampClientAddress(req, clientAddressOf(req, runtime.config.TRUST_PROXY));
    if (isApi(req.url ?? '/') || !opts.pages) void api(req, res);
    else void opts.pages(req, res);
  });
  // what Node refuses before any handler runs (headers over the limit, a request it cannot parse) still gets the
  // JSON error shape, with a request id in the log
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy();
    const requestId = randomUUID();
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    const detail =
      status === 431
        ? `The request's URL and headers are larger than ${MAX_HEADER_BYTES} bytes.`
        : 'The request could not be parsed as HTTP.';
    runtime.logger.warn({ err, request_id: requestId, status }, 'request refused by the HTTP parser');
    const body = JSON.stringify(problemBody(status, detail, { requestId }));
    socket.end(
      `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
        `content-type: application/problem+json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nx-request-id: ${requestId}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
  server.listen(opts.port, () => runtime.logger.info({ port: opts.port }, `listening on http://localhost:${opts.port}`));
  const stop = (signal: string) => {
    runtime.logger.info({ signal }, 'stopping');
    server.close();
    void runtime.jobs.stop().finally(() => runtime.database.close().finally(() => process.exit(0)));
  };
  // a library that drops a promise's failure (a driver while PostgreSQL restarts) must not end the service: the
  // failure is logged, with what it carries, and the requests and jobs it concerned have their own error paths
  process.on('unhandledRejection', (reason) => runtime.logger.error({ err: reason }, 'a promise failed with nothing to handle it'));
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}
