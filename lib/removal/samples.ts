import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '@/db/client';
import { idsOf } from '@/db/rows';
import { manifests, permits, profiles, samples, sampleUpdates, specimenImages, specimens, validationReports } from '@/db/schema';
import { NEVER_DELETED, type Removal, recordRemovals } from '@/lib/audit/events';
import { AppError, Conflict, NotFound } from '@/lib/errors';
import { fileStore } from '@/lib/files/files';
import type { FileDeps } from '@/lib/files/store';
import { isSvcId } from '@/lib/identifiers/contract';
import { type ProfileNeed, roleAllows, roleOn } from '@/lib/profiles/access';
import { checkProfileAccess, type ProfileRecord } from '@/lib/profiles/profiles';
import { sampleIdentityColumns } from '@/lib/samples/columns';
import { openSubmissionsOf } from '@/lib/samples/registration';
import type { UserRecord } from '@/lib/users/users';

/**
 * Deleting Tree of Life samples that never reached a public archive (a mistaken upload), with what only they held:
 * their audit rows, their specimen record once no sample of the specimen is left, and their manifest (with its
 * permits and the validation reports confirmed into it) once its last sample goes. A sample that ENA accepted, or
 * that is on its way there, is never deleted.
 */

/** The columns a removal checks and names. */
export const removableColumns = {
  ...sampleIdentityColumns,
  rackOrPlateId: samples.rackOrPlateId,
  tubeOrWellId: samples.tubeOrWellId,
  scientificName: samples.scientificName,
  biosampleAccession: samples.biosampleAccession,
};
export type RemovableSample = { [K in keyof typeof removableColumns]: (typeof samples.$inferSelect)[K] };

const SAMPLE_NOT_FOUND = 'Sample not found';

/** How a person names the sample: its tube (or well), else its svc_id. */
export const sampleLabel = (s: Pick<RemovableSample, 'id' | 'tubeOrWellId'>) => s.tubeOrWellId || s.id;

/**
 * Why the sample may not be deleted, in words, or null when it may. Accepted, being sent, queued for sending, or
 * carrying an accession: any of these means ENA has it or may have it.
 */
export function sampleRemovalRefusal(s: Pick<RemovableSample, 'id' | 'tubeOrWellId' | 'status' | 'biosampleAccession'>): string | null {
  const label = `Sample ${sampleLabel(s)}`;
  if (s.status === 'accepted' || s.biosampleAccession) {
    return `${label} is accepted at ENA${s.biosampleAccession ? ` (${s.biosampleAccession})` : ''}: ${NEVER_DELETED}`;
  }
  if (s.status === 'sending') return `${label} is being sent to ENA and may be public in a moment: ${NEVER_DELETED}`;
  if (s.status === 'processing') {
    return `${label} is queued for registration at ENA; it cannot be deleted while it is on its way, since ${NEVER_DELETED}`;
  }
  return null;
}

/** The first of these samples that a registration under way (queued or running) holds, in words. */
async function registrationRefusal(tx: Db, rows: readonly Pick<RemovableSample, 'id' | 'tubeOrWellId'>[]): Promise<string | null> {
  if (!rows.length) return null;
  const open = await openSubmissionsOf(tx, idsOf(rows));
  const held = rows.find((r) => open.has(r.id));
  if (!held) return null;
  return `Sample ${sampleLabel(held)} is in a registration at ENA that is under way (submission ${open.get(held.id)}): ${NEVER_DELETED}`;
}

/** Why none of these samples, or the first that may not, can be deleted; null when all may. */
export async function samplesRemovalRefusal(tx: Db, rows: readonly RemovableSample[]): Promise<string | null> {
  for (const r of rows) {
    const refusal = sampleRemovalRefusal(r);
    if (refusal) return refusal;
  }
  return registrationRefusal(tx, rows);
}

const sampleRemoval = (s: RemovableSample): Removal => ({
  objectType: 'sample',
  objectId: s.id,
  profileId: s.profileId,
  detail: {
    project: s.project,
    status: s.status,
    tube_or_well_id: s.tubeOrWellId,
    rack_or_plate_id: s.rackOrPlateId,
    specimen_id: s.specimenId,
    scientific_name: s.scientificName,
    manifest_id: s.manifestId,
  },
});

// ids per statement: ten thousand samples stay a handful of statements
const BATCH = 1_000;
const chunks = <T>(list: readonly T[]) =>
  Array.from({ length: Math.ceil(list.length / BATCH) }, (_, i) => list.slice(i * BATCH, (i + 1) * BATCH));

