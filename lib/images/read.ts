import type { Readable } from 'node:stream';
import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import { isAnyOf } from '@/db/any-of';
import type { Db } from '@/db/client';
import { manifests, samples, specimenImages, specimens } from '@/db/schema';
import { approverScopeIn, decidesOn } from '@/lib/approvals/approvals';
import { AppError, NotFound } from '@/lib/errors';
import type { FileStore } from '@/lib/files/store';
import { isSvcId, isUuid } from '@/lib/identifiers/contract';
import { getProfile } from '@/lib/profiles/profiles';
import { type BioimageSettings, missingBioimageSettings } from '@/lib/repositories/bioimage';
import type { UserRecord } from '@/lib/users/users';
import type { SpecimenImage } from './contract';

/**
 * Who sees a specimen's images: those who may see its profile (its owner, those it is shared with, admins) and
 * those who decide on its samples (the project's managers, the approvers of their types), who review them: those who
 * see its samples in full. Anyone else is told what an unknown id is told.
 */

type ImageRow = typeof specimenImages.$inferSelect;

const notMine = (err: unknown): false => {
  if (err instanceof AppError && (err.code === 'not_found' || err.code === 'forbidden')) return false;
  throw err;
};

/** Whether the user sees every image of the profile's samples of this specimen. */
async function seesAll(db: Db, user: UserRecord, profileId: string, specimen: { project: string; specimenId: string }) {
  if (await getProfile(db, user, profileId).then(() => true, notMine)) return true;
  const rows = await samplesOf(db, profileId, specimen);
  const scope = await approverScopeIn(db, user);
  return rows.some((s) => decidesOn(scope, s));
}

const samplesOf = (db: Db, profileId: string, specimen: { project: string; specimenId: string }) =>
  db
    .select({
      project: samples.project,
      associatedTolProjects: samples.associatedTolProjects,
    })
    .from(samples)
    .where(
      and(eq(samples.profileId, profileId), sql`${samples.project} = ${specimen.project}`, eq(samples.specimenId, specimen.specimenId)),
    );

/** Why an image waits, or why it failed, in words; null once sent. */
function detailOf(row: ImageRow, registered: boolean, missing: string[]): string | null {
  if (row.state === 'submitted') return null;
  if (row.state === 'failed') return row.failure ?? 'Sending it to the BioImage Archive failed.';
  if (row.state === 'sending') return `Being sent to the BioImage Archive as ${row.bioimageName}, named after the specimen’s BioSample.`;
  if (!registered) return 'Waiting for the specimen’s registration at ENA (its BioSample accession).';
  if (missing.length) return `Waiting: the BioImage Archive upload area is not configured (${missing.join(', ')} not set).`;
  return 'Waiting to be sent to the BioImage Archive.';
}

const imagesOrder = [
  asc(specimenImages.specimenId),
  sql`${specimenImages.sequence} nulls last`,
  asc(specimenImages.uploadedAt),
  asc(specimenImages.fileName),
];

/** The images as the API shows them. */
async function viewsOf(db: Db, config: BioimageSettings, rows: ImageRow[]): Promise<SpecimenImage[]> {
  const keys = [...new Set(rows.map((r) => `${r.project}/${r.specimenId}`))];
  const registered = new Set<string>();
  if (keys.length) {
    const found = await db
      .select({ project: specimens.project, specimenId: specimens.specimenId })
      .from(specimens)
      .where(and(isNotNull(specimens.biosampleAccession), isAnyOf(sql`${specimens.project} || '/' || ${specimens.specimenId}`, keys)));
    for (const f of found) registered.add(`${f.project}/${f.specimenId}`);
  }
  const missing = missingBioimageSettings(config);
  return rows.map((r) => ({
    id: r.id,
    file_name: r.fileName,
    specimen_id: r.specimenId,
    format: r.format,
    size_in_bytes: r.sizeInBytes,
    width: r.width,
    height: r.height,
    uploaded: r.uploadedAt.toISOString(),
    url: `/api/images/${r.id}`,
    thumbnail_url: `/api/images/${r.id}/thumbnail`,
    state: r.state,
    submitted: r.state === 'submitted',
    bioimage_name: r.bioimageName,
    submitted_at: r.submittedAt?.toISOString() ?? null,
    status_detail: detailOf(r, registered.has(`${r.project}/${r.specimenId}`), missing),
  }));
}

