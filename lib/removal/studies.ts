import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { studies, submissions } from '@/db/schema';
import { NEVER_DELETED, recordRemovals } from '@/lib/audit/events';
import { requireSchema } from '@/lib/checklists/definitions';
import { Conflict, NotFound } from '@/lib/errors';
import { isProfileId } from '@/lib/identifiers/contract';
import { studyAccession } from '@/lib/studies/accessions';
import type { StudyAccessions } from '@/lib/studies/contract';
import type { SubmissionStatus } from '@/lib/submissions/contract';
import { REPOSITORIES } from '@/lib/submissions/contract';
import type { UserRecord } from '@/lib/users/users';
import { lockProfileFor } from './samples';

const STUDY_NOT_FOUND = 'No record found';
// a submission in one of these states is at a repository, or on its way there
const HELD: SubmissionStatus[] = ['pending', 'processing', 'accepted', 'published'];
const AT = { ena: 'ENA', zenodo: 'Zenodo' } as const;

/** Why the study may not be deleted, in words, or null when it may. */
export function studyRemovalRefusal(
  studyId: string,
  accessions: StudyAccessions,
  held: readonly { repository: 'ena' | 'zenodo'; status: SubmissionStatus }[],
): string | null {
  const running = held.find((s) => s.status === 'pending' || s.status === 'processing');
  if (running)
    return `Study ${studyId} is being submitted to ${AT[running.repository]}; it cannot be deleted while it is on its way, since ${NEVER_DELETED}`;
  for (const repo of REPOSITORIES) {
    const accession = studyAccession(accessions, repo);
    if (accession) return `Study ${studyId} was accepted by ${AT[repo]} (${accession}): ${NEVER_DELETED}`;
  }
  const sent = held[0];
  if (sent) return `Study ${studyId} was ${sent.status} by ${AT[sent.repository]}: ${NEVER_DELETED}`;
  // read rows ENA accessioned while the study's own accession was not recorded (an interrupted submission)
  if (Object.keys(accessions.ena?.file ?? {}).length) return `Study ${studyId} has rows ENA accessioned: ${NEVER_DELETED}`;
  return null;
}

/**
 * Deletes a study of a profile the caller owns (or any, for an admin) that was never sent anywhere: no submission
 * queued, running, accepted or published, no accession. Its rejected or failed submissions go with it (their
 * foreign key cascades); one audit event records it. 404 for an unknown profile, schema or study; 409 otherwise.
 */
export async function deleteStudy(
  db: Db,
  user: UserRecord,
  input: { profileId: string; schemaName: string; studyId: string },
): Promise<void> {
  if (!isProfileId(input.profileId)) throw NotFound('Profile not found');
  const schema = requireSchema(input.schemaName);
  await db.transaction(async (tx) => {
    await lockProfileFor(tx, user, input.profileId, 'Profile not found', 'contribute');
    // the study locked: a submission starting now inserts a row that references it, so it waits for this removal
    // and then finds no study; one that started first is seen below
    const [study] = await tx
      .select()
      .from(studies)
      .where(and(eq(studies.profileId, input.profileId), eq(studies.schemaName, schema), eq(studies.studyId, input.studyId)))
      .for('update');
    if (!study) throw NotFound(STUDY_NOT_FOUND);
    const held = await tx
      .select({ repository: submissions.repository, status: submissions.status })
      .from(submissions)
      .where(and(eq(submissions.studyRowId, study.id), inArray(submissions.status, HELD)))
      .orderBy(desc(submissions.createdAt));
    const refusal = studyRemovalRefusal(study.studyId, study.accessions, held);
    if (refusal) throw Conflict(refusal);
    await tx.delete(studies).where(eq(studies.id, study.id));
    await recordRemovals(tx, user, [
      {
        objectType: 'study',
        objectId: study.id,
        profileId: study.profileId,
        detail: {
          study_id: study.studyId,
          schema_name: study.schemaName,
          checklist_id: study.checklistId,
          title: study.components.study?.[0]?.title ?? study.components.study?.[0]?.project_name ?? null,
        },
      },
    ]);
  });
}
