import type { ReviewFilter, ReviewQuery } from '@/lib/samples/review-contract';

/**
 * What the review queue asks the API for, said once for the page's client lists (review-group.tsx) and for the
 * server, which reads the first pages with the page (app/(portal)/manifests/review/page.tsx) under the same keys.
 */

// a page short enough to draw at once on a phone; the queue starts with the newest manifest, the one a manager was
// just told about, and "Show all" or the pager reach the rest
export const GROUPS = 5;
/** rows of a manifest described with the page, before "Show all": five manifests of ten rows are a page a phone draws at once */
export const ROWS = 10;

export type ReviewState = 'awaiting' | 'decided';

/** Each list's offset in the page URL: a page of manifests. */
export const OFFSET_PARAM: Record<ReviewState, string> = { awaiting: 'offset', decided: 'decided_offset' };

export const offsetOf = (search: URLSearchParams, name: string) => Math.max(0, Number.parseInt(search.get(name) ?? '0', 10) || 0);

/** The private samples waiting for their rights (private-samples.tsx): a page of them, its offset in the page URL. */
export const PRIVATE_PAGE = 50;
export const PRIVATE_OFFSET = 'private_offset';
export const privateSamplesKey = (offset: number) => ['private-samples', offset];

export const reviewKey = (state: ReviewState, offset: number, input: Partial<Record<string, string>>) => ['review', state, offset, input];

/** The API's query of one list's page, for a valid filter. */
export const reviewQuery = (filter: ReviewFilter, state: ReviewState, offset: number): ReviewQuery => ({
  ...filter,
  state,
  limit: GROUPS,
  offset,
  rows: ROWS,
});
