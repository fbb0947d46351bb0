'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useState } from 'react';
import { formatNumber } from '@/components/ui/words';
import { api } from '@/lib/client/api';

export interface NavItem {
  href: string;
  label: string;
  adminOnly?: boolean;
  /** sample managers and admins only: it carries the count of samples waiting for them */
  reviewers?: boolean;
  /** not a page of the portal (the API documentation): a plain link, loaded whole */
  outside?: boolean;
}

/** The item the page belongs to: the longest href the path is under, so /manifests/review is not also Manifests. */
export function currentItem(items: NavItem[], pathname: string): string | undefined {
  return items
    .filter((i) => pathname === i.href || (i.href !== '/' && pathname.startsWith(`${i.href}/`)))
    .sort((a, b) => b.href.length - a.href.length)[0]?.href;
}

/** Queried again on every page the user opens, so a decision taken elsewhere shows in the count. */
export const REVIEW_COUNT_KEY = 'review-count';

export function useReviewCount(initial: number | null, pathname: string): number | null {
  // the layout read the count for the page the browser loaded: that page does not ask again while it is fresh
  const [loaded] = useState(() => ({ pathname, at: Date.now() }));
  const q = useQuery({
    queryKey: [REVIEW_COUNT_KEY, pathname],
    queryFn: async () => (await api.GET('/api/sample/pending', { params: { query: { limit: 1 } } })).number_found,
    enabled: initial !== null,
    initialData: pathname === loaded.pathname ? (initial ?? undefined) : undefined,
    initialDataUpdatedAt: loaded.at,
    placeholderData: (previous) => previous ?? initial ?? undefined,
    refetchOnWindowFocus: true,
  });
  return initial === null ? null : (q.data ?? initial);
}

/** The number beside the review queue's entry, and what it says to a screen reader. */
export function ReviewCount({ count }: { count: number }) {
  return (
    <>
      <span className={`nav-count${count ? ' waiting' : ''}`} aria-hidden="true">
        {formatNumber(count)}
      </span>
      <span className="visually-hidden">, {count === 1 ? '1 sample waits' : `${formatNumber(count)} samples wait`}</span>
    </>
  );
}

export function Nav({ items, count, onNavigate }: { items: NavItem[]; count: number | null; onNavigate?: () => void }) {
  const pathname = usePathname();
  const current = currentItem(items, pathname);
  return (
    <nav aria-label="Main">
      <ul>
        {items.map((item) => (
          <li key={item.href}>
            {item.outside ? (
              <a href={item.href}>{item.label}</a>
            ) : (
              <Link href={item.href} aria-current={item.href === current ? 'page' : undefined} onClick={onNavigate}>
                {item.label}
                {item.reviewers && count !== null ? <ReviewCount count={count} /> : null}
              </Link>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}
