#!/usr/bin/env node
// `npm start`: builds when there is no build (or the sources are newer than it), then serves on $PORT.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

process.env.NEXT_TELEMETRY_DISABLED = '1';
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const next = path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next');
const buildId = path.join(root, '.next', 'BUILD_ID');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(p));
    else newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

const sources = ['app', 'components', 'lib', 'db', 'next.config.js', 'package.json', 'instrumentation.ts']
  .map((p) => path.join(root, p))
  .filter(existsSync);
const sourceTime = Math.max(...sources.map((p) => (statSync(p).isDirectory() ? newestMtime(p) : statSync(p).mtimeMs)));

if (!existsSync(buildId) || statSync(buildId).mtimeMs < sourceTime) {
  console.log(existsSync(buildId) ? 'Sources changed since the last build: building…' : 'No build yet: building…');
  const built = spawnSync(process.execPath, [next, 'build'], { cwd: root, stdio: 'inherit', env: process.env });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

const port = process.env.PORT ?? '3000';
const child = spawn(process.execPath, [next, 'start', '-p', port, ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 0)));
