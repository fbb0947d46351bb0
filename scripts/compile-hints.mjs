#!/usr/bin/env node
// After `next build`: marks the scripts every portal page loads and runs at once (Next.js's root main files: React
// DOM, the router, the bundler's runtime) with V8's explicit compile hint, so that Chromium compiles their functions
// while it streams them in, off the page's main thread, rather than one by one on the main thread as each is first
// called during hydration. Other browsers read the line as a comment. The gain, and why only these files, are in
// docs/benchmarks.md ("Why the special measures are there").
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const dist = path.join(root, '.next');
const { rootMainFiles } = JSON.parse(readFileSync(path.join(dist, 'build-manifest.json'), 'utf8'));
let marked = 0;
for (const file of rootMainFiles) {
  if (!file.endsWith('.js')) continue;
  const at = path.join(dist, file);
  const text = readFileSync(at, 'utf8');
  // V8 reads the hint only at the very start of the script; a second build step run must not add it twice
  if (text.startsWith(COMPILE_HINT)) continue;
  writeFileSync(at, COMPILE_HINT + text);
  marked++;
}
console.log(`compile hints: ${marked} of ${rootMainFiles.length} scripts every page loads marked`);
