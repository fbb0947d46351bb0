import { RE2JS } from 're2js';

/** How a checklist's values are matched, the same for sample sheets and barcoding sheets. */

const patterns = new Map<string, RE2JS>();

/** A checklist's pattern as a whole-value match, on RE2 (linear in the value, whatever the pattern). */
export function wholeMatch(pattern: string, value: string): boolean {
  let re = patterns.get(pattern);
  if (!re) {
    re = RE2JS.compile(`^(?:${pattern})$`);
    patterns.set(pattern, re);
  }
  return re.test(value);
}

/** A choice as typed, compared without case, spaces or underscores standing for spaces. */
export const choiceKey = (v: string) =>
  v
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, ' ');
