'use client';

import { useSearchParams } from 'next/navigation';
import { REVIEW_FILTERS } from '@/lib/samples/review-lists';
import { PrivateSamples } from './private-samples';
import { AwaitingSamples } from './review-awaiting';
import { DecidedSamples } from './review-decided';
import { ReviewFilter } from './review-filter';

/**
 * A sample manager's review queue: the samples awaiting a decision, grouped by the manifest that brought them (who
 * uploaded it, when, into which profile), to tick one by one, by manifest or all at once, and accept or reject with
 * a reason; the private samples that wait for their rights; and the samples decided lately with where they stand —
 * waiting for a ToLID, registering, registered with their accession, rejected with the reason — refreshed until they
 * settle, with a retry where registration failed. Both lists follow the order and filter kept in the page URL.
 */
export function ReviewQueue() {
  const search = useSearchParams();
  // another order or filter starts the ticking afresh: a sample ticked and no longer shown is not decided on unseen
  const filter = REVIEW_FILTERS.map((k) => search.get(k) ?? '').join('|');
  return (
    <>
      <ReviewFilter />
      <AwaitingSamples key={filter} />
      <PrivateSamples />
      <DecidedSamples />
    </>
  );
}
