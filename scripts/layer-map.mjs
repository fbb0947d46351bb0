#!/usr/bin/env node
// The layer map of docs/architecture.md, printed from scripts/layers.cjs: the lists the layer lint
// (.dependency-cruiser.cjs) checks, so the map cannot say other than what is checked.
// Usage: node scripts/layer-map.mjs          prints the section, markers included
//        node scripts/layer-map.mjs --write  puts it between the markers in docs/architecture.md
// tests/docs.test.ts fails when the docs' section differs from the printed one.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const START = '<!-- layer-map:start -->';
const END = '<!-- layer-map:end -->';
const repository = path.resolve(import.meta.dirname, '..');
const layers = createRequire(import.meta.url)('./layers.cjs');

const entries = (list) => Object.entries(list).map(([name, what]) => `- \`lib/${name}${name.endsWith('.ts') ? '' : '/'}\`: ${what}`);

const section = [
  START,
  '<!-- printed by `node scripts/layer-map.mjs --write` from scripts/layers.cjs; edit the lists there -->',
  '',
  'From the top; each layer imports only from the layers below it.',
  '',
  '**Composition** (may import anything): `server/` (the Node server), and',
  '',
  ...entries(layers.composition),
  '',
  '**Faces** (nothing of `lib/` or `db/` imports them): `app/` and `components/` (the portal), and',
  '',
  ...entries(layers.faces),
  '',
  '**Domains** (may import the base, and another domain but never both ways round):',
  '',
  ...entries(layers.domains),
  '',
  "**Base** (imports no domain, only a domain's contract):",
  '',
  ...entries(layers.base),
  '',
  '**Data**: `db/` (tables, migrations, the client); imports nothing of `lib/` but contracts.',
  '',
  '**Contracts**: `lib/<folder>/contract.ts` (zod schemas) and `lib/manifests/rules/catalogue.json`; import only zod,',
  'each other and the plain lists, patterns and labels beside them, which the portal imports without zod.',
  END,
].join('\n');

if (process.argv.includes('--write')) {
  const file = path.join(repository, 'docs', 'architecture.md');
  const text = readFileSync(file, 'utf8');
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${file} has no ${START} … ${END} section`);
  writeFileSync(file, text.slice(0, start) + section + text.slice(end + END.length));
} else {
  process.stdout.write(`${section}\n`);
}
