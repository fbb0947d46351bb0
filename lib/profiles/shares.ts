import { and, asc, count, eq, inArray } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '@/db/client';
import { groupMembers, groups, profileShares, profiles, users } from '@/db/schema';
import { recordProfileEvent } from '@/lib/audit/events';
import { Conflict, fieldInvalid, NotFound } from '@/lib/errors';
import { groupsVisibleTo } from '@/lib/groups/membership';
import { findActiveUser, getUser, type UserRecord } from '@/lib/users/users';
import { assertRoleAllows } from './access';
import type { NewShare, ProfileShare, ShareRole, Transfer, Transferred } from './contract';
import { checkProfileAccess, getProfile, mayUseType, type ProfileView } from './profiles';

/**
 * Sharing a profile: its owner (or an admin) shares it with people and groups, each with a role, and may give it to
 * another owner. Those it is shared with see the shares; what each role allows is lib/profiles/access.ts.
 */

const sharer = alias(users, 'sharer');
const grantee = alias(users, 'grantee');
const groupOwner = alias(users, 'group_owner');

/** The profile's shares, people first, then groups, by name. */
export async function listShares(db: Db, user: UserRecord, profileId: string): Promise<ProfileShare[]> {
  const profile = await getProfile(db, user, profileId);
  return sharesOf(db, profile.id);
}

/** The shares of a profile the caller may see (or the one share `shareId`), as the API answers them. */
async function sharesOf(db: Db, profileId: string, shareId?: number): Promise<ProfileShare[]> {
  const rows = await db
    .select({
      id: profileShares.id,
      role: profileShares.role,
      username: grantee.username,
      groupId: groups.id,
      groupName: groups.name,
      groupOwner: groupOwner.username,
      sharedBy: sharer.username,
      createdAt: profileShares.createdAt,
    })
    .from(profileShares)
    .leftJoin(grantee, eq(grantee.id, profileShares.userId))
    .leftJoin(groups, eq(groups.id, profileShares.groupId))
    .leftJoin(groupOwner, eq(groupOwner.id, groups.ownerId))
    .leftJoin(sharer, eq(sharer.id, profileShares.createdBy))
    .where(and(eq(profileShares.profileId, profileId), shareId === undefined ? undefined : eq(profileShares.id, shareId)))
    .orderBy(asc(groups.name), asc(grantee.username), asc(profileShares.id));
  const groupIds = rows.flatMap((r) => (r.groupId === null ? [] : [r.groupId]));
  const sizes = groupIds.length
    ? await db
        .select({ groupId: groupMembers.groupId, n: count() })
        .from(groupMembers)
        .where(inArray(groupMembers.groupId, groupIds))
        .groupBy(groupMembers.groupId)
    : [];
  return rows.map((r) => ({
    id: r.id,
    role: r.role,
    username: r.username,
    group:
      r.groupId === null
        ? null
        : {
            id: r.groupId,
            name: r.groupName ?? '',
            owner: r.groupOwner ?? '',
            members: sizes.find((s) => s.groupId === r.groupId)?.n ?? 0,
          },
    shared_by: r.sharedBy,
    date_created: r.createdAt.toISOString(),
  }));
}

/** Refuses a person who could not use the profile's type (a Tree of Life project they are not a member of). */
async function assertMayUse(db: Db, userId: number, profile: ProfileView) {
  const person = await getUser(db, userId);
  if (mayUseType(person, profile.type)) return;
  throw fieldInvalid(
    'username',
    `${person.username} is not a member of the ${profile.type.toUpperCase()} project: an administrator adds them to it first`,
  );
}

/** The grantee of a new share: a person other than the owner, or a group the sharer may see. */
async function granteeOf(db: Db, user: UserRecord, profile: ProfileView, input: NewShare) {
  if ('username' in input) {
    const person = await findActiveUser(db, input.username, 'username');
    if (person.id === profile.ownerId) {
      throw fieldInvalid('username', `${person.username} owns this profile already`);
    }
    return { userId: person.id, groupId: null, name: person.username };
  }
  const [group] = await db
    .select({ id: groups.id, name: groups.name })
    .from(groups)
    .where(and(eq(groups.id, input.group_id), groupsVisibleTo(db, user)));
  if (!group) throw fieldInvalid('group_id', `No group of yours has the id ${input.group_id}`);
  return { userId: null, groupId: group.id, name: `group ${group.name}` };
}

/**
 * Shares the profile (owner, admin), or changes the role of an existing share with the same person or group.
 * Answers the share and whether it is new.
 */
export async function shareProfile(
  db: Db,
  user: UserRecord,
  profileId: string,
  input: NewShare,
): Promise<{ share: ProfileShare; created: boolean }> {
  const profile = await getProfile(db, user, profileId, 'own');
  const who = await granteeOf(db, user, profile, input);
  // a Tree of Life profile is used by the project's members only: a share with anyone else would give nothing
  if (who.userId !== null) await assertMayUse(db, who.userId, profile);
  const { id, created } = await db.transaction(async (tx) => {
    const target = who.userId !== null ? eq(profileShares.userId, who.userId) : eq(profileShares.groupId, who.groupId as number);
    const [existing] = await tx
      .select()
      .from(profileShares)
      .where(and(eq(profileShares.profileId, profile.id), target))
      .for('update');
    if (existing) {
      if (existing.role !== input.role) {
        await tx.update(profileShares).set({ role: input.role }).where(eq(profileShares.id, existing.id));
        await recordProfileEvent(tx, user, profile.id, 'share', { with: who.name, role: input.role, was: existing.role });
      }
      return { id: existing.id, created: false };
    }
    const [made] = await tx
      .insert(profileShares)
      .values({ profileId: profile.id, userId: who.userId, groupId: who.groupId, role: input.role, createdBy: user.id })
      .onConflictDoNothing()
      .returning({ id: profileShares.id });
    // a share made by a racing request for the same person: the same answer as sharing again
    if (!made) throw Conflict(`The profile was shared with ${who.name} at the same moment; reload to see it.`);
    await recordProfileEvent(tx, user, profile.id, 'share', { with: who.name, role: input.role });
    return { id: made.id, created: true };
  });
  const [share] = await sharesOf(db, profile.id, id);
  if (!share) throw NotFound('Share not found');
  return { share, created };
}

