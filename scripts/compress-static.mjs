#!/usr/bin/env node
// After `next build` and scripts/compile-hints.mjs: writes each of the portal's static files that text compresses
// (scripts, stylesheets, source maps, SVG) beside itself as brotli at its highest quality (.br) and gzip at its
// highest level (.gz), which server/static-assets.ts sends as they are. Brotli's highest quality takes too long to
// run per request; ahead of time it costs the build a few seconds and a phone downloads less of every page's
// scripts than Next.js's own gzip sends (docs/benchmarks.md, "Why the special measures are there").
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = /\.(js|css|map|json|svg|txt)$/;
// below this, a compressed answer saves less than its headers cost
const MIN_BYTES = 1024;

export function compressStatic(dir) {
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' });
  // a file a previous build compressed may be gone or changed: its compressed copies go first
  for (const file of files) if (/\.(br|gz)$/.test(file)) rmSync(path.join(dir, file));
  let written = 0;
  let before = 0;
  let after = 0;
  for (const file of files) {
    if (!COMPRESSIBLE.test(file)) continue;
    const at = path.join(dir, file);
    const body = readFileSync(at);
    if (body.length < MIN_BYTES) continue;
    const br = brotliCompressSync(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    });
    writeFileSync(`${at}.br`, br);
    writeFileSync(`${at}.gz`, gzipSync(body, { level: constants.Z_BEST_COMPRESSION }));
    written++;
    before += body.length;
    after += br.length;
  }
  return { written, before, after };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
  const { written, before, after } = compressStatic(path.join(root, '.next', 'static'));
  console.log(`static files compressed: ${written}, ${Math.round(before / 1024)} KB as ${Math.round(after / 1024)} KB of brotli`);
}
