'use client';

import Link from 'next/link';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import type { FormEvent } from 'react';
import { FilterFold } from '@/components/ui/filter-fold';
import { formValues, withParams } from '@/lib/client/search';
import { REVIEW_SORTS } from '@/lib/samples/review-lists';
import { fileOf, useReview, useReviewFilter } from './review-group';
import { OFFSET_PARAM, offsetOf } from './review-query';
import styles from './review-queue.module.css';

const FORM = ['profile', 'uploader'] as const;
const SORT_LABEL = { newest: 'Newest first', oldest: 'Oldest first' } as const;

/**
 * The queue's order and filters, kept in the page URL so that a reload or a shared link shows the same queue: newest
 * or oldest manifest first, one profile, one uploader, and the one manifest that a link (the email telling a manager
 * that samples wait, the home page) leads to, with the way back to the whole queue. Both lists of the page follow
 * them; the choices are the profiles and uploaders the two lists hold without the filter, so none finds nothing.
 */
export function ReviewFilter() {
  const router = useRouter();
  const pathname = usePathname();
  const search = useSearchParams();
  const { input, parsed } = useReviewFilter();
  // the same queries as the lists below (same keys): read once
  const awaiting = useReview('awaiting', offsetOf(search, OFFSET_PARAM.awaiting));
  const decided = useReview('decided', offsetOf(search, OFFSET_PARAM.decided));
  const lists = [awaiting.data, decided.data].flatMap((d) => (d ? [d] : []));

  const profiles = new Map<string, string>();
  for (const d of lists) for (const p of d.choices.profiles) profiles.set(p.profile_id, p.profile_title);
  // a filter the link sets stays shown, even when neither list holds it any more
  if (input.profile && !profiles.has(input.profile)) profiles.set(input.profile, input.profile);
  const uploaders = new Set(lists.flatMap((d) => d.choices.uploaders));
  if (input.uploader) uploaders.add(input.uploader);
  const byTitle = [...profiles].sort((a, b) => a[1].localeCompare(b[1]));
  const byName = [...uploaders].sort((a, b) => a.localeCompare(b));

  const sort = parsed.success ? parsed.data.sort : 'newest';
  // a new order or filter starts both lists at their first page
  const href = (changes: Record<string, string | undefined>) =>
    withParams(pathname, search, { ...changes, offset: undefined, decided_offset: undefined });
  const manifest = input.manifest;
  const group = lists.flatMap((d) => d.data).find((g) => g.manifest_id === manifest);

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const values = formValues(e.currentTarget, FORM);
    router.push(href({ profile: values.profile, uploader: values.uploader }));
  }

  return (
    <div className={styles.filter}>
      {manifest && (
        <p className={`notice ${styles.only}`}>
          Showing one manifest only: <strong>{group ? fileOf(group) : `manifest ${manifest}`}</strong>.{' '}
          <Link href={href({ manifest: undefined })}>Show all manifests</Link>
        </p>
      )}
      <p className={styles.sort}>
        <span id="review-sort">Manifests:</span>{' '}
        {REVIEW_SORTS.map((s, i) => (
          <span key={s}>
            {i > 0 && ' · '}
            {s === sort ? (
              <strong aria-current="true">{SORT_LABEL[s]}</strong>
            ) : (
              <Link href={href({ sort: s === 'newest' ? undefined : s })} aria-describedby="review-sort">
                {SORT_LABEL[s]}
              </Link>
            )}
          </span>
        ))}
      </p>
      <FilterFold set={[input.profile, input.uploader].filter(Boolean).length}>
        <form
          className="filters"
          onSubmit={onSubmit}
          aria-label="Filter the review queue"
          // the choices arrive with the lists: a select made before them would keep no choice
          key={`${search.toString()}|${byTitle.length}|${byName.length}`}
          noValidate
        >
          <label>
            Profile
            <select name="profile" defaultValue={input.profile ?? ''}>
              <option value="">Every profile</option>
              {byTitle.map(([id, title]) => (
                <option key={id} value={id}>
                  {title}
                </option>
              ))}
            </select>
          </label>
          <label>
            Uploaded by
            <select name="uploader" defaultValue={input.uploader ?? ''}>
              <option value="">Anyone</option>
              {byName.map((u) => (
                <option key={u}>{u}</option>
              ))}
            </select>
          </label>
          <div className="actions">
            <button className="primary" type="submit">
              Apply filter
            </button>
            <Link className="button" href={href({ profile: undefined, uploader: undefined, manifest: undefined })}>
              Clear
            </Link>
          </div>
        </form>
      </FilterFold>
    </div>
  );
}
