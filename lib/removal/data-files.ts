import { and, eq, or, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '@/db/client';
import { profileFiles, studies, submissions } from '@/db/schema';
import { NEVER_DELETED, recordRemovals } from '@/lib/audit/events';
import { getChecklistDefinition } from '@/lib/checklists/definitions';
import { AppError, Conflict, NotFound, Unavailable } from '@/lib/errors';
import { fileStore } from '@/lib/files/files';
import { assertFileName } from '@/lib/files/names';
import type { FileDeps } from '@/lib/files/store';
import { isProfileId } from '@/lib/identifiers/contract';
import { getProfile } from '@/lib/profiles/profiles';
import { dataFilesOf } from '@/lib/submissions/study/data-files';
import type { UserRecord } from '@/lib/users/users';
import { lockProfileFor } from './samples';

/**
 * Which of a profile's data files its studies use, and the removal of one that none does. A file a study names
 * may be sent with it; one a submission sent is at a repository: neither is deleted.
 */

const PROFILE_NOT_FOUND = 'Profile not found';

/** Per file name, the studies of the profile whose sheets name it (any schema), by study id. */
export async function filesInUse(db: Db, profileId: string): Promise<Map<string, string[]>> {
  const rows = await db
    .select({ studyId: studies.studyId, schemaName: studies.schemaName, checklistId: studies.checklistId, components: studies.components })
    .from(studies)
    .where(eq(studies.profileId, profileId))
    .orderBy(studies.studyId);
  const used = new Map<string, string[]>();
  for (const s of rows) {
    const def = await getChecklistDefinition(db, s.schemaName, s.checklistId);
    for (const f of dataFilesOf(def, s.components)) used.set(f.name, [...(used.get(f.name) ?? []), s.studyId]);
  }
  return used;
}

/** Why the file may not be deleted, in words, or null when it may. */
async function fileRemovalRefusal(db: Db, profileId: string, fileName: string): Promise<string | null> {
  const [sent] = await db
    .select({ id: submissions.id, repository: submissions.repository })
    .from(submissions)
    .where(
      and(
        eq(submissions.profileId, profileId),
        or(
          sql`jsonb_exists(coalesce(${submissions.progress} -> 'files', '{}'::jsonb), ${fileName})`,
          sql`jsonb_exists(coalesce(${submissions.accessions} -> 'files', '[]'::jsonb), ${fileName})`,
        ),
      ),
    )
    .limit(1);
  if (sent) return `File ${fileName} was sent to ${sent.repository === 'ena' ? 'ENA' : 'Zenodo'} (submission ${sent.id}): ${NEVER_DELETED}`;
  const users = (await filesInUse(db, profileId)).get(fileName);
  if (users?.length) {
    const named = users.length === 1 ? `study ${users[0]}` : `studies ${users.join(', ')}`;
    return `File ${fileName} is named by ${named}; change or delete the study first, since a study is sent with its files.`;
  }
  return null;
}

/**
 * Deletes one data file of a profile the caller owns (or any, for an admin) that no study names and no submission
 * sent: its record and audit event in one transaction, its stored bytes last before the commit, so a storage that
 * cannot remove them leaves everything as it was (503). 404 for an unknown profile or file, 409 for one in use.
 */
export async function deleteDataFile(
  deps: FileDeps & { logger?: Logger },
  user: UserRecord,
  profileId: string,
  fileName: string,
): Promise<void> {
  if (!isProfileId(profileId)) throw NotFound(PROFILE_NOT_FOUND);
  assertFileName(fileName);
  const store = fileStore(deps);
  // read before the transaction: the store reads on a connection of its own (local storage: the database's pool,
  // which the embedded database shares with the transaction)
  await getProfile(deps.db, user, profileId, 'contribute');
  const file = await store.stat(profileId, fileName);
  if (!file) throw NotFound(`File ${fileName} is not among the profile's data files`);
  await deps.db.transaction(async (tx) => {
    // the profile locked: a second removal, or the profile's own, waits for this one
    await lockProfileFor(tx, user, profileId, PROFILE_NOT_FOUND, 'contribute');
    const refusal = await fileRemovalRefusal(tx, profileId, fileName);
    if (refusal) throw Conflict(refusal);
    await tx.delete(profileFiles).where(and(eq(profileFiles.profileId, profileId), eq(profileFiles.fileName, fileName)));
    await recordRemovals(tx, user, [
      {
        objectType: 'data_file',
        objectId: `${profileId}/${fileName}`,
        profileId,
        detail: { file_name: fileName, size_in_bytes: file.sizeInBytes, etag: file.etag },
      },
    ]);
    try {
      await store.remove(profileId, fileName);
    } catch (err) {
      if (err instanceof AppError) throw err;
      deps.logger?.error({ err, profile_id: profileId, file_name: fileName }, 'a data file could not be removed from storage');
      throw Unavailable(`The storage could not remove ${fileName}; nothing was changed. Try again in a few minutes.`);
    }
  });
}
