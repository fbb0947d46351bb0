'use client';

import { useQueryClient } from '@tanstack/react-query';
import { usePathname, useSearchParams } from 'next/navigation';
import { QueryState } from '@/components/ui/query-state';
import { withParams } from '@/lib/client/search';
import { DECIDED_DAYS } from '@/lib/samples/review-lists';
import { Group, GroupPager, useReview, useReviewFilter } from './review-group';
import { OFFSET_PARAM, offsetOf } from './review-query';
import styles from './review-queue.module.css';

/** Samples the reader decided on lately, with where each stands now, followed until they settle. */
export function DecidedSamples() {
  const qc = useQueryClient();
  const pathname = usePathname();
  const search = useSearchParams();
  const decided = useReview('decided', offsetOf(search, OFFSET_PARAM.decided));
  const { input, parsed } = useReviewFilter();
  const oldest = parsed.success && parsed.data.sort === 'oldest';
  return (
    <section aria-labelledby="decided-heading" className={styles.section}>
      <h2 id="decided-heading">Decided lately</h2>
      <p className="muted">
        Samples you decide on that were decided in the last {DECIDED_DAYS} days, and those you approved that still await other approvers,{' '}
        {oldest ? 'earliest' : 'latest'} decision first, with where each stands now. The list refreshes by itself while samples are on their
        way to ENA.
      </p>
      <QueryState
        query={decided}
        what="the decided samples"
        isEmpty={(d) => d.number_found === 0}
        empty={
          input.profile || input.uploader || input.manifest
            ? `No sample this filter finds was decided in the last ${DECIDED_DAYS} days.`
            : `No sample was decided in the last ${DECIDED_DAYS} days.`
        }
      >
        {(d) => (
          <>
            {d.data.map((g) => (
              <Group key={g.manifest_id} group={g} onRetried={() => void qc.invalidateQueries({ queryKey: ['review', 'decided'] })} />
            ))}
            <GroupPager page={d} hrefFor={(o) => withParams(pathname, search, { decided_offset: o ? String(o) : undefined })} />
          </>
        )}
      </QueryState>
    </section>
  );
}
