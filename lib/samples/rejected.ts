import { and, asc, desc, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { manifests, profiles, samples } from '@/db/schema';
import { profilesWhere, visibleProfiles } from '@/lib/profiles/access';
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
      // the manifest to download, correct and upload again
      manifestFile: manifests.fileName,
      tube: samples.tubeOrWellId,
      specimen: samples.specimenId,
      reason: samples.rejectionReason,
      at: samples.timeUpdated,
      profileId: profiles.id,
      profileTitle: profiles.title,
      // whether the reader may upload the corrected manifest: a viewer is told who can instead
      contributes: sql<boolean>`${profilesWhere(db, user, profiles.id, 'contribute') ?? sql`true`}`,
    })
    .from(samples)
    .innerJoin(profiles, eq(profiles.id, samples.profileId))
    .innerJoin(manifests, eq(manifests.id, samples.manifestId))
    .where(and(eq(samples.status, 'rejected'), gt(samples.timeUpdated, since), mine))
    .orderBy(desc(samples.timeUpdated), desc(samples.id))
    .limit(limit + 1);
  return { rows: rows.slice(0, limit), more: rows.length > limit };
}

/**
 * The samples of the caller's profiles that wait for their ToLID from the ToLID service (lib/samples/tolids.ts), by
 * manifest, oldest first: approved, they go on to ENA once the specimen has one. As for rejections, an admin's are
 * those of their own profiles.
 */
export async function awaitingTolids(db: Db, user: UserRecord, limit = 20) {
  const mine = user.isAdmin ? eq(profiles.ownerId, user.id) : visibleProfiles(db, user);
  return db
    .select({
      manifestId: manifests.id,
      manifestFile: manifests.fileName,
      profileTitle: profiles.title,
      samples: sql<number>`count(*)::int`,
      since: sql<Date>`min(${samples.timeUpdated})`.mapWith(samples.timeUpdated),
    })
    .from(samples)
    .innerJoin(profiles, eq(profiles.id, samples.profileId))
    .innerJoin(manifests, eq(manifests.id, samples.manifestId))
    .where(and(eq(samples.status, 'awaiting_tolid'), mine))
    .groupBy(manifests.id, manifests.fileName, profiles.title)
    .orderBy(asc(sql`min(${samples.timeUpdated})`), asc(manifests.id))
    .limit(limit);
}
