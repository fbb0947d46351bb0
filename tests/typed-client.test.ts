import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The portal's client (lib/client/api.ts) is typed by the API's own document, so a wrong call does not compile:
 * tests/fixtures/typed-client/wrong-call.ts makes one of each kind (a path the API does not have, a parameter it does
 * not take, a field its answer does not hold), each on a line marked `wrong:`, and tsc must fail on exactly those
 * lines, while right-call.ts, the same calls made right, compiles.
 */

const FIXTURE = path.resolve('tests/fixtures/typed-client');

function compile(): Map<string, number[]> {
  const result = spawnSync(path.resolve('node_modules/.bin/tsc'), ['-p', path.join(FIXTURE, 'tsconfig.json')], { encoding: 'utf8' });
  const errors = new Map<string, number[]>();
  for (const m of result.stdout.matchAll(/^(.+?)\((\d+),\d+\): error TS\d+/gm)) {
    const file = path.relative(FIXTURE, path.resolve(m[1]!));
    errors.set(file, [...(errors.get(file) ?? []), Number(m[2])]);
  }
  if (result.status !== 0 && !errors.size) throw new Error(`tsc failed without a type error: ${result.stdout}${result.stderr}`);
  return errors;
}

const markedLines = (file: string) =>
  readFileSync(path.join(FIXTURE, file), 'utf8')
    .split('\n')
    .flatMap((line, i) => (/\/\/ wrong:/.test(line) ? [i + 1] : []));

describe('the typed client', () => {
  it('fails to compile a wrong path, a wrong parameter and a wrong use of the answer, and compiles them made right', () => {
    const errors = compile();
    expect(markedLines('wrong-call.ts')).toHaveLength(3);
    expect(errors.get('wrong-call.ts')).toEqual(markedLines('wrong-call.ts'));
    // nothing else fails: the right calls, the client and the generated paths all compile
    expect([...errors.keys()]).toEqual(['wrong-call.ts']);
  }, 120_000);
});
