import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layers are checked, not hoped for: `npm run lint` runs scripts/check-layers.mjs (dependency-cruiser with
 * .dependency-cruiser.cjs, then loops between the folders of lib/, contracts included). Here it is run on small trees
 * laid out like the repository, each with one mistake, and must fail naming it.
 */

const check = (fixture: string) =>
  spawnSync(process.execPath, [path.resolve('scripts/check-layers.mjs'), path.resolve('tests/fixtures/layers', fixture)], {
    encoding: 'utf8',
  });

describe('the layer check', () => {
  it('fails on a base module that imports a domain', () => {
    const result = check('wrong-import');
    expect(result.status).toBe(1);
    expect(result.stdout + result.stderr).toContain('base-imports-no-domain: lib/jobs/queue.ts → lib/samples/decision.ts');
  });

  it('fails on two domains that import each other, even through different modules', () => {
    const result = check('folder-loop');
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('lib/alpha ⇄ lib/beta');
    expect(result.stderr).toContain('lib/beta/three.ts → lib/alpha/four.ts');
  });

  it('fails on a domain whose contract imports a domain that imports it: a contract is no way round the rule', () => {
    const result = check('contract-loop');
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('lib/alpha ⇄ lib/beta');
    expect(result.stderr).toContain('lib/beta/contract.ts → lib/alpha/contract.ts');
  });
});
