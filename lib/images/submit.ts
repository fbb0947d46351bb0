import { type Readable, Transform } from 'node:stream';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '@/db/client';
import { idsOf } from '@/db/rows';
import { samples, specimenImages, specimens } from '@/db/schema';
import { crashPoint } from '@/lib/crash-points';
import { Conflict } from '@/lib/errors';
import type { FileStore } from '@/lib/files/store';
import { type JobQueue, jobSpec } from '@/lib/jobs/spec';
import { type BioimageSettings, bioimageAreaFromConfig } from '@/lib/repositories/bioimage';
import type { UploadArea } from '@/lib/repositories/ena';
import { extensionOf } from './check';
import { OPEN_STATES, queueImagesOf, SubmitImagesData } from './queue';

/**
 * The `bioimages.submit` job: a registered specimen's images, sent to the BioImage Archive's upload area as
 * `{biosampleAccession}_{n}.{ext}`, n continuing the specimen's sequence. Each image is sent exactly once: its name
 * is chosen and recorded before the transfer, and a run that finds an image named but not recorded as sent (the
 * process died) asks the area for the file's size first, sending it again only when the area does not hold it
 * whole. Without the settings the images wait (`held`), and the job's sweep sends them on once the settings are
 * there. A failure (the area unreachable after the client's own retries, or refusing the account) fails the run, and
 * the queue runs it again; the last failed run marks the images failed with the reason, and an admin's retry sends
 * them again.
 */

export interface SubmitImagesDeps {
  db: Db;
  config: BioimageSettings;
  logger: Logger;
  files: FileStore;
  jobs: JobQueue;
}

type ImageRow = typeof specimenImages.$inferSelect;
type SpecimenRow = typeof specimens.$inferSelect;

const openImagesOf = (db: Db, sp: Pick<SpecimenRow, 'project' | 'specimenId'>) =>
  db
    .select()
    .from(specimenImages)
    .where(
      and(
        sql`${specimenImages.project} = ${sp.project}`,
        eq(specimenImages.specimenId, sp.specimenId),
        inArray(specimenImages.state, [...OPEN_STATES]),
      ),
    )
    .orderBy(sql`${specimenImages.sequence} nulls last`, asc(specimenImages.uploadedAt), asc(specimenImages.fileName));

export async function submitImages(deps: SubmitImagesDeps, specimenRowId: string): Promise<void> {
  const { db } = deps;
  const [sp] = await db.select().from(specimens).where(eq(specimens.id, specimenRowId));
  const accession = sp?.biosampleAccession;
  if (!sp || !accession) return;
  const open = await openImagesOf(db, sp);
  if (!open.length) return;
  const area = bioimageAreaFromConfig(deps.config, deps.logger);
  if (!area) {
    await db
      .update(specimenImages)
      .set({ state: 'held' })
      .where(inArray(specimenImages.id, idsOf(open)));
    return;
  }
  try {
    for (const image of open) {
      const named = image.bioimageName ? image : await chooseName(db, sp, accession, image);
      // replaced by an upload of the same name meanwhile: the new image is sent in its turn
      if (!named?.bioimageName) continue;
      await sendImage(deps, area, named, named.bioimageName);
    }
  } finally {
    area.close();
  }
}

/** The image's name at the archive, chosen under a lock on its specimen, so n is never given twice. */
async function chooseName(db: Db, sp: SpecimenRow, accession: string, image: ImageRow): Promise<ImageRow | undefined> {
  return db.transaction(async (tx) => {
    await tx.select({ id: specimens.id }).from(specimens).where(eq(specimens.id, sp.id)).for('update');
    const [last] = await tx
      .select({ n: sql<number>`coalesce(max(${specimenImages.sequence}), 0)::int` })
      .from(specimenImages)
      .where(and(sql`${specimenImages.project} = ${sp.project}`, eq(specimenImages.specimenId, sp.specimenId)));
    const n = (last?.n ?? 0) + 1;
    const [named] = await tx
      .update(specimenImages)
      .set({ sequence: n, bioimageName: `${accession}_${n}.${extensionOf(image.fileName)}`, state: 'sending', failure: null })
      .where(and(eq(specimenImages.id, image.id), isNull(specimenImages.bioimageName)))
      .returning();
    return named;
  });
}

