import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { isUniqueViolation } from '@/db/errors';
import { groupMembers, groups, users } from '@/db/schema';
import { Conflict, Forbidden, NotFound } from '@/lib/errors';
import { findActiveUser, type UserRecord } from '@/lib/users/users';
import type { Group, NewGroup, NewMember } from './contract';
import { groupsVisibleTo } from './membership';

/**
 * Groups of people, made and filled by any user: its owner adds and removes members (admins may too); a member sees
 * the group and may leave it. A profile shared with a group is shared with whoever is its member at the time of
 * asking (lib/profiles/access.ts), so people come and go without touching the profiles.
 */

const NOT_FOUND = 'Group not found';
type GroupRow = typeof groups.$inferSelect;

async function groupsJson(db: Db, user: UserRecord, rows: GroupRow[]): Promise<Group[]> {
  if (!rows.length) return [];
  const ids = rows.map((g) => g.id);
  const members = await db
    .select({ groupId: groupMembers.groupId, userId: users.id, username: users.username })
    .from(groupMembers)
    .innerJoin(users, eq(users.id, groupMembers.userId))
    .where(inArray(groupMembers.groupId, ids))
    .orderBy(asc(users.username));
  const owners = await db
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(inArray(users.id, [...new Set(rows.map((g) => g.ownerId))]));
  return rows.map((g) => ({
    id: g.id,
    name: g.name,
    owner: owners.find((o) => o.id === g.ownerId)?.username ?? '',
    members: members.filter((m) => m.groupId === g.id).map((m) => m.username),
    role: g.ownerId === user.id ? 'owner' : members.some((m) => m.groupId === g.id && m.userId === user.id) ? 'member' : 'admin',
    date_created: g.createdAt.toISOString(),
  }));
}

/** The caller's groups (those they own or belong to; an admin's: all), by name. */
export async function listGroups(db: Db, user: UserRecord): Promise<Group[]> {
  const rows = await db.select().from(groups).where(groupsVisibleTo(db, user)).orderBy(asc(groups.name), asc(groups.id)).limit(1000);
  return groupsJson(db, user, rows);
}

/** A group the caller may see; any other, and unknown ids, are the same 404. */
async function visibleGroup(db: Db, user: UserRecord, id: number): Promise<GroupRow> {
  const [row] = await db
    .select()
    .from(groups)
    .where(and(eq(groups.id, id), groupsVisibleTo(db, user)));
  if (!row) throw NotFound(NOT_FOUND);
  return row;
}

export async function getGroup(db: Db, user: UserRecord, id: number): Promise<Group> {
  const [group] = await groupsJson(db, user, [await visibleGroup(db, user, id)]);
  if (!group) throw NotFound(NOT_FOUND);
  return group;
}

/** Makes a group owned by the caller, who is its first member. Names are unique per owner (409). */
export async function createGroup(db: Db, user: UserRecord, input: NewGroup): Promise<Group> {
  try {
    const row = await db.transaction(async (tx) => {
      const [made] = await tx.insert(groups).values({ name: input.name, ownerId: user.id }).returning();
      if (!made) throw new Error('expected the inserted group');
      await tx.insert(groupMembers).values({ groupId: made.id, userId: user.id });
      return made;
    });
    return (await groupsJson(db, user, [row]))[0] as Group;
  } catch (err) {
    if (isUniqueViolation(err)) throw Conflict(`You already have a group named '${input.name}'`);
    throw err;
  }
}

/** The group, when the caller may change its members (its owner, an admin): a member is refused (403), others 404. */
async function ownedGroup(db: Db, user: UserRecord, id: number): Promise<GroupRow> {
  const row = await visibleGroup(db, user, id);
  if (!user.isAdmin && row.ownerId !== user.id) throw Forbidden(`Only the group’s owner can change its members.`);
  return row;
}

/** Adds a person to the group; adding a member again changes nothing. */
export async function addMember(db: Db, user: UserRecord, id: number, input: NewMember): Promise<Group> {
  const group = await ownedGroup(db, user, id);
  const member = await findActiveUser(db, input.username, 'username');
  await db.insert(groupMembers).values({ groupId: group.id, userId: member.id }).onConflictDoNothing();
  return getGroup(db, user, id);
}

/**
 * Removes a person from the group: its owner and admins remove anyone but the owner; a member may remove
 * themselves (leave). What the group was shared with is no longer theirs from this moment.
 */
export async function removeMember(db: Db, user: UserRecord, id: number, username: string): Promise<void> {
  const group = await visibleGroup(db, user, id);
  const [member] = await db
    .select({ id: users.id })
    .from(groupMembers)
    .innerJoin(users, eq(users.id, groupMembers.userId))
    .where(and(eq(groupMembers.groupId, id), eq(users.username, username)));
  if (!member) throw NotFound(`${username} is not a member of this group`);
  const leaving = member.id === user.id;
  if (!leaving && !user.isAdmin && group.ownerId !== user.id) throw Forbidden('Only the group’s owner can remove other members.');
  if (member.id === group.ownerId) throw Conflict('The group’s owner stays its member; delete the group instead.');
  await db.delete(groupMembers).where(and(eq(groupMembers.groupId, id), eq(groupMembers.userId, member.id)));
}

/** Deletes a group (its owner, an admin); every profile shared with it stops being shared with its members. */
export async function deleteGroup(db: Db, user: UserRecord, id: number): Promise<void> {
  const group = await ownedGroup(db, user, id);
  await db.delete(groups).where(eq(groups.id, group.id));
}
