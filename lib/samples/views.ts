import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { manifests, profiles, sampleUpdates, samples, users } from '@/db/schema';
import { NotFound } from '@/lib/errors';
import { exportedFieldSet } from '@/lib/standards/fields';
import { isEmbargoed, renderSample, type SampleRecord, type SampleRow } from '@/lib/standards/render';
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

/** A stored timestamp as the UTC text the renderer takes (see lib/query/sql.ts utcText). */
const utc = (d: Date | null) => (d ? d.toISOString().replace('Z', '000') : null);

/** The sample as the public query API shows it (every exported field, nothing sensitive), for the public view. */
function publicRecord(sample: typeof samples.$inferSelect, profileTitle: string): SampleRecord {
  const row: SampleRow = {
    id: sample.id,
    manifestId: sample.manifestId,
    project: sample.project,
    manifestVersion: sample.manifestVersion,
    status: sample.status,
    fields: sample.fields,
    publicName: sample.publicName,
    biosampleAccession: sample.biosampleAccession,
    sraAccession: sample.sraAccession,
    submissionAccession: sample.submissionAccession,
    sampleDerivedFrom: sample.sampleDerivedFrom,
    sampleSameAs: sample.sampleSameAs,
    sampleSymbiontOf: sample.sampleSymbiontOf,
    associatedTolProjects: sample.associatedTolProjects,
    lastBioimageSubmitted: utc(sample.lastBioimageSubmitted),
    timeCreated: utc(sample.timeCreated) ?? '',
    timeUpdated: utc(sample.timeUpdated) ?? '',
    profileTitle,
  };
  return renderSample(row, 'tol');
}

/**
 * A sample and its changes, newest first. Its owner, the project's sample managers and admins see everything,
 * including who made each user update. Any other signed-in user (the sample browser lists every sample, as the
 * public query API does) gets the public view: the record and the audit rows exactly as the public API shows
 * them, so no sensitive field, rejection reason or actor; a sample under traditional-knowledge rights stays hidden.
 */
export async function sampleWithHistory(db: Db, user: UserRecord, svcId: string) {
  if (!/^[0-9a-f]{24}$/.test(svcId)) throw NotFound('Sample not found');
  const [row] = await db
    .select({ sample: samples, profileTitle: profiles.title, ownerId: profiles.ownerId })
    .from(samples)
    .innerJoin(profiles, eq(profiles.id, samples.profileId))
    .where(eq(samples.id, svcId));
  if (!row) throw NotFound('Sample not found');
  const full = maySee(user, row.ownerId, row.sample.project);
  if (!full && isEmbargoed(row.sample)) throw NotFound('Sample not found');
  const changes = await db
    .select({
      id: sampleUpdates.id,
      field: sampleUpdates.field,
      oldValue: sampleUpdates.oldValue,
      newValue: sampleUpdates.newValue,
      updateType: sampleUpdates.updateType,
      timeUpdated: sampleUpdates.timeUpdated,
      actor: users.username,
    })
    .from(sampleUpdates)
    .leftJoin(users, eq(users.id, sampleUpdates.actorId))
    .where(and(eq(sampleUpdates.sampleId, svcId), full ? undefined : inArray(sampleUpdates.field, [...exportedFieldSet()])))
    .orderBy(desc(sampleUpdates.timeUpdated), desc(sampleUpdates.id));
  const history = changes.map((c) => ({ ...c, actor: full ? c.actor : null }));
  return {
    sample: row.sample,
    profileTitle: row.profileTitle,
    history,
    access: full ? ('full' as const) : ('public' as const),
    record: full ? null : publicRecord(row.sample, row.profileTitle),
  };
}
