import type { ReactNode } from 'react';

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
  if (query.isError) {
    return (
      <p role="alert" className="notice error">
        Could not load {what}: {query.error?.message}
      </p>
    );
  }
  if (query.data === undefined) {
    return (
      <p aria-busy="true" className="muted">
        Loading {what}…
      </p>
    );
  }
  if (isEmpty(query.data)) return <p className="muted">{empty}</p>;
  return <>{children(query.data)}</>;
}
