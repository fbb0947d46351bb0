import type { ReactNode } from 'react';

/**
 * A browser's filter form that folds away on a phone, so that its results are near the top: closed there
 * ("Filters (2 set)" opens it), shown whole on a wider screen, where its summary line is not (app/globals.css). The
 * fold is closed as the server sends it and the stylesheet, not a script, shows it on a wide screen, so that the page
 * does not move once loaded. A filter that is not valid keeps it open, so its message is seen.
 */
export function FilterFold({ set, invalid = false, children }: { set: number; invalid?: boolean; children: ReactNode }) {
  return (
    <details className="filter-fold" open={invalid || undefined}>
      <summary>Filters{set ? ` (${set} set)` : ''}</summary>
      {children}
    </details>
  );
}

/** How many of a filter's fields have a value (its defaults, e.g. rows per page, are not counted). */
export const filtersSet = (input: Partial<Record<string, string>>, fields: readonly string[]): number =>
  fields.filter((f) => (input[f] ?? '').trim() !== '').length;
