import { asc, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { manifests, profiles, sampleUpdates, samples } from '@/db/schema';
import { NotFound } from '@/lib/errors';
import { managesProject, type UserRecord } from '@/lib/users/users';

/** Who may look at a profile's samples in the portal: its owner, the project's sample managers, admins. */
const maySee = (user: UserRecord, ownerId: number, project: string) =>
  user.isAdmin || ownerId === user.id || managesProject(user, project as 'dtol');

export async function manifestsForUser(db: Db, user: UserRecord) {
  const rows = await db
    .select({
      id: manifests.id,
      project: manifests.project,
      version: manifests.version,
      fileName: manifests.fileName,
      createdAt: manifests.createdAt,
      profileId: profiles.id,
      profileTitle: profiles.title,
      ownerId: profiles.ownerId,
      samples: sql<number>`(select count(*)::int from ${samples} where ${samples.manifestId} = ${manifests.id})`,
    })
    .from(manifests)
    .innerJoin(profiles, eq(profiles.id, manifests.profileId))
    .where(user.isAdmin ? undefined : eq(profiles.ownerId, user.id))
    .orderBy(desc(manifests.createdAt))
    .limit(200);
  return rows;
}

export async function manifestWithSamples(db: Db, user: UserRecord, manifestId: string) {
  if (!/^[0-9a-f-]{36}$/i.test(manifestId)) throw NotFound('Manifest not found');
  const [m] = await db
    .select({ manifest: manifests, profileTitle: profiles.title, ownerId: profiles.ownerId })
    .from(manifests)
    .innerJoin(profiles, eq(profiles.id, manifests.profileId))
    .where(eq(manifests.id, manifestId.toLowerCase()));
  if (!m || !maySee(user, m.ownerId, m.manifest.project)) throw NotFound('Manifest not found');
  const rows = await db
    .select({
      id: samples.id,
      status: samples.status,
      specimenId: samples.specimenId,
      rackOrPlateId: samples.rackOrPlateId,
      tubeOrWellId: samples.tubeOrWellId,
      taxonId: samples.taxonId,
      scientificName: samples.scientificName,
      biosampleAccession: samples.biosampleAccession,
      timeUpdated: samples.timeUpdated,
    })
    .from(samples)
    .where(eq(samples.manifestId, m.manifest.id))
    .orderBy(asc(samples.timeCreated), asc(samples.id));
  return { manifest: m.manifest, profileTitle: m.profileTitle, samples: rows };
}

export async function sampleWithHistory(db: Db, user: UserRecord, svcId: string) {
  if (!/^[0-9a-f]{24}$/.test(svcId)) throw NotFound('Sample not found');
  const [row] = await db
    .select({ sample: samples, profileTitle: profiles.title, ownerId: profiles.ownerId })
    .from(samples)
    .innerJoin(profiles, eq(profiles.id, samples.profileId))
    .where(eq(samples.id, svcId));
  if (!row || !maySee(user, row.ownerId, row.sample.project)) throw NotFound('Sample not found');
  const history = await db
    .select({
      id: sampleUpdates.id,
      field: sampleUpdates.field,
      oldValue: sampleUpdates.oldValue,
      newValue: sampleUpdates.newValue,
      updateType: sampleUpdates.updateType,
      timeUpdated: sampleUpdates.timeUpdated,
    })
    .from(sampleUpdates)
    .where(eq(sampleUpdates.sampleId, svcId))
    .orderBy(desc(sampleUpdates.timeUpdated), desc(sampleUpdates.id));
  return { sample: row.sample, profileTitle: row.profileTitle, history };
}
