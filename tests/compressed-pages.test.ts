import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createBrotliDecompress } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { compressedPages } from '../server/compressed-pages';

/**
 * The portal's answers as the production server compresses them (server/compressed-pages.ts): brotli for a browser
 * that takes it, and a page streamed in parts still arrives a part at a time (a Suspense boundary's HTML is sent when
 * it is rendered, not when the page ends).
 */

const SHELL = `<!doctype html><main>${'<p>the page’s shell</p>'.repeat(100)}`;
const LATER = `${'<p>a part rendered later</p>'.repeat(100)}</main>`;
let server: Server;
let port: number;
let sendTheRest: () => void = () => {};

beforeAll(async () => {
  const pages = compressedPages((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.write(SHELL);
    // what Next.js does after each chunk it streams, when a compression middleware gave the answer a flush
    (res as typeof res & { flush?: () => void }).flush?.();
    sendTheRest = () => res.end(LATER);
  });
  server = createServer((req, res) => void pages(req, res));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => server?.close());

it('sends a page as brotli to a browser that takes it, its first part before the rest is rendered', async () => {
  const { encoding, parts } = await new Promise<{ encoding: string | undefined; parts: string[] }>((done, fail) => {
    request({ port, host: '127.0.0.1', path: '/', headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } }, (res) => {
      const parts: string[] = [];
      const text = res.pipe(createBrotliDecompress());
      text.on('data', (chunk: Buffer) => {
        parts.push(chunk.toString());
        // the shell has arrived whole while the rest is not yet written: only then is the rest rendered
        if (parts.join('') === SHELL) sendTheRest();
      });
      text.on('end', () => done({ encoding: res.headers['content-encoding'], parts }));
      text.on('error', fail);
    })
      .on('error', fail)
      .end();
  });
  expect(encoding).toBe('br');
  expect(parts.join('')).toBe(SHELL + LATER);
});
