import { randomUUID } from 'node:crypto';
import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { isUniqueViolation } from '@/db/errors';
import { manifests, samples, specimenImages } from '@/db/schema';
import { Conflict, Invalid, NotFound, TooLarge, Unprocessable } from '@/lib/errors';
import { SERVICE_FOLDER } from '@/lib/files/names';
import type { FileStore } from '@/lib/files/store';
import { isUuid } from '@/lib/identifiers/contract';
import type { JobQueue } from '@/lib/jobs/spec';
import { getProfile } from '@/lib/profiles/profiles';
import type { UserRecord } from '@/lib/users/users';
import { type CheckedImage, checkImage, imageNameProblem, oversizedImages } from './check';
import { queueImagesOf } from './queue';

/**
 * Images uploaded beside a confirmed manifest: each named by one of the manifest's specimens (`SPECIMEN_ID-…`, any
 * case), checked by its content, stored with its thumbnail in the profile's storage, and recorded; an image sent
 * again under the name of one not yet sent replaces it. All are checked before any is stored: one refused image
 * refuses the request, naming it. Images of a specimen already registered at ENA are queued for the BioImage
 * Archive in the transaction that records them.
 */

export interface ImageUploadDeps {
  db: Db;
  files: FileStore;
  jobs: JobQueue;
}

export interface ImagePart {
  name: string;
  bytes: Uint8Array;
}

const CONTENT_TYPES = { jpeg: 'image/jpeg', png: 'image/png', tiff: 'image/tiff' } as const;

/** Where an image and its thumbnail lie in the profile's storage (its id keeps a replaced image's bytes apart). */
export const storedNamesOf = (id: string, fileName: string) => ({
  storedName: `${SERVICE_FOLDER}/images/${id}/${fileName}`,
  thumbnailName: `${SERVICE_FOLDER}/images/${id}/thumbnail.jpg`,
});

/** The manifest's specimens by the longest SPECIMEN_ID a name starts with (`A-1-2.jpg` is A-1's when both exist). */
function specimenMatcher(specimens: { project: string; specimenId: string }[]) {
  const byLength = [...specimens].sort((a, b) => b.specimenId.length - a.specimenId.length);
  return (fileName: string) => byLength.find((s) => fileName.toLowerCase().startsWith(`${s.specimenId.toLowerCase()}-`));
}

/** The manifest, for those who may upload manifests to its profile (they may add its images); 404 for anyone else. */
export async function manifestForImages(db: Db, user: UserRecord, manifestId: string) {
  if (!isUuid(manifestId)) throw NotFound('Manifest not found');
  const [manifest] = await db.select().from(manifests).where(eq(manifests.id, manifestId.toLowerCase()));
  if (!manifest) throw NotFound('Manifest not found');
  await getProfile(db, user, manifest.profileId, 'contribute');
  return manifest;
}

export async function uploadImages(deps: ImageUploadDeps, user: UserRecord, manifestId: string, parts: ImagePart[]) {
  const { db } = deps;
  const manifest = await manifestForImages(db, user, manifestId);
  if (!parts.length) throw Invalid('Send one or more images as parts named files.', [{ path: 'files', message: 'no image' }]);
  const oversized = oversizedImages(parts.map((p) => ({ name: p.name, size: p.bytes.byteLength })));
  if (oversized) throw TooLarge(oversized);

  const specimens = await db
    .selectDistinct({ project: samples.project, specimenId: sql<string>`${samples.specimenId}` })
    .from(samples)
    .where(and(eq(samples.manifestId, manifest.id), isNotNull(samples.specimenId)));
  const match = specimenMatcher(specimens);
  const names = new Set<string>();
  const unnamed: string[] = [];
  const misnamed: string[] = [];
  for (const p of parts) {
    const problem = imageNameProblem(p.name);
    if (problem) misnamed.push(problem);
    else if (!match(p.name)) unnamed.push(p.name);
    else if (names.has(p.name.toLowerCase())) misnamed.push(`${p.name} is sent twice`);
    names.add(p.name.toLowerCase());
  }
  if (misnamed.length)
    throw Invalid(
      misnamed.join('; '),
      misnamed.map((m) => ({ path: 'files', message: m })),
    );
  if (unnamed.length) {
    throw Invalid(
      `No specimen of the manifest is named by ${unnamed.join(', ')}: an image's name starts with its SPECIMEN_ID and a hyphen (${specimens[0]?.specimenId ?? 'SPECIMEN_ID'}-1.jpg).`,
      unnamed.map((n) => ({ path: 'files', message: `${n} names no specimen of the manifest` })),
    );
  }
  const checked: { part: ImagePart; image: CheckedImage }[] = [];
  const unreadable: string[] = [];
  for (const part of parts) {
    const image = await checkImage(part.name, part.bytes);
    if (typeof image === 'string') unreadable.push(image);
    else checked.push({ part, image });
  }
  if (unreadable.length) throw Unprocessable(unreadable.join('; '));

  // the bytes first, under new ids: a crash leaves unreferenced bytes at worst, never a record without its bytes
  const rows: (typeof specimenImages.$inferInsert & { project: string; specimenId: string })[] = [];
  for (const { part, image } of checked) {
    const id = randomUUID();
    const names = storedNamesOf(id, part.name);
    await deps.files.put(manifest.profileId, names.storedName, part.bytes, CONTENT_TYPES[image.format]);
    await deps.files.put(manifest.profileId, names.thumbnailName, image.thumbnail, 'image/jpeg');
    const specimen = match(part.name);
    if (!specimen) throw new Error(`expected ${part.name} to name a specimen`);
    rows.push({
      id,
      profileId: manifest.profileId,
      manifestId: manifest.id,
      project: manifest.project,
      specimenId: specimen.specimenId,
      fileName: part.name,
      format: image.format,
      sizeInBytes: part.bytes.byteLength,
      width: image.width,
      height: image.height,
      uploadedBy: user.id,
      ...names,
    });
  }
  const recorded = db.transaction(async (tx) => {
    const gone: (typeof specimenImages.$inferSelect)[] = [];
    for (const row of rows) {
      // the image not yet sent under this name is replaced; one on its way, or sent, stays and this one follows it
      const old = await tx
        .delete(specimenImages)
        .where(
          and(
            eq(specimenImages.project, row.project),
            eq(specimenImages.specimenId, row.specimenId),
            sql`lower(${specimenImages.fileName}) = lower(${row.fileName})`,
            isNull(specimenImages.bioimageName),
          ),
        )
        .returning();
      gone.push(...old);
      await tx.insert(specimenImages).values(row);
    }
    await queueImagesOf(tx, deps.jobs, rows);
    return gone;
  });
  const replaced = await recorded.catch(async (err: unknown) => {
    for (const row of rows) {
      await deps.files.remove(row.profileId, row.storedName);
      await deps.files.remove(row.profileId, row.thumbnailName);
    }
    // another upload of the same name committed first: this one is refused rather than sent twice
    if (isUniqueViolation(err)) throw Conflict('Another upload of the same images finished first; send them again to replace those.');
    throw err;
  });
  for (const old of replaced) {
    await deps.files.remove(old.profileId, old.storedName);
    await deps.files.remove(old.profileId, old.thumbnailName);
  }
  return { manifestId: manifest.id, ids: rows.map((r) => r.id) };
}
