#!/usr/bin/env node
// Bundles server/main.ts (the production server: the API's Hono app and the Next.js handler behind one Node server)
// into .next/server.mjs, and server/api.ts (the API and jobs alone) into .next/api-server.mjs; packages stay in
// node_modules. `node scripts/build-server.mjs <dir>` bundles server/api.ts alone into <dir>/api-server.mjs: the
// process the tests kill and start again (tests/support/global-setup.ts), which must be inside the repository so that
// its packages resolve from node_modules.
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const outdir = process.argv[2];
// the whole service, and the API and jobs without the portal (npm run start:api)
const entryPoints = {
  ...(!outdir && { server: path.join(root, 'server', 'main.ts') }),
  'api-server': path.join(root, 'server', 'api.ts'),
};
await build({
  entryPoints,
  outdir: outdir ? path.resolve(outdir) : path.join(root, '.next'),
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  tsconfig: path.join(root, 'tsconfig.json'),
  sourcemap: true,
  logLevel: 'warning',
});
console.log(outdir ? `built ${path.join(outdir, 'api-server.mjs')}` : 'built .next/server.mjs and .next/api-server.mjs');
