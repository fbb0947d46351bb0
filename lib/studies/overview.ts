import { desc, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { profiles, studies } from '@/db/schema';
import type { UserRecord } from '@/lib/users/users';

/** Every study of the caller's profiles (all, for admins), most recently changed first. */
export async function studiesForUser(db: Db, user: UserRecord) {
  return db
    .select({
      studyId: studies.studyId,
      schemaName: studies.schemaName,
      checklistId: studies.checklistId,
      updatedAt: studies.updatedAt,
      profileId: profiles.id,
      profileTitle: profiles.title,
    })
    .from(studies)
    .innerJoin(profiles, eq(profiles.id, studies.profileId))
    .where(user.isAdmin ? undefined : eq(profiles.ownerId, user.id))
    .orderBy(desc(studies.updatedAt))
    .limit(500);
}
