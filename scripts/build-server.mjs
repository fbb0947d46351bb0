#!/usr/bin/env node
// Bundles server/main.ts (the production server: the API's Hono app and the Next.js handler behind one Node server)
// into .next/server.mjs, and server/api.ts (the API and jobs alone) into .next/api-server.mjs; packages stay in
// node_modules. `node scripts/build-server.mjs <dir> [script.ts …]` bundles server/api.ts into <dir>/api-server.mjs,
// and each script given beside it as <dir>/<name>.mjs: the process the tests kill and start again and the one that
// makes their template database (tests/support/global-setup.ts), inside the repository so that their packages
// resolve from node_modules.
import path from 'node:path';
import { build } from 'esbuild';
import { serverBuildOptions } from './server-build-options.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const [outdir, ...scripts] = process.argv.slice(2);
// the whole service, and the API and jobs without the portal (npm run start:api)
const entryPoints = {
  ...(!outdir && { server: path.join(root, 'server', 'main.ts') }),
  'api-server': path.join(root, 'server', 'api.ts'),
  ...Object.fromEntries(scripts.map((file) => [path.basename(file, path.extname(file)), path.resolve(root, file)])),
};
await build(serverBuildOptions(entryPoints, outdir ? path.resolve(outdir) : path.join(root, '.next')));
console.log(outdir ? `built ${path.join(outdir, 'api-server.mjs')}` : 'built .next/server.mjs and .next/api-server.mjs');
