const compiled = new Map<string, RegExp>();

/**
 * A workbook pattern with the reference system's semantics: Python's `re.match`, anchored at the start only, so a
 * pattern without `$` accepts any continuation (e.g. `^([0-9]*[.])?[0-9]+` takes "1.5x"). Throws when the pattern
 * does not compile.
 */
export function compilePattern(pattern: string): RegExp {
  let re = compiled.get(pattern);
  if (!re) {
    re = new RegExp(`^(?:${pattern.trim()})`);
    compiled.set(pattern, re);
  }
  return re;
}

export const matchesPattern = (pattern: string, value: string): boolean => compilePattern(pattern).test(value);
