import { rmSync } from 'node:fs';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CLIENT_ADDRESS_HEADER } from '@/lib/auth/client-address';
import { LIMITS } from '@/lib/auth/limits';
import { freshTestDatabase } from './support/harness';
import { type ServiceProcess, serviceDataDir, startService } from './support/service-process';

/**
 * What reaches the service's own HTTP server (server/http.ts) before any route: malformed percent-encoding, NUL
 * bytes, over-long URLs and headers, and bytes that are not HTTP at all. Each gets the JSON error shape with a
 * request id that the log line carries too, never a bare 500 or Node's empty 431. Sent over a raw socket, so that no
 * client library tidies the request first.
 */

let svc: ServiceProcess;
const ADMIN = { username: 'http-admin', password: 'http-admin-passphrase' };
let dataDir: string;
let dropDatabase: () => Promise<void>;

beforeAll(async () => {
  const db = await freshTestDatabase();
  // on PGlite a copy of the suite's migrated database, as the crash tests start from: not initdb and every migration
  dataDir = await serviceDataDir('rmb-http-', db.url ? undefined : inject('pgliteTemplate'));
  dropDatabase = db.drop;
  svc = await startService({
    DATA_DIR: dataDir,
    ...(db.url && { DATABASE_URL: db.url }),
    NEXTAUTH_SECRET: 'http-test-secret',
    // behind a proxy, so that the test can speak from several addresses
    TRUST_PROXY: 'true',
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
  });
}, 120_000);
afterAll(async () => {
  await svc?.stop();
  await dropDatabase?.();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Sends raw bytes and reads the whole answer (the server closes or the answer is complete). */
function raw(request: string): Promise<{ status: number; head: string; headers: Record<string, string>; body: string }> {
  const { port } = new URL(svc.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    const chunks: Buffer[] = [];
    const done = () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      let body = rest.join('\r\n\r\n');
      if (headers['transfer-encoding'] === 'chunked')
        body = body
          .replace(/^[0-9a-f]+\r\n/i, '')
          .replace(/\r\n0\r\n\r\n$/, '')
          .replace(/\r\n[0-9a-f]+\r\n/gi, '');
      resolve({ status: Number(statusLine.split(' ')[1]), head, headers, body });
    };
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      const text = Buffer.concat(chunks).toString('utf8');
      const length = /content-length:\s*(\d+)/i.exec(text)?.[1];
      const headEnd = text.indexOf('\r\n\r\n');
      if (length && headEnd >= 0 && Buffer.byteLength(text.slice(headEnd + 4)) >= Number(length)) socket.end();
    });
    socket.on('end', done);
    socket.on('close', done);
    socket.on('error', reject);
    socket.write(request);
  });
}

const get = (target: string, extra = '') => raw(`GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n${extra}\r\n`);

async function expectProblem(res: Awaited<ReturnType<typeof raw>>, status: number, detail: RegExp) {
  expect(res.status, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  const body = JSON.parse(res.body) as { status: number; detail: string; request_id: string };
  expect(body.status).toBe(status);
  expect(body.detail).toMatch(detail);
  expect(body.request_id).toMatch(/^[0-9a-f-]{36}$/);
  expect(res.headers['x-request-id']).toBe(body.request_id);
  // the log has the same id
  await svc.waitForLine(new RegExp(body.request_id), 5_000);
}

describe('the service’s HTTP server', () => {
  it('answers malformed percent-encoding in a path with 400 in the JSON error shape', async () => {
    await expectProblem(await get('/api/sample/svc_id/%C0%AF'), 400, /malformed percent-encoding/);
    await expectProblem(await get('/api/manifest/%E0%A4%A'), 400, /malformed percent-encoding/);
  });

  it('answers a NUL byte in a query parameter with 400', async () => {
    await expectProblem(await get('/api/manifest/validations?profile_id=%00'), 400, /NUL character/);
  });

  it('answers a 9,000-character URL with 414 and 70 kB of headers with 431, both in the JSON error shape', async () => {
    await expectProblem(await get(`/api/sample/svc_id/${'a'.repeat(9_000)}`), 414, /longer than 8192 characters/);
    await expectProblem(await get('/api/health', `X-Padding: ${'p'.repeat(70 * 1024)}\r\n`), 431, /larger than 65536 bytes/);
  });

  it('names every answer by its request id, the one the client sent when it is well formed, once, beside its own headers', async () => {
    const made = await get('/api/manifest/current_version');
    expect(made.status).toBe(200);
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(made.headers['content-type']).toMatch(/^application\/json/);
    expect(Number(made.headers['content-length'])).toBe(Buffer.byteLength(made.body));
    await svc.waitForLine(new RegExp(made.headers['x-request-id'] as string), 5_000);
    const given = await get('/api/manifest/current_version', 'X-Request-Id: pipeline-run-7.batch:2\r\n');
    expect(given.headers['x-request-id']).toBe('pipeline-run-7.batch:2');
    expect(given.head.match(/^x-request-id:/gim)).toHaveLength(1);
    // a problem answer too, with the id in its body
    const refused = await get('/api/sample/svc_id/not-an-id', 'X-Request-Id: pipeline-run-7.batch:3\r\n');
    expect(refused.status).toBe(400);
    expect(refused.headers['x-request-id']).toBe('pipeline-run-7.batch:3');
    expect(refused.head.match(/^x-request-id:/gim)).toHaveLength(1);
    expect((JSON.parse(refused.body) as { request_id: string }).request_id).toBe('pipeline-run-7.batch:3');
  });

  it('answers bytes that are not HTTP with 400, and keeps serving', async () => {
    const res = await raw('HELLO THERE\r\n\r\n');
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ status: 400, detail: 'The request could not be parsed as HTTP.' });
    expect((await get('/api/health')).status).toBe(200);
  });

  it('answers a uuid-shaped id of 36 dashes with 404, not a database error', async () => {
    const res = await get('/api/submissions/------------------------------------');
    expect([401, 404]).toContain(res.status);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  });

  it('counts failed sign-ins by the address each POST comes from, which the client cannot choose', async () => {
    const signIn = (from: string, username: string, password: string, spoofed?: string) =>
      fetch(`${svc.url}/api/apiKey`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-forwarded-for': from,
          ...(spoofed && { [CLIENT_ADDRESS_HEADER]: spoofed }),
        },
        body: JSON.stringify({ username, password }),
      });
    // 30 wrong passwords over made-up names from one address, each claiming to be somewhere else, sent at once (each
    // a scrypt hash, computed four at a time on node's thread pool)
    const failed = await Promise.all(
      Array.from({ length: LIMITS.clientPasswordFailures.points }, (_, i) => signIn('10.7.0.1', `nobody-${i}`, 'wrong', `10.7.9.${i}`)),
    );
    expect(failed.map((r) => r.status)).toEqual(failed.map(() => 401));
    const blocked = await signIn('10.7.0.1', ADMIN.username, ADMIN.password, '10.7.0.2');
    expect(blocked.status).toBe(429);
    // the person, from their own address, is not blocked by it
    expect((await signIn('10.7.0.2', ADMIN.username, ADMIN.password)).status).toBe(200);
    // 32 scrypt hashes at OWASP's cost (lib/users/passwords.ts)
  }, 120_000);
});
