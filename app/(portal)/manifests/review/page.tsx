import type { Metadata } from 'next';
import Link from 'next/link';
import { Suspense } from 'react';
import { ReviewQueue } from '@/components/manifests/review-queue';
import { EnaRefusals } from '@/components/submissions/ena-refusals';

export const metadata: Metadata = { title: 'Review queue' };

export default function ReviewPage() {
  return (
    <>
      <h1>Review queue</h1>
      <p className="muted">
        Samples waiting for your approval, grouped by the manifest that brought them. A sample waits for an approver of each of its
        associated types that needs approval (a project’s sample managers approve its own type, DTOL or ASG); once all have accepted, it
        gets a ToLID and is registered at ENA. The reason of a rejection is shown to the uploader, never in the public API.
      </p>
      <p>
        A sample already registered needs a change?{' '}
        <Link href="/manifests/review/corrections">Correct registered samples by accession</Link>.
      </p>
      <EnaRefusals />
      <Suspense fallback={<p aria-busy="true">Loading the review queue…</p>}>
        <ReviewQueue />
      </Suspense>
    </>
  );
}
