import { existsSync, readdirSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import sirv from 'sirv';

type Handler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

const PREFIX = '/_next/static/';
const YEAR = 365 * 24 * 60 * 60;

/**
 * The portal's built files (`/_next/static/…`: scripts named by their content, so cached for good) sent as the build
 * compressed them (scripts/compress-static.mjs): brotli where the browser takes it, else gzip, each read from disk
 * as it is, where Next.js would gzip every answer again. Anything else, and a file the build did not make, goes to
 * `pages`, which answers it as before; so does every file of a build whose files were not compressed (`next build`
 * run alone), which sirv would send uncompressed.
 */
export function withStaticAssets(root: string, pages: Handler): Handler {
  const dir = path.join(root, '.next', 'static');
  if (!existsSync(dir) || !readdirSync(dir, { recursive: true, encoding: 'utf8' }).some((f) => f.endsWith('.br'))) return pages;
  const assets = sirv(dir, {
    brotli: true,
    gzip: true,
    etag: true,
    maxAge: YEAR,
    immutable: true,
    setHeaders: (res) => res.setHeader('X-Content-Type-Options', 'nosniff'),
  });
  return (req, res) => {
    const url = req.url ?? '/';
    if (!url.startsWith(PREFIX)) return pages(req, res);
    req.url = url.slice(PREFIX.length - 1);
    assets(req, res, () => {
      req.url = url;
      void pages(req, res);
    });
  };
}
