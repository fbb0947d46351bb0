/**
 * CSV cells as every CSV the service writes has them: a cell a spreadsheet program would take for a formula is
 * neutralised with a leading apostrophe (OWASP's advice on CSV injection), then quoted as RFC 4180 and csv-stringify
 * quote it (a comma, a quote or a line break). A plain number (`-33.86`, `+44`) is a number to a spreadsheet, not a
 * formula, and is left as it is so that coordinates and elevations read back unchanged.
 */

// = + - @, tab and carriage return, and the full-width = + - @ that some spreadsheet programs fold into them
const FORMULA_STARTS = new Set([0x3d, 0x2b, 0x2d, 0x40, 0x09, 0x0d, 0xff1d, 0xff0b, 0xff0d, 0xff20]);
const PLAIN_NUMBER = /^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/;

/** The text with a leading apostrophe when a spreadsheet program would read it as a formula; otherwise itself. */
export function neutraliseFormula(v: string): string {
  if (!FORMULA_STARTS.has(v.charCodeAt(0))) return v;
  return PLAIN_NUMBER.test(v) ? v : `'${v}`;
}

const NEEDS_QUOTES = /[",\r\n]/;

/** One CSV cell: neutralised, then quoted when it holds a comma, a quote or a line break. */
export function csvCell(v: string): string {
  const s = neutraliseFormula(v);
  return NEEDS_QUOTES.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** csv-stringify's options that write the same cells as csvCell (for answers written from records). */
export const CSV_STRINGIFY_OPTIONS = { cast: { string: neutraliseFormula } } as const;
