/** A parameter as it arrives: absent, once, or repeated. */
export type Raw = string | string[] | undefined;

/**
 * Comma lists and repeated parameters alike (docs/api-behaviour.md §1.7 Sensible): split on commas, trim, drop empties,
 * de-duplicate, keep first-seen order.
 */
export function splitList(raw: Raw, opts: { lower?: boolean; upper?: boolean } = {}): string[] {
  const out = new Set<string>();
  const add = (text: string) => {
    for (const part of text.split(',')) {
      let v = part.trim();
      if (!v) continue;
      if (opts.lower) v = v.toLowerCase();
      if (opts.upper) v = v.toUpperCase();
      out.add(v);
    }
  };
  if (typeof raw === 'string') add(raw);
  else for (const text of raw ?? []) add(text);
  return [...out];
}

/** The last value of a parameter that should be sent once. */
export const single = (raw: Raw): string | undefined => {
  const v = Array.isArray(raw) ? raw[raw.length - 1] : raw;
  return v?.trim() || undefined;
};

/** "a, b and c": the reference's way of listing accepted values. */
export function humanList(values: readonly string[], last = 'and'): string {
  if (values.length <= 1) return values.join('');
  return `${values.slice(0, -1).join(', ')} ${last} ${values[values.length - 1]}`;
}
