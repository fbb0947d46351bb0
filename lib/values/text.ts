/**
 * The text without the run of `char` it ends with. A loop, not a regex: `/x+$/` is tried from every x of a long run
 * that does not end the text, and a lookbehind that avoids it is more than the regex lint can prove linear.
 */
export function trimEndOf(text: string, char: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === char) end--;
  return text.slice(0, end);
}
