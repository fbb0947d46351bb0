import { and, inArray, isNotNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '@/db/client';
import { specimenImages, specimens } from '@/db/schema';
import { SvcIdSchema } from '@/lib/identifiers/contract';
import type { JobQueue } from '@/lib/jobs/spec';

/** `bioimages.submit`: the images of one specimen (its row in `specimens`), sent to the BioImage Archive. */
export const SubmitImagesData = z.object({ specimen: SvcIdSchema });

declare module '@/lib/jobs/contract' {
  interface JobDataByName {
    'bioimages.submit': z.infer<typeof SubmitImagesData>;
  }
}

/** Images on their way: not sent yet, and not given up. */
export const OPEN_STATES = ['waiting', 'held', 'sending'] as const;

/**
 * Queues the BioImage Archive job, in `tx`, for those of the specimens (by project and SPECIMEN_ID) that have their
 * BioSample accession and images still to send: called by the writes that make it needed (images recorded, a
 * specimen's accession recorded).
 */
export async function queueImagesOf(tx: Db, jobs: JobQueue, keys: { project: string; specimenId: string }[]): Promise<void> {
  if (!keys.length) return;
  const wanted = sql.join(
    keys.map((k) => sql`(${k.project}, ${k.specimenId})`),
    sql`, `,
  );
  const due = await tx
    .select({ id: specimens.id })
    .from(specimens)
    .where(
      and(
        isNotNull(specimens.biosampleAccession),
        sql`(${specimens.project}, ${specimens.specimenId}) in (${wanted})`,
        sql`exists (select 1 from ${specimenImages} i where i.project = ${specimens.project} and i.specimen_id = ${specimens.specimenId}
          and i.state in ('waiting', 'held', 'sending'))`,
      ),
    );
  for (const s of due) await jobs.send('bioimages.submit', { specimen: s.id }, { tx });
}

/** The same, for specimens by their row id (registration knows them by the alias it sent them under). */
export async function queueImagesOfSpecimens(tx: Db, jobs: JobQueue, ids: string[]): Promise<void> {
  if (!ids.length) return;
  const rows = await tx
    .select({ project: specimens.project, specimenId: specimens.specimenId })
    .from(specimens)
    .where(inArray(specimens.id, ids));
  await queueImagesOf(tx, jobs, rows);
}
