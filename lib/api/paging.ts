import type { Context } from 'hono';
import type { AppEnv } from './context';

/**
 * For lists whose body is a bare array (the reference's shape, which clients read as is): the page's place in the
 * whole is told in headers, so no cap is silent. `X-Total-Count` is the true total; `Link: rel="next"` is the next
 * page while there is one.
 */
export function announcePage(c: Context<AppEnv>, page: { limit: number; offset: number }, shown: number, total: number): void {
  c.header('x-total-count', String(total));
  if (page.offset + shown < total) {
    const next = new URL(c.req.url);
    next.searchParams.set('limit', String(page.limit));
    next.searchParams.set('offset', String(page.offset + page.limit));
    c.header('link', `<${next.pathname}${next.search}>; rel="next"`);
  }
}

/** The OpenAPI description of those headers. */
export const PAGE_HEADERS = {
  'X-Total-Count': { description: 'how many items there are in all', schema: { type: 'integer' as const } },
  Link: { description: 'the next page, `<…?limit=&offset=>; rel="next"`, while there is one', schema: { type: 'string' as const } },
};
