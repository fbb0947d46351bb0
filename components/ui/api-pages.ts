/**
 * Fetches the page of a list that starts at `offset` and holds at most `limit` rows. A list the API answers as a bare
 * array is paged with `(offset, limit) => apiPage(path, { offset, limit })` (lib/client/api.ts).
 */
export type PageFetcher<Page> = (offset: number, limit: number) => Promise<Page>;

/** the page a fetch asks for, as the API's lists take it in their query */
export interface PageQuery {
  offset: number;
  limit: number;
}

/**
 * Pages of a list the API answers in the reference's shape, `{"data": [...], "number_found": N, ...}`:
 * `foundPages((page) => api.GET('/api/admin/jobs', { params: { query: page } }))`.
 */
export function foundPages<Body extends { data: unknown[]; number_found: number }>(
  fetchPage: (page: PageQuery) => Promise<Body>,
): PageFetcher<Body & { rows: Body['data']; total: number }> {
  return async (offset, limit) => {
    const body = await fetchPage({ offset, limit });
    return { ...body, rows: body.data, total: body.number_found };
  };
}
