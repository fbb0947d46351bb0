'use client';

import { createContext, type ReactNode, useContext } from 'react';
import type { UrlCheck } from '@/lib/browse/url-check';

const Checked = createContext<UrlCheck<unknown> | null>(null);

/**
 * The page URL's filter as the page's server checked it (lib/browse/url-check.ts `checkUrl`): the server renders the page
 * again for each address the browser moves to, so the check follows the URL without the schema in the browser.
 */
export function UrlChecked<T>({ check, children }: { check: UrlCheck<T>; children: ReactNode }) {
  return <Checked.Provider value={check}>{children}</Checked.Provider>;
}

export function useUrlCheck<T>(): UrlCheck<T> {
  const check = useContext(Checked);
  if (!check) throw new Error('useUrlCheck needs the page to be wrapped in UrlChecked');
  return check as UrlCheck<T>;
}
