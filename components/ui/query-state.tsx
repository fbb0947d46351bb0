'use client';

import { type ReactNode, useDeferredValue } from 'react';

/**
 * A list's three moments before its content, said the one way the portal says them: loading (busy), failed (an
 * alert with the server's words), empty (what being empty means here). Then the content, with the data.
 */
export function QueryState<T>({
  query,
  what,
  isEmpty,
  empty,
  children,
}: {
  query: { isError: boolean; error: Error | null; data: T | undefined };
  /** what is loading, as in "Loading the samples awaiting review…" */
  what: string;
  isEmpty: (data: T) => boolean;
  empty: ReactNode;
  children: (data: T) => ReactNode;
}) {
  // content that arrives after the list's loading line is drawn in the background, in slices the browser can
  // interrupt, while the loading line stays: a page of content is not one long task on a phone
  const data = useDeferredValue(query.data);
  if (query.isError) {
    return (
      <p role="alert" className="notice error">
        Could not load {what}: {query.error?.message}
      </p>
    );
  }
  if (data === undefined) {
    return (
      <p aria-busy="true" className="muted">
        Loading {what}…
      </p>
    );
  }
  if (isEmpty(data)) return <p className="muted">{empty}</p>;
  return <>{children(data)}</>;
}