/**
 * Ends a share: the owner and admins end any; a person may end their own (leave the profile). Access ends at once.
 */
export async function unshareProfile(db: Db, user: UserRecord, profileId: string, shareId: number): Promise<void> {
  const profile = await getProfile(db, user, profileId);
  const [share] = await sharesOf(db, profile.id, shareId);
  if (!share) throw NotFound('Share not found');
  if (share.username !== user.username) assertRoleAllows(profile.role, 'own');
  await db.transaction(async (tx) => {
    await tx.delete(profileShares).where(eq(profileShares.id, share.id));
    const name = share.username ?? `group ${share.group?.name ?? ''}`;
    await recordProfileEvent(tx, user, profile.id, 'unshare', { with: name, role: share.role });
  });
}

/**
 * Gives the profile to another owner (its owner, an admin). The new owner must be active and, for a Tree of Life
 * profile, a member of its project; a title they already use is 409. The former owner keeps the role asked for
 * (contributor by default) as a share; a share the new owner had is gone, since they own it now.
 */
export async function transferProfile(db: Db, user: UserRecord, profileId: string, input: Transfer): Promise<Transferred> {
  const current = await getProfile(db, user, profileId, 'own');
  const next = await findActiveUser(db, input.username, 'username');
  if (next.id === current.ownerId) throw fieldInvalid('username', `${next.username} owns this profile already`);
  await assertMayUse(db, next.id, current);
  await db.transaction(async (tx) => {
    const [locked] = await tx.select().from(profiles).where(eq(profiles.id, current.id)).for('update');
    await checkProfileAccess(tx, locked, user, 'own');
    const [clash] = await tx
      .select({ id: profiles.id })
      .from(profiles)
      .where(and(eq(profiles.ownerId, next.id), eq(profiles.title, current.title)));
    if (clash) throw Conflict(`${next.username} already has a profile titled '${current.title}'; rename one first.`);
    await tx.update(profiles).set({ ownerId: next.id }).where(eq(profiles.id, current.id));
    await tx.delete(profileShares).where(and(eq(profileShares.profileId, current.id), eq(profileShares.userId, next.id)));
    if (input.former_owner_role !== 'none') {
      const role: ShareRole = input.former_owner_role;
      await tx
        .insert(profileShares)
        .values({ profileId: current.id, userId: current.ownerId, role, createdBy: user.id })
        .onConflictDoUpdate({ target: [profileShares.profileId, profileShares.userId], set: { role } });
    }
    await recordProfileEvent(tx, user, current.id, 'transfer', {
      from: current.ownerUsername,
      to: next.username,
      former_owner_role: input.former_owner_role,
    });
  });
  return { profile_id: current.id, owner: next.username, former_owner: current.ownerUsername, former_owner_role: input.former_owner_role };
}

/** What an admin sees of each user's working together: the groups they are in, and the profiles shared with them. */
export interface Collaboration {
  groups: string[];
  sharedProfiles: { id: string; title: string; role: ShareRole; via: string | null }[];
}

export async function collaborationOf(db: Db, userIds: number[]): Promise<Map<number, Collaboration>> {
  const out = new Map<number, Collaboration>(userIds.map((id) => [id, { groups: [], sharedProfiles: [] }]));
  if (!userIds.length) return out;
  const memberships = await db
    .select({ userId: groupMembers.userId, name: groups.name })
    .from(groupMembers)
    .innerJoin(groups, eq(groups.id, groupMembers.groupId))
    .where(inArray(groupMembers.userId, userIds))
    .orderBy(asc(groups.name));
  for (const m of memberships) out.get(m.userId)?.groups.push(m.name);
  const direct = await db
    .select({ userId: profileShares.userId, id: profiles.id, title: profiles.title, role: profileShares.role })
    .from(profileShares)
    .innerJoin(profiles, eq(profiles.id, profileShares.profileId))
    .where(inArray(profileShares.userId, userIds));
  const viaGroups = await db
    .select({ userId: groupMembers.userId, id: profiles.id, title: profiles.title, role: profileShares.role, via: groups.name })
    .from(profileShares)
    .innerJoin(profiles, eq(profiles.id, profileShares.profileId))
    .innerJoin(groups, eq(groups.id, profileShares.groupId))
    .innerJoin(groupMembers, eq(groupMembers.groupId, groups.id))
    .where(inArray(groupMembers.userId, userIds));
  for (const s of [...direct.map((d) => ({ ...d, via: null })), ...viaGroups]) {
    if (s.userId !== null) out.get(s.userId)?.sharedProfiles.push({ id: s.id, title: s.title, role: s.role, via: s.via });
  }
  for (const c of out.values()) c.sharedProfiles.sort((a, b) => a.title.localeCompare(b.title));
  return out;
}
