'use client';

import { When } from '@/components/ui/when';
import type { ReviewSample } from '@/lib/samples/review-contract';

/**
 * A sample's approvals as its reviewers read them: each associated type approved, by whom and when, and the types it
 * still awaits, the reader's own marked, since a sample waits for an approver of each of its types that needs one.
 */
export function Approvals({ sample }: { sample: Pick<ReviewSample, 'approvals' | 'waiting_for' | 'waiting_for_you'> }) {
  const { approvals, waiting_for: waiting, waiting_for_you: yours } = sample;
  if (!approvals.length && !waiting.length) return null;
  return (
    <ul className="plain" aria-label="Approvals">
      {approvals.map((a) => (
        <li key={a.associated_type}>
          {a.associated_type} approved{a.approved_by ? ` by ${a.approved_by}` : ''} <When value={a.approved_at} day />
        </li>
      ))}
      {waiting.length > 0 && (
        <li>
          Awaiting{' '}
          {waiting.map((t, i) => (
            <span key={t}>
              {i > 0 && (i === waiting.length - 1 ? ' and ' : ', ')}
              {yours.includes(t) ? <strong>{t} (yours)</strong> : t}
            </span>
          ))}
        </li>
      )}
    </ul>
  );
}
