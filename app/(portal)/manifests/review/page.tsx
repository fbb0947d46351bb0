import type { Metadata } from 'next';
import { ReviewQueue } from '@/components/manifests/review-queue';

export const metadata: Metadata = { title: 'Samples awaiting review' };

export default function ReviewPage() {
  return (
    <>
      <h1>Samples awaiting review</h1>
      <p className="muted">
        Samples of the projects you manage that wait for a decision. Accepted samples are registered at ENA; the reason
        of a rejection is shown to the uploader, never in the public API.
      </p>
      <ReviewQueue />
    </>
  );
}
