#!/usr/bin/env node
// `npm start`: builds when there is no build (or the sources are newer than it), then serves on $PORT.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { build } from './build.mjs';
import { SERVICE_ENV, SERVICE_NODE_FLAGS } from './node-flags.mjs';

process.env.NEXT_TELEMETRY_DISABLED = '1';
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const buildId = path.join(root, '.next', 'BUILD_ID');
const server = path.join(root, '.next', 'server.mjs');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(p));
    else newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

const sources = ['app', 'components', 'lib', 'db', 'server', 'next.config.js', 'package.json', 'instrumentation.ts']
  .map((p) => path.join(root, p))
  .filter(existsSync);
const sourceTime = Math.max(...sources.map((p) => (statSync(p).isDirectory() ? newestMtime(p) : statSync(p).mtimeMs)));

const apiOnly = process.argv.includes('--api-only');
const args = process.argv.slice(2).filter((a) => a !== '--api-only');
const built = (file) => existsSync(file) && statSync(file).mtimeMs >= sourceTime;
// the API alone is bundled afresh each time (it is quick); the whole service when its build is missing or older
const whole = !apiOnly && (!built(buildId) || !built(server));
if (whole) console.log(existsSync(buildId) ? 'Sources changed since the last build: building…' : 'No build yet: building…');
if (apiOnly || whole) {
  const status = build({ apiOnly });
  if (status !== 0) process.exit(status);
}

// the service's own server: the API straight to its Hono app, pages to Next.js (server/main.ts); or the API alone
const entry = apiOnly ? path.join(root, '.next', 'api-server.mjs') : server;
const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, entry, ...args], {
  cwd: root,
  stdio: 'inherit',
  env: { ...SERVICE_ENV, ...process.env, NODE_ENV: 'production' },
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 0)));
