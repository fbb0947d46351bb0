'use client';

import { type ReactNode, useEffect, useState } from 'react';

/** Where the portal's tables become cards and its filter panels fold away (app/globals.css, 37.5rem). */
const PHONE = '(max-width: 37.5rem)';

/**
 * A browser's filter form that folds away on a phone, so that its results are near the top: closed there once the
 * page has loaded ("Filters (2 set)" opens it), open on a wider screen, where its summary line is not shown. A
 * filter that is not valid keeps it open, so its message is seen.
 */
export function FilterFold({ set, invalid = false, children }: { set: number; invalid?: boolean; children: ReactNode }) {
  const [open, setOpen] = useState(true);
  useEffect(() => {
    if (window.matchMedia(PHONE).matches) setOpen(false);
  }, []);
  return (
    <details className="filter-fold" open={open || invalid} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Filters{set ? ` (${set} set)` : ''}</summary>
      {children}
    </details>
  );
}

/** How many of a filter's fields have a value (its defaults, e.g. rows per page, are not counted). */
export const filtersSet = (input: Partial<Record<string, string>>, fields: readonly string[]): number =>
  fields.filter((f) => (input[f] ?? '').trim() !== '').length;