/** The images of a confirmed manifest's specimens, uploaded beside it, for those who may see its profile or review it. */
export async function manifestImages(db: Db, config: BioimageSettings, user: UserRecord, manifestId: string) {
  if (!isUuid(manifestId)) throw NotFound('Manifest not found');
  const [manifest] = await db.select().from(manifests).where(eq(manifests.id, manifestId.toLowerCase()));
  if (!manifest) throw NotFound('Manifest not found');
  const scope = await approverScopeIn(db, user);
  const mayRead =
    (await getProfile(db, user, manifest.profileId).then(() => true, notMine)) ||
    (
      await db
        .select({ project: samples.project, associatedTolProjects: samples.associatedTolProjects })
        .from(samples)
        .where(eq(samples.manifestId, manifest.id))
    ).some((s) => decidesOn(scope, s));
  if (!mayRead) throw NotFound('Manifest not found');
  const rows = await db
    .select()
    .from(specimenImages)
    .where(eq(specimenImages.manifestId, manifest.id))
    .orderBy(...imagesOrder);
  return { manifestId: manifest.id, images: await viewsOf(db, config, rows) };
}

/** GET /api/manifest/{manifest_id}/images's answer: the portal's review queue reads it with its page too. */
export async function manifestImagesAnswer(db: Db, config: BioimageSettings, user: UserRecord, manifestId: string) {
  const { manifestId: id, images } = await manifestImages(db, config, user, manifestId);
  return { manifest_id: id, number_found: images.length, data: images };
}

/** The images of a sample's specimen uploaded to its profile, for those who see the sample in full. */
export async function sampleImages(db: Db, config: BioimageSettings, user: UserRecord, svcId: string) {
  const id = svcId.toLowerCase();
  if (!isSvcId(id)) throw NotFound('Sample not found');
  const [sample] = await db.select().from(samples).where(eq(samples.id, id));
  if (!sample || !(await seesAll(db, user, sample.profileId, { project: sample.project, specimenId: sample.specimenId ?? '' })))
    throw NotFound('Sample not found');
  if (!sample.specimenId) return { svcId: id, images: [] };
  const rows = await db
    .select()
    .from(specimenImages)
    .where(
      and(
        sql`${specimenImages.project} = ${sample.project}`,
        eq(specimenImages.specimenId, sample.specimenId),
        eq(specimenImages.profileId, sample.profileId),
      ),
    )
    .orderBy(...imagesOrder);
  return { svcId: id, images: await viewsOf(db, config, rows) };
}

/** An image's bytes, or its thumbnail's, for those who may see it. */
export async function readImage(
  db: Db,
  files: FileStore,
  user: UserRecord,
  imageId: string,
  which: 'image' | 'thumbnail',
): Promise<{ body: Readable; contentType: string; fileName: string }> {
  if (!isUuid(imageId)) throw NotFound('Image not found');
  const [row] = await db.select().from(specimenImages).where(eq(specimenImages.id, imageId.toLowerCase()));
  if (!row) throw NotFound('Image not found');
  if (!(await seesAll(db, user, row.profileId, row))) throw NotFound('Image not found');
  if (which === 'thumbnail') {
    return { body: await files.read(row.profileId, row.thumbnailName), contentType: 'image/jpeg', fileName: 'thumbnail.jpg' };
  }
  const contentType = { jpeg: 'image/jpeg', png: 'image/png', tiff: 'image/tiff' }[row.format];
  return { body: await files.read(row.profileId, row.storedName), contentType, fileName: row.fileName };
}
