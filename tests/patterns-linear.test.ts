import fc from 'fast-check';
import { checkSync } from 'recheck';
import { describe, expect, it } from 'vitest';
import { compilePattern, matchesPattern } from '@/lib/checklists/patterns';
import { loadManifestDefinitions } from '@/lib/manifests';
import { LINEAR_REWRITES } from '@/lib/manifests/reference/patterns';
import { readChecklists } from '@/lib/seed/checklists';

/**
 * Every pattern a cell is matched against runs in time linear in the cell: recheck (a ReDoS checker) finds no input
 * on which it backtracks more. A polynomial pattern let one sheet hold the service for a minute (issue 55).
 */

const complexity = (source: string, flags: string) => {
  const r = checkSync(source, flags);
  return r.status === 'vulnerable' ? `${r.complexity.type} (attack: ${r.attack.pattern})` : r.status;
};

describe('the patterns cells are matched against', () => {
  it('are linear in every Tree of Life manifest definition', () => {
    const patterns = new Map<string, string>();
    for (const d of loadManifestDefinitions())
      for (const f of d.fields) if (f.pattern) patterns.set(f.pattern, `${d.project} ${d.version} ${f.name}`);
    expect(patterns.size).toBeGreaterThan(10);
    const found = [...patterns].map(([source, where]) => [where, complexity(source, 'i')]);
    expect(found.filter(([, c]) => c !== 'safe')).toEqual([]);
  });

  it('of every study checklist compile in RE2, the linear-time engine they are run by', async () => {
    const patterns = new Set<string>();
    for (const c of await readChecklists()) for (const group of c.fields) for (const f of group.fields) if (f.regex) patterns.add(f.regex);
    expect(patterns.size).toBeGreaterThan(0);
    for (const source of patterns) expect(() => compilePattern(source), source).not.toThrow();
    // the reference's prefix match: a pattern without $ takes any continuation
    expect(matchesPattern('^([0-9]*[.])?[0-9]+', '1.5x')).toBe(true);
    expect(matchesPattern('[0-9]+$', '15x')).toBe(false);
  });

  it.each(LINEAR_REWRITES)('accept the same text after the rewrite of %s', (from, to) => {
    const before = new RegExp(`^(?:${from})$`, 'i');
    const after = new RegExp(`^(?:${to})$`, 'i');
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('0', '1', '9', '.', '+', '-', 'e', 'E', 'x', ' '), maxLength: 12 }), (text) => {
        expect(after.test(text)).toBe(before.test(text));
      }),
      { numRuns: 5000 },
    );
  });
});

describe('a negative look-ahead at a pattern’s start', () => {
  const email = '^(?!.*\\.{2,})(?!.*-{2,})[\\w.-]+@[a-zA-Z\\d.-]+\\.[a-zA-Z]{2,}$';
  it.each([
    ['jane.doe@example.org', true],
    ['jane..doe@example.org', false],
    ['jane--doe@example.org', false],
    ['jane@example', false],
  ])('means what it says in JavaScript: %s', (value, valid) => {
    expect(matchesPattern(email, value)).toBe(valid);
    expect(new RegExp(`^(?:${email})`).test(value)).toBe(valid);
  });
});
