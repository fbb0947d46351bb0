import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The docs that say what the code is stay true: docs/architecture.md's layer map is the one scripts/layer-map.mjs
 * prints from scripts/layers.cjs (the lists the layer lint checks), every folder and top-level file of lib/ is in
 * one of those lists, and the README's links into docs/ lead somewhere.
 */

const root = path.resolve(import.meta.dirname, '..');
type Layer = Record<string, string>;
const layers = createRequire(import.meta.url)(path.join(root, 'scripts', 'layers.cjs')) as Record<
  'domains' | 'base' | 'faces' | 'composition',
  Layer
>;

const START = '<!-- layer-map:start -->';
const END = '<!-- layer-map:end -->';

describe('docs/architecture.md', () => {
  it('has the layer map printed from the lint’s lists (node scripts/layer-map.mjs --write)', () => {
    const printed = execFileSync(process.execPath, [path.join(root, 'scripts', 'layer-map.mjs')], { encoding: 'utf8' }).trim();
    const doc = readFileSync(path.join(root, 'docs', 'architecture.md'), 'utf8');
    const start = doc.indexOf(START);
    const end = doc.indexOf(END);
    expect(start, 'docs/architecture.md has the layer-map markers').toBeGreaterThanOrEqual(0);
    expect(end).toBeGreaterThan(start);
    expect(doc.slice(start, end + END.length)).toBe(printed);
  });

  it('places every folder and top-level file of lib/ in exactly one layer, and lists nothing that is not there', () => {
    const entries = readdirSync(path.join(root, 'lib'), { withFileTypes: true })
      .filter((e) => !e.name.startsWith('.') && !e.name.endsWith('.test.ts'))
      .map((e) => e.name)
      .sort();
    const listed = Object.values(layers).flatMap((layer) => Object.keys(layer));
    const unplaced = entries.filter((name) => !listed.includes(name));
    expect(unplaced, 'add each to a list of scripts/layers.cjs, then run node scripts/layer-map.mjs --write').toEqual([]);
    expect(
      listed.filter((name, i) => listed.indexOf(name) !== i),
      'in two lists',
    ).toEqual([]);
    expect(listed.filter((name) => !entries.includes(name)).sort(), 'listed but not in lib/').toEqual([]);
  });
});

describe('README.md', () => {
  it('links only to files that exist', () => {
    const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
    const linked = [...readme.matchAll(/\b((?:docs\/[\w.-]+\.md)|(?:[A-Z]+\.md))\b/g)].map((m) => m[1] as string);
    expect(linked.length).toBeGreaterThan(0);
    expect(linked.filter((file) => !existsSync(path.join(root, file)))).toEqual([]);
  });
});
