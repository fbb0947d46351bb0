import type { Metadata } from 'next';
import { Suspense } from 'react';
import { ReviewQueue } from '@/components/manifests/review-queue';

export const metadata: Metadata = { title: 'Review queue' };

export default function ReviewPage() {
  return (
    <>
      <h1>Review queue</h1>
      <p className="muted">
        Samples of the projects you manage, grouped by the manifest that brought them. Accepted samples get a ToLID and are registered at
        ENA; the reason of a rejection is shown to the uploader, never in the public API.
      </p>
      <Suspense fallback={<p aria-busy="true">Loading the review queue…</p>}>
        <ReviewQueue />
      </Suspense>
    </>
  );
}
