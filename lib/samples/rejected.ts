import { and, desc, eq, gt } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { profiles, samples } from '@/db/schema';
import { visibleProfiles } from '@/lib/profiles/access';
import type { UserRecord } from '@/lib/users/users';

/**
 * The samples of the caller's profiles (their own and those shared with them) refused since `since`, newest first,
 * with the reason: what the home page tells a researcher, so that a manager's rejection reaches them without email.
 * An admin's are those of their own profiles only, not the whole service's.
 */
export async function recentlyRejected(db: Db, user: UserRecord, since: Date, limit = 20) {
  const mine = user.isAdmin ? eq(profiles.ownerId, user.id) : visibleProfiles(db, user);
  const rows = await db
    .select({
      id: samples.id,
      manifestId: samples.manifestId,
      tube: samples.tubeOrWellId,
      specimen: samples.specimenId,
      reason: samples.rejectionReason,
      at: samples.timeUpdated,
      profileId: profiles.id,
      profileTitle: profiles.title,
    })
    .from(samples)
    .innerJoin(profiles, eq(profiles.id, samples.profileId))
    .where(and(eq(samples.status, 'rejected'), gt(samples.timeUpdated, since), mine))
    .orderBy(desc(samples.timeUpdated), desc(samples.id))
    .limit(limit + 1);
  return { rows: rows.slice(0, limit), more: rows.length > limit };
}
