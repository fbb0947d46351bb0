import { ApiError, apiFetch } from '@/lib/client/api';

/** Fetches the page of a list that starts at `offset` and holds at most `limit` rows. */
export type PageFetcher<Page> = (offset: number, limit: number) => Promise<Page>;

/** `path` (which may carry a query of its own) asking for one page. */
function pagePath(path: string, offset: number, limit: number): string {
  const [base, query] = path.split('?', 2);
  const qs = new URLSearchParams(query);
  qs.set('limit', String(limit));
  qs.set('offset', String(offset));
  return `${base}?${qs}`;
}

/**
 * Pages of a list the API answers as a bare array, with the true total from its `X-Total-Count` header
 * (lib/api/paging.ts), for the pager of the one table.
 */
export function arrayPages<T>(path: string): PageFetcher<{ rows: T[]; total: number }> {
  return async (offset, limit) => {
    const url = pagePath(path, offset, limit);
    const res = await fetch(url, { headers: { accept: 'application/json' }, credentials: 'same-origin' });
    // a refusal is read the one way every call of the portal reads it (problem+json into ApiError)
    if (!res.ok) await apiFetch(url);
    const rows = (await res.json()) as T[];
    const total = Number(res.headers.get('x-total-count'));
    if (!Number.isFinite(total)) throw new ApiError(500, 'The list came without its total.');
    return { rows, total: Math.max(total, rows.length) };
  };
}

/** Pages of a list the API answers in the reference's shape, `{"data": [...], "number_found": N, ...}`. */
export function foundPages<Body extends { data: unknown[]; number_found: number }>(
  path: string,
): PageFetcher<Body & { rows: Body['data']; total: number }> {
  return async (offset, limit) => {
    const body = await apiFetch<Body>(pagePath(path, offset, limit));
    return { ...body, rows: body.data, total: body.number_found };
  };
}
