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
