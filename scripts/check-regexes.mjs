#!/usr/bin/env node
// Every regular expression written in the service's code runs in time linear in its input: recheck (a ReDoS checker)
// is asked about each literal, and one it finds a polynomial or exponential attack on fails the lint, naming it and
// the attack. A request's path, a header, a cell or a receipt could otherwise hold the process (issue 55: one sheet
// held the service for a minute). Patterns read from data are checked where they are read: the manifests'
// (tests/patterns-linear.test.ts) and the checklists', which RE2 runs (lib/checklists/patterns.ts).
// Usage: node scripts/check-regexes.mjs [folder ...] (default: the service's code)
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { check } from 'recheck';
import ts from 'typescript';

const repository = path.resolve(import.meta.dirname, '..');
const folders = process.argv.length > 2 ? process.argv.slice(2) : ['lib', 'db', 'app', 'components', 'server'];
const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', ...folders], {
  cwd: repository,
  encoding: 'utf8',
})
  .split('\n')
  .filter((f) => /\.(ts|tsx|mjs)$/.test(f) && !f.endsWith('.d.ts'));

const literals = [];
for (const file of files) {
  const source = ts.createSourceFile(file, readFileSync(path.join(repository, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const text = node.getText(source);
      const slash = text.lastIndexOf('/');
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      literals.push({ at: `${file}:${line + 1}`, text, pattern: text.slice(1, slash), flags: text.slice(slash + 1) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

// recheck's time limits (on the whole check and on each fuzzing step) make a verdict depend on how busy the machine
// is; with none, a fixed seed and its step limits, the verdict is the same on every run
const CHECK = { timeout: null, attackTimeout: null, incubationTimeout: null, seedingTimeout: null, randomSeed: 1 };

const unique = new Map();
for (const l of literals) unique.set(`/${l.pattern}/${l.flags}`, l);
const verdicts = await Promise.all([...unique.values()].map(async (l) => ({ l, result: await check(l.pattern, l.flags, CHECK) })));
const bad = verdicts.filter(({ result }) => result.status !== 'safe');
for (const { l, result } of bad) {
  const why =
    result.status === 'vulnerable'
      ? `${result.complexity.type} backtracking, e.g. on ${JSON.stringify(result.attack.string.slice(0, 60))}`
      : result.status;
  const places = literals.filter((x) => x.text === l.text).map((x) => x.at);
  process.stderr.write(`${places.join(', ')}: ${l.text} — ${why}\n`);
}
if (bad.length) {
  process.stderr.write(
    `${bad.length} regular expression(s) can take more than linear time; rewrite them so that each character is read one way.\n`,
  );
  process.exit(1);
}
process.stdout.write(`${unique.size} regular expressions, each linear in its input\n`);