async function sendImage(deps: SubmitImagesDeps, area: UploadArea, image: ImageRow, name: string) {
  // a run that died after choosing the name: the area may hold the file already, whole or in part
  const there = image.state === 'sending' ? await area.size(name) : null;
  if (there !== image.sizeInBytes) {
    await area.send(name, image.sizeInBytes, async () => pausable(await deps.files.read(image.profileId, image.storedName)));
  }
  await crashPoint('bioimages:sent');
  await deps.db.transaction(async (tx) => {
    const [sent] = await tx
      .update(specimenImages)
      .set({ state: 'submitted', submittedAt: sql`now()`, failure: null })
      .where(eq(specimenImages.id, image.id))
      .returning({ at: specimenImages.submittedAt });
    // the specimen's samples say when its last image reached the archive (sample/with_submitted_bioimages)
    await tx
      .update(samples)
      .set({ lastBioimageSubmitted: sent?.at ?? sql`now()` })
      .where(and(sql`${samples.project} = ${image.project}`, eq(samples.specimenId, image.specimenId)));
  });
  deps.logger.info({ image: image.id, name }, 'specimen image sent to the BioImage Archive');
}

/**
 * The bytes as read, with the crash point `bioimages:mid-transfer` half-way through the first chunk, where the
 * crash tests kill the process with part of the file in the area (lib/crash-points.ts; elsewhere it does nothing).
 */
function pausable(source: Readable): Readable {
  let first = true;
  const pass = new Transform({
    transform(chunk: Buffer, _enc, done) {
      if (!first) return done(null, chunk);
      first = false;
      const half = Math.ceil(chunk.length / 2);
      this.push(chunk.subarray(0, half));
      crashPoint('bioimages:mid-transfer').then(() => done(null, chunk.subarray(half)), done);
    },
  });
  source.on('error', (err) => pass.destroy(err));
  return source.pipe(pass);
}

async function failImages(db: Db, sp: Pick<SpecimenRow, 'project' | 'specimenId'>, reason: string) {
  await db
    .update(specimenImages)
    .set({ state: 'failed', failure: `Sending it to the BioImage Archive failed: ${reason}` })
    .where(
      and(
        sql`${specimenImages.project} = ${sp.project}`,
        eq(specimenImages.specimenId, sp.specimenId),
        inArray(specimenImages.state, [...OPEN_STATES]),
      ),
    );
}

/** Held images go on once the settings are there: reopened and queued in one transaction. */
async function releaseHeld(deps: SubmitImagesDeps) {
  if (!bioimageAreaFromConfig(deps.config, deps.logger)) return;
  await deps.db.transaction(async (tx) => {
    const released = await tx
      .update(specimenImages)
      .set({ state: sql`case when ${specimenImages.bioimageName} is null then 'waiting' else 'sending' end` })
      .where(eq(specimenImages.state, 'held'))
      .returning({ project: specimenImages.project, specimenId: specimenImages.specimenId });
    await queueImagesOf(tx, deps.jobs, released);
  });
}

export const submitImagesJob = jobSpec({
  name: 'bioimages.submit',
  label: 'Specimen images to the BioImage Archive',
  data: SubmitImagesData,
  expireSeconds: 2 * 60 * 60,
  run: (deps: SubmitImagesDeps, data) => submitImages(deps, data.specimen),
  async giveUp(deps, data, reason) {
    const [sp] = await deps.db.select().from(specimens).where(eq(specimens.id, data.specimen));
    if (sp) await failImages(deps.db, sp, reason);
  },
  openWork: {
    key: 'specimen',
    open: sql`select distinct sp.id from specimens sp join specimen_images i on i.project = sp.project and i.specimen_id = sp.specimen_id
      where sp.biosample_accession is not null and i.state in ('waiting', 'sending')`,
  },
  async reopen(tx, deps, data) {
    const [sp] = await tx.select().from(specimens).where(eq(specimens.id, data.specimen));
    if (!sp) throw Conflict('The specimen no longer exists.');
    const reopened = await tx
      .update(specimenImages)
      .set({ state: sql`case when ${specimenImages.bioimageName} is null then 'waiting' else 'sending' end`, failure: null })
      .where(
        and(
          sql`${specimenImages.project} = ${sp.project}`,
          eq(specimenImages.specimenId, sp.specimenId),
          eq(specimenImages.state, 'failed'),
        ),
      )
      .returning({ id: specimenImages.id });
    if (!reopened.length) throw Conflict('None of the specimen’s images failed; they were sent or sent again since.');
    await deps.jobs.send('bioimages.submit', { specimen: sp.id }, { tx });
    return `${reopened.length} images of specimen ${sp.specimenId}`;
  },
  recover: releaseHeld,
});
