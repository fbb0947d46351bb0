import { ApiError, apiFetch } from '@/lib/client/api';

/**
 * One page of a list the API answers as a bare array, with the true total from its `X-Total-Count` header
 * (lib/api/paging.ts), for the pager of the one table.
 */
export async function fetchPage<T>(path: string): Promise<{ rows: T[]; total: number }> {
  const res = await fetch(path, { headers: { accept: 'application/json' }, credentials: 'same-origin' });
  // a refusal is read the one way every call of the portal reads it (problem+json into ApiError)
  if (!res.ok) await apiFetch(path);
  const rows = (await res.json()) as T[];
  const total = Number(res.headers.get('x-total-count'));
  if (!Number.isFinite(total)) throw new ApiError(500, 'The list came without its total.');
  return { rows, total: Math.max(total, rows.length) };
}

/** One page of a list the API answers in the reference's shape, `{"data": [...], "number_found": N, ...}`. */
export async function fetchFound<Body extends { data: unknown[]; number_found: number }>(path: string) {
  const body = await apiFetch<Body>(path);
  return { ...body, rows: body.data as Body['data'], total: body.number_found };
}
