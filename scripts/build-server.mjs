#!/usr/bin/env node
// Bundles server/main.ts (the production server: the API's Hono app and the Next.js handler behind one Node server)
// into .next/server.mjs, and server/api.ts (the API and jobs alone) into .next/api-server.mjs; packages stay in
// node_modules.
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
await build({
  // the whole service, and the API and jobs without the portal (npm run start:api)
  entryPoints: { server: path.join(root, 'server', 'main.ts'), 'api-server': path.join(root, 'server', 'api.ts') },
  outdir: path.join(root, '.next'),
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
console.log('built .next/server.mjs and .next/api-server.mjs');
