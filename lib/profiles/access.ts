import { and, type Column, eq, inArray, isNotNull, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { groupMembers, profileShares, profiles } from '@/db/schema';
import { Forbidden } from '@/lib/errors';
import { groupIdsOf } from '@/lib/groups/membership';
import type { UserRecord } from '@/lib/users/users';
import type { ProfileRole } from './contract';

/**
 * Who may do what with a profile. Its owner and admins may do everything; a person it is shared with (directly or
 * through a group they are a member of at the time of asking) may see it as a `viewer` or also add to it as a
 * `contributor`. Everyone else is told it does not exist (the callers answer 404); someone who may see a profile but
 * not do what they asked is told so (403), since hiding what they can see would only confuse them.
 */

/** What an operation needs: to see the profile, to add to it (manifests, studies, files), or to own it. */
export type ProfileNeed = 'view' | 'contribute' | 'own';

const RANK: Record<ProfileRole, number> = { viewer: 0, contributor: 1, owner: 2, admin: 3 };
const NEEDED: Record<ProfileNeed, number> = { view: 0, contribute: 1, own: 2 };

/** The shares that reach the user: their own and their groups'. */
const sharesReaching = (db: Db, userId: number): SQL =>
  or(eq(profileShares.userId, userId), inArray(profileShares.groupId, groupIdsOf(db, userId))) as SQL;

/** The ids of the profiles shared with the user, with at least `need`'s role, as a subquery. */
const sharedWith = (db: Db, userId: number, need: ProfileNeed) =>
  db
    .select({ id: profileShares.profileId })
    .from(profileShares)
    .where(need === 'contribute' ? and(sharesReaching(db, userId), eq(profileShares.role, 'contributor')) : sharesReaching(db, userId));

/**
 * A condition on `column` (a profile id) that holds for the profiles the user may use as `need` says: all of them for
 * an admin (undefined: no condition), their own, and, short of owning, those shared with them.
 */
export function profilesWhere(db: Db, user: UserRecord, column: Column, need: ProfileNeed = 'view'): SQL | undefined {
  if (user.isAdmin) return undefined;
  const own = inArray(column, db.select({ id: profiles.id }).from(profiles).where(eq(profiles.ownerId, user.id)));
  if (need === 'own') return own;
  return or(own, inArray(column, sharedWith(db, user.id, need)));
}

/**
 * A condition on `column` (a profile id) that holds for the user's own profiles and those shared with them, an admin's
 * included: "my profiles", where profilesWhere would give an admin every profile.
 */
export function ownOrSharedProfiles(db: Db, user: UserRecord, column: Column): SQL {
  const own = inArray(column, db.select({ id: profiles.id }).from(profiles).where(eq(profiles.ownerId, user.id)));
  return or(own, inArray(column, sharedWith(db, user.id, 'view'))) as SQL;
}

/** The same condition on the profiles table itself, cheaper than the subquery on its own id. */
export function visibleProfiles(db: Db, user: UserRecord): SQL | undefined {
  if (user.isAdmin) return undefined;
  return or(eq(profiles.ownerId, user.id), inArray(profiles.id, sharedWith(db, user.id, 'view')));
}

/** The roles the user has through shares on each of the profiles (the owner's and an admin's are not shares). */
async function sharedRoles(db: Db, user: UserRecord, profileIds: string[]): Promise<Map<string, ProfileRole>> {
  const roles = new Map<string, ProfileRole>();
  if (!profileIds.length) return roles;
  const found = await db
    .select({ id: profileShares.profileId, contributes: sql<boolean>`bool_or(${profileShares.role} = 'contributor')` })
    .from(profileShares)
    .where(and(inArray(profileShares.profileId, profileIds), sharesReaching(db, user.id)))
    .groupBy(profileShares.profileId);
  for (const f of found) roles.set(f.id, f.contributes ? 'contributor' : 'viewer');
  return roles;
}

const ownRole = (user: UserRecord, profile: { ownerId: number }): ProfileRole | null =>
  user.isAdmin ? 'admin' : profile.ownerId === user.id ? 'owner' : null;

/** The user's role on a profile, or null when it is none of theirs. */
export async function roleOn(db: Db, user: UserRecord, profile: { id: string; ownerId: number }): Promise<ProfileRole | null> {
  return ownRole(user, profile) ?? (await sharedRoles(db, user, [profile.id])).get(profile.id) ?? null;
}

/** The user's role on each of the profiles (all of which they may see), with one query for those shared with them. */
export async function rolesOn<T extends { id: string; ownerId: number }>(
  db: Db,
  user: UserRecord,
  rows: T[],
): Promise<(T & { role: ProfileRole })[]> {
  const shared = await sharedRoles(
    db,
    user,
    rows.filter((r) => ownRole(user, r) === null).map((r) => r.id),
  );
  return rows.map((r) => ({ ...r, role: ownRole(user, r) ?? shared.get(r.id) ?? 'viewer' }));
}

/**
 * The people a profile's news reaches (acceptances, rejections, registrations): its owner and everyone it is shared
 * with, directly or as a member of a group it is shared with.
 */
export async function profilePeople(db: Db, profileId: string): Promise<number[]> {
  const shares = eq(profileShares.profileId, profileId);
  const rows = await db
    .select({ userId: profiles.ownerId })
    .from(profiles)
    .where(eq(profiles.id, profileId))
    .union(
      db
        .select({ userId: sql<number>`${profileShares.userId}` })
        .from(profileShares)
        .where(and(shares, isNotNull(profileShares.userId))),
    )
    .union(
      db
        .select({ userId: groupMembers.userId })
        .from(profileShares)
        .innerJoin(groupMembers, eq(groupMembers.groupId, profileShares.groupId))
        .where(shares),
    );
  return rows.map((r) => r.userId);
}

/** Whether a role is enough for what is asked. */
export const roleAllows = (role: ProfileRole | null, need: ProfileNeed): boolean => role !== null && RANK[role] >= NEEDED[need];

/**
 * Refuses what the role cannot do with a profile its holder can see (403, in words); a null role is for the caller to
 * answer as 404.
 */
export function assertRoleAllows(role: ProfileRole, need: ProfileNeed): void {
  if (roleAllows(role, need)) return;
  if (need === 'own') throw Forbidden('Only the profile’s owner (or an administrator) can do this.');
  throw Forbidden(
    'This profile is shared with you as a viewer: you can see it but not add to it or change it. Ask its owner to make you a contributor.',
  );
}
