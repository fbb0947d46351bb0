import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

/**
 * esbuild's options for a server bundle (scripts/build-server.mjs, and bench/measures.ts's variants of it): ES
 * modules for Node 20, packages left in node_modules, so a bundle resolves them from the node_modules above it.
 */
export const serverBuildOptions = (entryPoints, outdir) => ({
  entryPoints,
  outdir,
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
