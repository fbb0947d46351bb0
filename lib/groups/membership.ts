import { eq, inArray, or, type SQL } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { groupMembers, groups } from '@/db/schema';
import type { UserRecord } from '@/lib/users/users';

/** The ids of the groups the user is a member of, as a subquery: membership is read at the time of asking. */
export const groupIdsOf = (db: Db, userId: number) =>
  db.select({ id: groupMembers.groupId }).from(groupMembers).where(eq(groupMembers.userId, userId));

/** The groups the user owns or belongs to, as a condition on `groups` (an admin's: every group, undefined). */
export const groupsVisibleTo = (db: Db, user: UserRecord): SQL | undefined =>
  user.isAdmin ? undefined : or(eq(groups.ownerId, user.id), inArray(groups.id, groupIdsOf(db, user.id)));
