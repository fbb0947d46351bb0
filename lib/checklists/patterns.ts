import { RE2JS } from 're2js';

/** A pattern compiled once: whether a value matches it. */
export interface Pattern {
  test(value: string): boolean;
}

const compiled = new Map<string, Pattern>();

/**
 * A workbook pattern with the reference system's semantics: Python's `re.match`, anchored at the start only, so a
 * pattern without `$` accepts any continuation (e.g. `^([0-9]*[.])?[0-9]+` takes "1.5x"). Throws when the pattern
 * does not compile.
 *
 * Run by RE2 (re2js), whose time is linear in the value whatever the pattern: the patterns come from checklists
 * written elsewhere (the MIxS terms among them), several of which backtrack polynomially in JavaScript's own engine on
 * a long cell, and a pattern that nests quantifiers would backtrack exponentially. RE2 has no look-arounds; the one
 * form the workbooks use, negative look-aheads at the pattern's start (`^(?!.*\.{2,})…`, "no two dots anywhere"), is
 * run as what it means: the value must not match the look-ahead's pattern there, and must match the rest.
 */
export function compilePattern(pattern: string): Pattern {
  let re = compiled.get(pattern);
  if (!re) {
    const { refused, rest } = leadingLookaheads(pattern.trim());
    const engine = RE2JS.compile(`^(?:${rest})`);
    const excluded = refused.map((r) => RE2JS.compile(`^(?:${r})`));
    re = { test: (value) => engine.test(value) && !excluded.some((e) => e.test(value)) };
    compiled.set(pattern, re);
  }
  return re;
}

export const matchesPattern = (pattern: string, value: string): boolean => compilePattern(pattern).test(value);

/** The negative look-aheads a pattern starts with (after an optional `^`), and the pattern after them. */
function leadingLookaheads(source: string): { refused: string[]; rest: string } {
  const refused: string[] = [];
  let at = source.startsWith('^') ? 1 : 0;
  while (source.startsWith('(?!', at)) {
    const end = closingParen(source, at);
    if (end < 0) break;
    refused.push(source.slice(at + 3, end));
    at = end + 1;
  }
  return refused.length ? { refused, rest: source.slice(at) } : { refused, rest: source };
}

/** The index of the `)` closing the group opened at `open`, skipping escapes and character classes; -1 if none. */
function closingParen(source: string, open: number): number {
  let depth = 0;
  let inClass = false;
  for (let i = open; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return -1;
}
