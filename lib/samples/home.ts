import type { Db } from '@/db/client';
import type { UserRecord } from '@/lib/users/users';
import { countAwaitingReview } from './decision';
import { awaitingTolids, recentlyRejected } from './rejected';
import { manifestsAwaiting } from './review';

/** manifests to review named on the home page; the queue has them all */
const MANIFESTS_NAMED = 5;

/** What the user's samples ask of them, and of their reviewers, on the home page. */
export interface SamplesWaiting {
  /** samples waiting for the user's review (0 for who reviews none) */
  awaiting: number;
  /** the manifests those samples came from, the newest first (at most MANIFESTS_NAMED), and how many in all */
  toReview: Awaited<ReturnType<typeof manifestsAwaiting>>;
  /** samples of the user's profiles rejected since the time asked, the newest first */
  rejected: Awaited<ReturnType<typeof recentlyRejected>>;
  /** approved samples of the user's profiles waiting for a ToLID, by manifest */
  tolids: Awaited<ReturnType<typeof awaitingTolids>>;
}

/** The home page's samples: to review, rejected since `since`, and waiting for a ToLID. */
export async function samplesWaiting(db: Db, user: UserRecord, since: Date): Promise<SamplesWaiting> {
  const [awaiting, toReview, rejected, tolids] = await Promise.all([
    countAwaitingReview(db, user),
    manifestsAwaiting(db, user, MANIFESTS_NAMED),
    recentlyRejected(db, user, since),
    awaitingTolids(db, user),
  ]);
  return { awaiting, toReview, rejected, tolids };
}
