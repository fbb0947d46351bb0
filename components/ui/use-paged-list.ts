'use client';

import { keepPreviousData, type QueryKey, useQuery, useQueryClient } from '@tanstack/react-query';
import { usePathname, useSearchParams } from 'next/navigation';
import { useCallback, useRef } from 'react';
import { withParams } from '@/lib/client/search';
import { type PageFetcher, pageOffset } from './api-pages';
import type { TablePage } from './data-table';

export interface ListPage<Row> {
  rows: Row[];
  total: number;
}

/**
 * A list shown a page at a time, its offset kept in the URL (`param`, so that two lists on one page each have
 * theirs) and every page with its own address. While the next page loads the current one stays in view. The result
 * spreads onto the one table: `<DataTable {...list} … />` (which takes no notice of `refresh`).
 */
export function usePagedList<Page extends ListPage<unknown>>(opts: {
  /** the query's key; the offset is added, so invalidating this prefix refreshes every page */
  key: QueryKey;
  limit: number;
  /** the page from `offset`; it may carry more than its rows (e.g. the queue's state beside the failed jobs) */
  fetch: PageFetcher<Page>;
  param?: string;
  /** poll while the rows say something is still running */
  refetchInterval?: (page: Page | undefined, offset: number) => number | false;
}) {
  const pathname = usePathname();
  const search = useSearchParams();
  const qc = useQueryClient();
  const param = opts.param ?? 'offset';
  const offset = pageOffset(search.get(param));
  const query = useQuery({
    queryKey: [...opts.key, offset],
    queryFn: () => opts.fetch(offset, opts.limit),
    placeholderData: keepPreviousData,
    refetchInterval: opts.refetchInterval ? (q) => opts.refetchInterval?.(q.state.data, offset) ?? false : undefined,
  });
  const page: TablePage = {
    offset,
    limit: opts.limit,
    total: query.data?.total ?? 0,
    hrefFor: (o) => withParams(pathname, search, { [param]: o ? String(o) : undefined }),
  };
  const rows: Page['rows'] | undefined = query.data?.rows;
  // the key of this render, for a refresh that stays the same function from render to render
  const key = useRef(opts.key);
  key.current = opts.key;
  /** every page of the list is fetched again (after a change to its rows) */
  const refresh = useCallback(() => void qc.invalidateQueries({ queryKey: key.current }), [qc]);
  return { rows, query, page, refresh };
}
