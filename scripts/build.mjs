#!/usr/bin/env node
// `npm run build`, and `npm start` on a fresh clone (scripts/start.mjs): the one list of the build's steps, so that
// the two cannot drift apart. Next.js builds the portal, scripts/build-server.mjs bundles the service's own server
// around it, scripts/compile-hints.mjs marks the portal's scripts and scripts/compress-static.mjs compresses them
// ahead of time (see docs/benchmarks.md).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const next = path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next');
const script = (name) => path.join(root, 'scripts', name);

/** The steps of a whole build, in order; the API alone needs only its server bundle. */
export const buildSteps = ({ apiOnly = false } = {}) =>
  apiOnly
    ? [[script('build-server.mjs')]]
    : [[next, 'build'], [script('build-server.mjs')], [script('compile-hints.mjs')], [script('compress-static.mjs')]];

/** Runs the steps one after the other; answers the exit status of the first that failed, else 0. */
export function build(options) {
  for (const step of buildSteps(options)) {
    const run = spawnSync(process.execPath, step, { cwd: root, stdio: 'inherit', env: { NEXT_TELEMETRY_DISABLED: '1', ...process.env } });
    if (run.status !== 0) return run.status ?? 1;
  }
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) process.exit(build());
