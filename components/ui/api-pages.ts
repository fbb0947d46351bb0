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
export function foundPages<Body extends FoundBody>(fetchPage: (page: PageQuery) => Promise<Body>): PageFetcher<FoundPage<Body>> {
  return async (offset, limit) => foundPage(await fetchPage({ offset, limit }));
}

type FoundBody = { data: unknown[]; number_found: number };
type FoundPage<Body extends FoundBody> = Body & { rows: Body['data']; total: number };

/** One answer of such a list as its page: also what a server page hands to the list it reads with itself. */
export const foundPage = <Body extends FoundBody>(body: Body): FoundPage<Body> => ({ ...body, rows: body.data, total: body.number_found });

/**
 * The offset a paged list reads from its URL parameter (usePagedList), and so the key its first page is read under by
 * a server page; a value that is no whole number is left to the API to refuse.
 */
export const pageOffset = (value: string | string[] | null | undefined): number => Math.max(0, Number(value) || 0);
