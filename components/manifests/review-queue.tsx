'use client';

import { PrivateSamples } from './private-samples';
import { AwaitingSamples } from './review-awaiting';
import { DecidedSamples } from './review-decided';

/**
 * A sample manager's review queue: the samples awaiting a decision, grouped by the manifest that brought them (who
 * uploaded it, when, into which profile), to tick one by one, by manifest or all at once, and accept or reject with
 * a reason; the private samples that wait for their rights; and the samples decided lately with where they stand —
 * waiting for a ToLID, registering, registered with their accession, rejected with the reason — refreshed until they
 * settle, with a retry where registration failed.
 */
export function ReviewQueue() {
  return (
    <>
      <AwaitingSamples />
      <PrivateSamples />
      <DecidedSamples />
    </>
  );
}
