#!/usr/bin/env node
// After `next build`: marks the portal's scripts with V8's explicit compile hint, so that Chromium compiles their
// functions while it streams them in, off the page's main thread, rather than one by one on the main thread as each is
// first called during hydration. A portal script runs as soon as it arrives (the pages' and the framework's at load,
// the few loaded later when the person asks for what they hold), so compiling all of it up front is what the hint is
// for. Other browsers read the line as a comment. The gain is in docs/benchmarks.md ("Why the special measures are
// there").
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The first line of every portal script once marked (e2e/platform.spec.ts checks the served scripts carry it). */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';

function markScripts() {
  const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
  const chunks = path.join(root, '.next', 'static', 'chunks');
  const scripts = readdirSync(chunks, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js'));
  let marked = 0;
  for (const file of scripts) {
    const at = path.join(chunks, file);
    const text = readFileSync(at, 'utf8');
    // V8 reads the hint only at the very start of the script; a second run must not add it twice
    if (text.startsWith(COMPILE_HINT)) continue;
    writeFileSync(at, COMPILE_HINT + text);
    marked++;
  }
  console.log(`compile hints: ${marked} of ${scripts.length} portal scripts marked`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) markScripts();