/** What a removal of samples took away: its audit events, and the stored bytes to remove once it has committed. */
export interface RemovedSamples {
  events: Removal[];
  /** the stored image files and thumbnails of the manifests that went (lib/images/upload.ts stores them) */
  storedFiles: { profileId: string; name: string }[];
}

/**
 * Removes the samples (which the caller has locked and checked) in the caller's transaction, with their audit
 * rows, the specimen records and manifests only they used (with the manifests' specimen images), and returns what
 * went. A specimen registered at ENA stays; so does one another sample (of any profile) still comes from.
 */
export async function removeSamples(tx: Db, rows: readonly RemovableSample[]): Promise<RemovedSamples> {
  if (!rows.length) return { events: [], storedFiles: [] };
  const events = rows.map(sampleRemoval);
  const storedFiles: RemovedSamples['storedFiles'] = [];
  for (const part of chunks(rows.map((r) => r.id))) {
    await tx.delete(sampleUpdates).where(inArray(sampleUpdates.sampleId, part));
    await tx.delete(samples).where(inArray(samples.id, part));
  }
  events.push(...(await removeOrphanSpecimens(tx, rows)));

  const manifestIds = [...new Set(rows.map((r) => r.manifestId))];
  // locked before they are counted: a re-upload confirming into one of them waits (it also locks the profile)
  await tx.select({ id: manifests.id }).from(manifests).where(inArray(manifests.id, manifestIds)).for('update');
  const kept = await tx.selectDistinct({ manifestId: samples.manifestId }).from(samples).where(inArray(samples.manifestId, manifestIds));
  const emptied = manifestIds.filter((id) => !kept.some((k) => k.manifestId === id));
  if (emptied.length) {
    // a manifest's permits and the reports confirmed into it describe only its samples: they go with the last one
    await tx.delete(permits).where(inArray(permits.manifestId, emptied));
    // images were uploaded for the manifest's specimens: their records go by the foreign key, their bytes after the commit
    const images = await tx.delete(specimenImages).where(inArray(specimenImages.manifestId, emptied)).returning({
      profileId: specimenImages.profileId,
      storedName: specimenImages.storedName,
      thumbnailName: specimenImages.thumbnailName,
    });
    for (const i of images)
      storedFiles.push({ profileId: i.profileId, name: i.storedName }, { profileId: i.profileId, name: i.thumbnailName });
    const reports = await tx.delete(validationReports).where(inArray(validationReports.confirmedManifestId, emptied)).returning({
      id: validationReports.id,
      profileId: validationReports.profileId,
      fileName: validationReports.fileName,
      manifestId: validationReports.confirmedManifestId,
    });
    await tx.delete(manifests).where(inArray(manifests.id, emptied));
    for (const e of events)
      if (e.objectType === 'sample' && emptied.includes(String(e.detail.manifest_id))) e.detail.manifest_removed = 'yes';
    if (images.length) {
      const first = events.find((e) => e.objectType === 'sample' && e.detail.manifest_removed === 'yes');
      if (first) first.detail.images_removed = images.length;
    }
    events.push(
      ...reports.map(
        (r): Removal => ({
          objectType: 'validation_report',
          objectId: r.id,
          profileId: r.profileId,
          detail: { file_name: r.fileName, manifest_id: r.manifestId, reason: 'its manifest’s last sample was deleted' },
        }),
      ),
    );
  }
  return { events, storedFiles };
}

/** Removes stored bytes whose records a committed removal took away; what cannot be removed is logged, not refused. */
export async function removeStoredFiles(deps: FileDeps & { logger?: Logger }, files: RemovedSamples['storedFiles']): Promise<void> {
  const store = fileStore(deps);
  for (const f of files) {
    try {
      await store.remove(f.profileId, f.name);
    } catch (err) {
      deps.logger?.error({ err, profile_id: f.profileId, file_name: f.name }, 'a removed image could not be removed from storage');
    }
  }
}

