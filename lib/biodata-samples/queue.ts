import { inArray, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { one } from '@/db/rows';
import { biodataSamples, submissions } from '@/db/schema';
import type { JobQueue } from '@/lib/jobs/queue';
import type { Registration } from '@/lib/samples/contract';

export const SENDING_DETAIL = 'Being registered at ENA.';

/**
 * A registration of some of a profile's biodata samples, in the caller's transaction: the submission that carries
 * them, the samples `processing` (with the day ENA is to hold them until, for those not yet registered), and the job.
 */
export async function queueBiodataRegistration(
  tx: Db,
  jobs: JobQueue,
  input: { profileId: string; sampleIds: string[]; userId: number | null; releaseDate?: string | null },
): Promise<Registration> {
  const sub = one(
    await tx
      .insert(submissions)
      .values({
        kind: 'biodata_samples',
        repository: 'ena',
        profileId: input.profileId,
        sampleIds: input.sampleIds,
        status: 'pending',
        createdBy: input.userId,
      })
      .returning({ id: submissions.id }),
    'the new registration',
  );
  await tx
    .update(biodataSamples)
    .set({
      status: 'processing',
      statusDetail: SENDING_DETAIL,
      // only a sample not yet at ENA takes a release date: ENA keeps an accessioned one's
      ...(input.releaseDate !== undefined && {
        releaseDate: sql`case when ${biodataSamples.biosampleAccession} is null then ${input.releaseDate}::date else ${biodataSamples.releaseDate} end`,
      }),
      timeUpdated: sql`now()`,
    })
    .where(inArray(biodataSamples.id, input.sampleIds));
  await jobs.send('biodata-samples.register', { submissionId: sub.id }, { tx });
  return { submission_id: sub.id, samples: input.sampleIds.length, created: true };
}
