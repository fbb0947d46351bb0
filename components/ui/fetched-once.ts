import { useEffect } from 'react';

/**
 * A part of the page's code asked for when first needed (a form's or a filter's zod schema: docs/architecture.md,
 * "Contracts"), fetched once; a failed fetch is asked for again the next time.
 */
export function fetchedOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((err: unknown) => {
      loading = undefined;
      throw err;
    });
    return loading;
  };
}

/** Asks for it as soon as the person enters a field of the page, so that it has come by the time they leave it or send. */
export function useFetchedOnFocus(load: () => Promise<unknown>): void {
  useEffect(() => {
    const warm = () => void load().catch(() => undefined);
    document.addEventListener('focusin', warm, { once: true });
    return () => document.removeEventListener('focusin', warm);
  }, [load]);
}
