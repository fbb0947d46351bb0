#!/usr/bin/env node
// The layers (docs/architecture.md): dependency-cruiser checks each import against .dependency-cruiser.cjs; this
// adds what it cannot say, that no two folders of lib/ import each other, directly or round a longer loop, whichever
// of their modules the imports join (a contract as well as the rest). Exits 1 naming each loop of folders.
// Usage: node scripts/check-layers.mjs [tree]: the tree is the repository, or a fixture laid out like it
// (tests/layers.test.ts checks that a wrong import fails).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const repository = path.resolve(import.meta.dirname, '..');
const tree = path.resolve(process.argv[2] ?? repository);
const config = path.join(repository, '.dependency-cruiser.cjs');
const roots = ['lib', 'db', 'app', 'components', 'server'].filter((d) => existsSync(path.join(tree, d)));
const cruise = path.join(repository, 'node_modules', '.bin', 'depcruise');
const run = (output) =>
  execFileSync(cruise, [...roots, '--config', config, '--output-type', output], {
    cwd: tree,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'inherit'],
  });

let json;
try {
  json = run('json');
} catch (err) {
  // a forbidden import: dependency-cruiser's own report says which
  process.stderr.write(err.stdout ?? '');
  try {
    run('err');
  } catch (report) {
    process.stderr.write(report.stdout ?? '');
  }
  process.exit(err.status || 1);
}
const result = JSON.parse(json);
if (result.summary.error > 0) {
  try {
    run('err');
  } catch (report) {
    process.stderr.write(report.stdout ?? '');
  }
  process.exit(1);
}

// folder of a module: lib/<domain> (lib's own top-level files are one folder each)
const folderOf = (path) => {
  const m = /^lib\/([^/]+)(\/|$)/.exec(path);
  return m ? `lib/${m[1]}` : null;
};
const edges = new Map();
const why = new Map();
for (const mod of result.modules) {
  const from = folderOf(mod.source);
  if (!from) continue;
  for (const dep of mod.dependencies) {
    const to = folderOf(dep.resolved);
    // contracts included: a contract that imports its importer's folder ties the two folders as much as any module
    if (!to || to === from) continue;
    if (!edges.has(from)) edges.set(from, new Set());
    edges.get(from).add(to);
    if (!why.has(`${from}>${to}`)) why.set(`${from}>${to}`, `${mod.source} → ${dep.resolved}`);
  }
}

// strongly connected components (Tarjan): a component of more than one folder is a loop
let index = 0;
const stack = [];
const state = new Map();
const loops = [];
function visit(v) {
  state.set(v, { index, low: index, onStack: true });
  index += 1;
  stack.push(v);
  for (const w of edges.get(v) ?? []) {
    if (!state.has(w)) {
      visit(w);
      state.get(v).low = Math.min(state.get(v).low, state.get(w).low);
    } else if (state.get(w).onStack) {
      state.get(v).low = Math.min(state.get(v).low, state.get(w).index);
    }
  }
  if (state.get(v).low === state.get(v).index) {
    const component = [];
    let w;
    do {
      w = stack.pop();
      state.get(w).onStack = false;
      component.push(w);
    } while (w !== v);
    if (component.length > 1) loops.push(component.sort());
  }
}
for (const v of edges.keys()) if (!state.has(v)) visit(v);

if (loops.length) {
  console.error('Folders of lib/ that import each other (a domain may depend on another, not both ways):');
  for (const loop of loops) {
    console.error(`  ${loop.join(' ⇄ ')}`);
    for (const a of loop) for (const b of loop) if (why.has(`${a}>${b}`)) console.error(`    ${why.get(`${a}>${b}`)}`);
  }
  process.exit(1);
}
console.log(`layers: ${result.summary.totalCruised} modules, no forbidden import, no loop between the folders of lib/`);
