import { dehydrate, HydrationBoundary, QueryClient, type QueryKey } from '@tanstack/react-query';
import type { ReactNode } from 'react';

/**
 * What a server page read for its client lists, handed to their queries under the keys they ask with: the lists are
 * drawn with the page, nothing moves when they would have loaded, and the client asks again only once the answer is
 * stale (app/providers.tsx). Each answer must be the API's own for that key, JSON as it sends it.
 */
export function Prefetched({ answers, children }: { answers: readonly (readonly [QueryKey, unknown])[]; children: ReactNode }) {
  const client = new QueryClient();
  for (const [key, answer] of answers) client.setQueryData(key, answer);
  return <HydrationBoundary state={dehydrate(client)}>{children}</HydrationBoundary>;
}

/** An answer as the API sends it: what JSON keeps of it (dates as ISO strings, no undefined fields). */
export const asSent = <T,>(answer: T): T => JSON.parse(JSON.stringify(answer)) as T;
