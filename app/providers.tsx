'use client';

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { ApiError } from '@/lib/client/api';

// a request the server refused (4xx) is refused again: only a lost connection or a server's failure is asked once more,
// so that a refusal is said at once rather than after the retry's delay
const retry = (failures: number, err: unknown) => failures < 1 && !(err instanceof ApiError && err.status >= 400 && err.status < 500);

export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(() => new QueryClient({ defaultOptions: { queries: { staleTime: 10_000, retry } } }));
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
