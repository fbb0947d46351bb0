/**
 * A key sequence of stored fields (lib/standards/stored-fields.ts) as one regular expression, which the field reader
 * matches a row of the same keys against in one pass instead of walking it key by key.
 */

/**
 * A key sequence met in stored text, as one regular expression over a row of exactly those keys, capturing the JSON
 * text of each value read (`groups`: per name, its capture group, 0 for none). A row of the same keys as the last is
 * checked and cut up by the expression in one pass of compiled code; walking it key by key (FieldReader.locate) took
 * several times as long (see docs/benchmarks.md).
 */
export interface Shape {
  re: RegExp;
  groups: Int32Array;
  /** the keys as printed, in the row's order, and each one's position among the names read (-1: not read) */
  keys: readonly string[];
  positions: readonly number[];
}

// a JSON string as PostgreSQL prints one: no quote or backslash unescaped; unrolled, so that it never backtracks
const STRING_PATTERN = '"[^"\\\\]*(?:\\\\.[^"\\\\]*)*"';
const escapeForPattern = (text: string) => text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');

/** The expression of a key sequence, or null when V8 refuses to parse one so large: rows of such keys are walked. */
export function shapeOf(keys: readonly string[], positions: readonly number[], names: number): Shape | null {
  const groups = new Int32Array(names);
  let group = 0;
  const pairs = keys.map((key, k) => {
    const position = positions[k] as number;
    const value = position < 0 ? STRING_PATTERN : `(${STRING_PATTERN})`;
    if (position >= 0) groups[position] = ++group;
    return `${escapeForPattern(`"${key}"`)}: ${value}`;
  });
  let re: RegExp;
  try {
    re = new RegExp(`^\\{${pairs.join(', ')}\\}$`);
  } catch (err) {
    if (err instanceof SyntaxError) return null;
    throw err;
  }
  return { re, groups, keys: [...keys], positions: [...positions] };
}
