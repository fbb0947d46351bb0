import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressStatic } from '../scripts/compress-static.mjs';
import { withStaticAssets } from '../server/static-assets';

/**
 * The portal's built files as the production server sends them (server/static-assets.ts): compressed by the build
 * (scripts/compress-static.mjs) and sent as the browser accepts them, anything else left to Next.js.
 */

const SCRIPT = `//# allFunctionsCalledOnLoad\n${'export const rows = [1, 2, 3].map((n) => n * 2);\n'.repeat(200)}`;
let root: string;
let server: Server;
let port: number;
const toPages: string[] = [];

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'rmb-static-'));
  const chunks = path.join(root, '.next', 'static', 'chunks');
  mkdirSync(chunks, { recursive: true });
  writeFileSync(path.join(chunks, 'page.js'), SCRIPT);
  writeFileSync(path.join(chunks, 'tiny.js'), 'export {};\n');
  // a second build finds the first one's compressed copies and writes them again
  compressStatic(path.join(root, '.next', 'static'));
  const made = compressStatic(path.join(root, '.next', 'static'));
  expect(made.written).toBe(1);
  expect(made.after).toBeLessThan(made.before / 10);
  const pages = withStaticAssets(root, async (req, res) => {
    toPages.push(req.url ?? '');
    res.writeHead(404, { 'content-type': 'text/plain' }).end('from the pages');
  });
  server = createServer((req, res) => void pages(req, res));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => {
  server?.close();
  rmSync(root, { recursive: true, force: true });
});

/** A GET with the given Accept-Encoding, its body as sent (node:http decompresses nothing). */
function get(url: string, acceptEncoding?: string) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((done, fail) => {
    const req = request(
      { port, host: '127.0.0.1', path: url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (p: Buffer) => parts.push(p));
        res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }));
      },
    );
    req.on('error', fail);
    req.end();
  });
}

describe('the portal’s built files', () => {
  it('are sent as brotli to a browser that takes it, cached for good, with their type', async () => {
    const res = await get('/_next/static/chunks/page.js', 'gzip, deflate, br, zstd');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(res.headers['cache-control']).toBe('public,max-age=31536000,immutable');
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(brotliDecompressSync(res.body).toString()).toBe(SCRIPT);
  });

  it('are sent as gzip, or as they are, to a client that takes nothing better', async () => {
    const gzip = await get('/_next/static/chunks/page.js', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).toString()).toBe(SCRIPT);
    const plain = await get('/_next/static/chunks/page.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(SCRIPT);
    // too small to be worth compressing: as it is, whatever the client takes
    const tiny = await get('/_next/static/chunks/tiny.js', 'br');
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.body.toString()).toBe('export {};\n');
  });

  it('answer a revalidation with 304 when unchanged', async () => {
    const first = await get('/_next/static/chunks/page.js', 'br');
    const etag = String(first.headers.etag);
    const again = await new Promise<number>((done) => {
      request(
        { port, host: '127.0.0.1', path: '/_next/static/chunks/page.js', headers: { 'accept-encoding': 'br', 'if-none-match': etag } },
        (res) => {
          res.resume();
          done(res.statusCode ?? 0);
        },
      ).end();
    });
    expect(again).toBe(304);
  });

  it('leave a file the build did not make, and every other path, to the pages with their own URL', async () => {
    toPages.length = 0;
    const missing = await get('/_next/static/chunks/gone.js', 'br');
    expect(missing.status).toBe(404);
    expect(missing.body.toString()).toBe('from the pages');
    const outside = await get('/_next/static/../../package.json', 'br');
    expect(outside.body.toString()).toBe('from the pages');
    const page = await get('/profiles?offset=50');
    expect(page.body.toString()).toBe('from the pages');
    expect(toPages).toEqual(['/_next/static/chunks/gone.js', '/_next/static/../../package.json', '/profiles?offset=50']);
  });

  it('are left to the pages when the build did not compress them', async () => {
    const bare = mkdtempSync(path.join(tmpdir(), 'rmb-static-bare-'));
    mkdirSync(path.join(bare, '.next', 'static', 'chunks'), { recursive: true });
    writeFileSync(path.join(bare, '.next', 'static', 'chunks', 'page.js'), SCRIPT);
    const pages = async () => {};
    expect(withStaticAssets(bare, pages)).toBe(pages);
    rmSync(bare, { recursive: true, force: true });
  });
});
