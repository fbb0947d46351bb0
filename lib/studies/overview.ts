import { desc, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { profiles, studies } from '@/db/schema';
import { visibleProfiles } from '@/lib/profiles/access';
import type { UserRecord } from '@/lib/users/users';

/** Every study of the profiles the caller may see (all, for admins), most recently changed first. */
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
    .where(visibleProfiles(db, user))
    .orderBy(desc(studies.updatedAt))
    .limit(500);
}