/** Specimen records of these (removed) samples that no sample comes from any more and ENA does not hold. */
async function removeOrphanSpecimens(tx: Db, rows: readonly RemovableSample[]): Promise<Removal[]> {
  const keys = new Map<string, { project: string; specimenId: string }>();
  for (const r of rows) if (r.specimenId) keys.set(`${r.project}/${r.specimenId}`, { project: r.project, specimenId: r.specimenId });
  if (!keys.size) return [];
  const events: Removal[] = [];
  for (const part of chunks([...keys.values()])) {
    const matches = sql`(${specimens.project}, ${specimens.specimenId}) in (select * from unnest(${sql.param(part.map((k) => k.project))}::text[], ${sql.param(part.map((k) => k.specimenId))}::text[]))`;
    const found = await tx
      .select({ id: specimens.id, project: specimens.project, specimenId: specimens.specimenId })
      .from(specimens)
      .where(matches)
      .for('update');
    if (!found.length) continue;
    const used = await tx
      .selectDistinct({ project: samples.project, specimenId: samples.specimenId })
      .from(samples)
      .where(
        sql`(${samples.project}, ${samples.specimenId}) in (select * from unnest(${sql.param(found.map((k) => k.project))}::text[], ${sql.param(found.map((k) => k.specimenId))}::text[]))`,
      );
    const orphans = found.filter((s) => !used.some((u) => u.project === s.project && u.specimenId === s.specimenId));
    if (!orphans.length) continue;
    const gone = await tx
      .delete(specimens)
      .where(and(inArray(specimens.id, idsOf(orphans)), isNull(specimens.biosampleAccession)))
      .returning({
        id: specimens.id,
        project: specimens.project,
        specimenId: specimens.specimenId,
        profileId: specimens.profileId,
        publicName: specimens.publicName,
      });
    events.push(
      ...gone.map(
        (s): Removal => ({
          objectType: 'specimen',
          objectId: s.id,
          profileId: s.profileId,
          detail: { project: s.project, specimen_id: s.specimenId, public_name: s.publicName },
        }),
      ),
    );
  }
  return events;
}

/**
 * The profile, locked, if the caller may do what `need` says with it (lib/profiles/access.ts): anyone who cannot see
 * it gets `notFound`; a viewer, 403.
 */
export async function lockProfileFor(
  tx: Db,
  user: UserRecord,
  profileId: string,
  notFound: string,
  need: ProfileNeed,
): Promise<ProfileRecord> {
  const [profile] = await tx.select().from(profiles).where(eq(profiles.id, profileId)).for('update');
  try {
    return await checkProfileAccess(tx, profile, user, need);
  } catch (err) {
    // the profile's own 404 sentence would name what the caller asked about wrongly
    if (err instanceof AppError && err.code === 'not_found') throw NotFound(notFound);
    throw err;
  }
}

/**
 * Deletes one sample of a profile the caller owns (or any, for an admin) that never reached ENA, with its audit
 * rows, and its specimen record and manifest (with the manifest's images) when it was their last sample; one audit
 * event for each thing removed.
 * 404 for an unknown sample or one the caller may not change; 409, and nothing changed, for one ENA has or may have.
 */
export async function deleteSample(deps: FileDeps & { logger?: Logger }, user: UserRecord, svcId: string): Promise<void> {
  const id = svcId.trim().toLowerCase();
  if (!isSvcId(id)) throw NotFound(SAMPLE_NOT_FOUND);
  const removed = await deps.db.transaction(async (tx) => {
    const [head] = await tx.select({ profileId: samples.profileId }).from(samples).where(eq(samples.id, id));
    if (!head) throw NotFound(SAMPLE_NOT_FOUND);
    // the profile first, as a confirmation does: a re-upload of this manifest and this removal take turns
    await lockProfileFor(tx, user, head.profileId, SAMPLE_NOT_FOUND, 'contribute');
    // locked, then checked: an approval that commits first is seen; one that comes later finds no sample
    const [sample] = await tx.select(removableColumns).from(samples).where(eq(samples.id, id)).for('update');
    if (!sample) throw NotFound(SAMPLE_NOT_FOUND);
    const refusal = await samplesRemovalRefusal(tx, [sample]);
    if (refusal) throw Conflict(refusal);
    const done = await removeSamples(tx, [sample]);
    await recordRemovals(tx, user, done.events);
    return done;
  });
  await removeStoredFiles(deps, removed.storedFiles);
}

/** What the sample page says about deleting the sample: nothing for who may not, else whether and why not. */
export async function sampleRemovalState(db: Db, user: UserRecord, sample: RemovableSample): Promise<{ refusal: string | null } | null> {
  const [profile] = await db.select({ id: profiles.id, ownerId: profiles.ownerId }).from(profiles).where(eq(profiles.id, sample.profileId));
  if (!profile || !roleAllows(await roleOn(db, user, profile), 'contribute')) return null;
  return { refusal: await samplesRemovalRefusal(db, [sample]) };
}
