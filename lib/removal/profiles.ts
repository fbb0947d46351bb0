import { and, asc, eq, inArray, isNotNull, ne, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '@/db/client';
import {
  barcodes,
  manifests,
  permits,
  profiles,
  samples,
  specimens,
  studies,
  submissions,
  type TolProject,
  validationReports,
} from '@/db/schema';
import { NEVER_DELETED, type Removal, recordRemovals } from '@/lib/audit/events';
import { Conflict, NotFound } from '@/lib/errors';
import { fileStore } from '@/lib/files/files';
import type { FileDeps, StoredFile } from '@/lib/files/store';
import { isProfileId } from '@/lib/identifiers/contract';
import { getProfile, type ProfileRecord } from '@/lib/profiles/profiles';
import type { SubmissionStatus } from '@/lib/submissions/contract';
import type { UserRecord } from '@/lib/users/users';
import { profileBiodataRefusal, removeProfileBiodataSamples } from './biodata-samples';
import { lockProfileFor, type RemovableSample, removableColumns, removeSamples, samplesRemovalRefusal } from './samples';
import { studyRemovalRefusal } from './studies';

const PROFILE_NOT_FOUND = 'Profile not found';
// a submission in one of these states is at a repository, or on its way there
const HELD: SubmissionStatus[] = ['pending', 'processing', 'accepted', 'published'];

/**
 * Why the profile may not be deleted, in words, or null when it may: something of it reached a public archive (a
 * sample or specimen with an accession, an accepted or published submission) or is on its way there. The caller
 * has locked the profile and passes its samples, locked.
 */
async function profileRemovalRefusal(tx: Db, profile: ProfileRecord, held: readonly RemovableSample[]): Promise<string | null> {
  const why = (reason: string) => `Profile ${profile.title} cannot be deleted: ${reason}`;
  const sample = (await samplesRemovalRefusal(tx, held)) ?? (await profileBiodataRefusal(tx, profile.id));
  if (sample) return why(sample);
  // a barcode at ENA, or on its way there, stays with its profile
  const [barcode] = await tx
    .select({ entryNumber: barcodes.entryNumber, status: barcodes.status, accession: barcodes.accession })
    .from(barcodes)
    .where(and(eq(barcodes.profileId, profile.id), inArray(barcodes.status, ['accepted', 'processing'])))
    .limit(1);
  if (barcode) {
    return why(
      barcode.status === 'accepted'
        ? `barcode ${barcode.entryNumber} is at ENA${barcode.accession ? ` (${barcode.accession})` : ''}: ${NEVER_DELETED}`
        : `barcode ${barcode.entryNumber} is being sent to ENA and may be public in a moment: ${NEVER_DELETED}`,
    );
  }
  const registered = await tx
    .select({ specimenId: specimens.specimenId, accession: specimens.biosampleAccession, project: specimens.project })
    .from(specimens)
    .where(and(eq(specimens.profileId, profile.id), isNotNull(specimens.biosampleAccession)));
  for (const s of registered) {
    // one that another profile's samples come from moves to that profile instead (settleSpecimens)
    if (!(await usedElsewhere(tx, profile.id, s))) {
      return why(`specimen ${s.specimenId} is registered at ENA (${s.accession}): ${NEVER_DELETED}`);
    }
  }
  const [submission] = await tx
    .select({
      id: submissions.id,
      kind: submissions.kind,
      status: submissions.status,
      repository: submissions.repository,
      studyRowId: submissions.studyRowId,
    })
    .from(submissions)
    .where(and(eq(submissions.profileId, profile.id), inArray(submissions.status, HELD)))
    .limit(1);
  const its = await tx
    .select({ id: studies.id, studyId: studies.studyId, accessions: studies.accessions })
    .from(studies)
    .where(eq(studies.profileId, profile.id))
    .orderBy(asc(studies.studyId));
  if (submission) {
    const study = its.find((s) => s.id === submission.studyRowId);
    if (study) return why(studyRemovalRefusal(study.studyId, study.accessions, [submission]) ?? '');
    return why(`its submission ${submission.id} to ENA is ${submission.status}: ${NEVER_DELETED}`);
  }
  for (const s of its) {
    const refusal = studyRemovalRefusal(s.studyId, s.accessions, []);
    if (refusal) return why(refusal);
  }
  return null;
}

/** Whether a sample of another profile comes from the specimen (it then outlives this profile, under that one). */
async function usedElsewhere(tx: Db, profileId: string, s: { project: TolProject; specimenId: string }): Promise<string | null> {
  const [other] = await tx
    .select({ profileId: samples.profileId })
    .from(samples)
    .where(and(eq(samples.project, s.project), eq(samples.specimenId, s.specimenId), ne(samples.profileId, profileId)))
    .limit(1);
  return other?.profileId ?? null;
}

/**
 * What the profile page says about deleting the profile: nothing for who may not change it, else whether and why
 * not. Reads without locking: the removal itself checks again under its locks.
 */
export async function profileRemovalState(db: Db, user: UserRecord, profile: ProfileRecord): Promise<{ refusal: string | null } | null> {
  if (!(user.isAdmin || profile.ownerId === user.id)) return null;
  const held = await db.select(removableColumns).from(samples).where(eq(samples.profileId, profile.id));
  return { refusal: await profileRemovalRefusal(db, profile, held) };
}

/**
 * Deletes a profile the caller owns (or any, for an admin) and everything it holds, in one transaction: its samples
 * with their audit rows, the specimen records and manifests only they used, its validation reports and permits,
 * its studies and their finished submissions, its data files' records; an audit event for the profile and for each
 * sample, specimen, report, study and data file. Its stored files are removed after the commit: a failure there is
 * logged, not answered, since the profile is gone either way. 409, nothing changed, when anything of it reached a
 * public archive or is on its way there; 404 for an unknown profile or one the caller may not change.
 */
export async function deleteProfile(deps: FileDeps & { logger: Logger }, user: UserRecord, profileId: string): Promise<void> {
  if (!isProfileId(profileId)) throw NotFound(PROFILE_NOT_FOUND);
  const { db, logger } = deps;
  const store = fileStore(deps);
  // listed before the transaction, for the audit events: the store reads on a connection of its own (local storage:
  // the database's pool, which the embedded database shares with the transaction). The profile's lock below keeps
  // a removal of a file from racing this one; an upload that lands in between is removed with the rest.
  await getProfile(db, user, profileId, 'own');
  const files: StoredFile[] = await store.list(profileId);
  await db.transaction(async (tx) => {
    const profile = await lockProfileFor(tx, user, profileId, PROFILE_NOT_FOUND, 'own');
    // every sample locked before any is checked: an approval waits, or has committed and is seen
    const held = await tx.select(removableColumns).from(samples).where(eq(samples.profileId, profileId)).for('update');
    const refusal = await profileRemovalRefusal(tx, profile, held);
    if (refusal) throw Conflict(refusal);

    // the stored images go with every other stored file of the profile, below
    const { events } = await removeSamples(tx, held);
    events.push(...(await removeProfileBiodataSamples(tx, profileId)));
    events.push(...(await settleSpecimens(tx, profileId)));
    // manifests without samples left (none should be), with their permits: the foreign key would refuse the profile
    const empty = await tx.select({ id: manifests.id }).from(manifests).where(eq(manifests.profileId, profileId));
    if (empty.length) {
      const ids = empty.map((m) => m.id);
      await tx.delete(permits).where(inArray(permits.manifestId, ids));
      await tx.delete(manifests).where(inArray(manifests.id, ids));
    }
    const reports = await tx
      .select({ id: validationReports.id, fileName: validationReports.fileName, status: validationReports.status })
      .from(validationReports)
      .where(eq(validationReports.profileId, profileId));
    const its = await tx
      .select({ id: studies.id, studyId: studies.studyId, schemaName: studies.schemaName })
      .from(studies)
      .where(eq(studies.profileId, profileId));
    // the sample registrations and study submissions that are left all failed or were rejected: records of nothing
    await tx.delete(submissions).where(eq(submissions.profileId, profileId));
    // reports (with their permits), studies and file records go by their foreign keys' cascade
    await tx.delete(profiles).where(eq(profiles.id, profileId));
    events.push(
      ...reports.map(
        (r): Removal => ({
          objectType: 'validation_report',
          objectId: r.id,
          profileId,
          detail: { file_name: r.fileName, status: r.status },
        }),
      ),
      ...its.map(
        (s): Removal => ({ objectType: 'study', objectId: s.id, profileId, detail: { study_id: s.studyId, schema_name: s.schemaName } }),
      ),
      ...files.map(
        (f): Removal => ({
          objectType: 'data_file',
          objectId: `${profileId}/${f.fileName}`,
          profileId,
          detail: { file_name: f.fileName, size_in_bytes: f.sizeInBytes },
        }),
      ),
    );
    const count = (type: Removal['objectType']) => events.filter((e) => e.objectType === type).length;
    events.unshift({
      objectType: 'profile',
      objectId: profileId,
      profileId,
      detail: {
        title: profile.title,
        type: profile.type,
        samples: count('sample'),
        specimens: count('specimen'),
        validation_reports: count('validation_report'),
        studies: count('study'),
        data_files: count('data_file'),
      },
    });
    await recordRemovals(tx, user, events);
  });
  try {
    await store.removeAll(profileId);
  } catch (err) {
    logger.error({ err, profile_id: profileId }, 'the data files of a deleted profile could not be removed from storage');
  }
}

/**
 * The specimen records the profile still owns once its samples are gone: one that another profile's samples come
 * from moves to that profile; any other goes (one registered at ENA was refused before).
 */
async function settleSpecimens(tx: Db, profileId: string): Promise<Removal[]> {
  const left = await tx.select().from(specimens).where(eq(specimens.profileId, profileId)).for('update');
  const gone: Removal[] = [];
  const drop: string[] = [];
  for (const s of left) {
    const heir = await usedElsewhere(tx, profileId, s);
    if (heir) await tx.update(specimens).set({ profileId: heir, timeUpdated: sql`now()` }).where(eq(specimens.id, s.id));
    else {
      drop.push(s.id);
      gone.push({
        objectType: 'specimen',
        objectId: s.id,
        profileId,
        detail: { project: s.project, specimen_id: s.specimenId, public_name: s.publicName },
      });
    }
  }
  if (drop.length) await tx.delete(specimens).where(inArray(specimens.id, drop));
  return gone;
}
