/** The 1-based column number of a cell reference such as `AB12` (its letters, in either case); 0 when it has none. */
export function columnNumber(ref: string): number {
  let col = 0;
  for (let i = 0; i < ref.length; i++) {
    const code = ref.charCodeAt(i) | 0x20; // lower case
    if (code < 0x61 || code > 0x7a) break;
    col = col * 26 + (code - 0x60);
  }
  return col;
}

/** Spreadsheet column letters of a 1-based column number: 1 → A, 27 → AA. */
export function columnLetter(col: number): string {
  let n = col;
  let out = '';
  while (n > 0) {
    out = String.fromCharCode(65 + ((n - 1) % 26)) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}
