import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { samples } from '@/db/schema';
import type { ExistingSample, ExistingSamples, RackTube } from '@/lib/manifests';

const columns = {
  sampleId: samples.id,
  profileId: samples.profileId,
  rackOrPlateId: sql<string>`coalesce(${samples.rackOrPlateId}, '')`,
  tubeOrWellId: sql<string>`coalesce(${samples.tubeOrWellId}, '')`,
  specimenId: sql<string>`coalesce(${samples.specimenId}, '')`,
  taxonId: sql<string>`coalesce(${samples.taxonId}, '')`,
  symbiont: sql<'TARGET' | 'SYMBIONT'>`coalesce(${samples.symbiont}, 'TARGET')`,
};

/** Stored samples as the manifest validator asks for them: one query per kind of look-up, whatever the row count. */
export function existingSamplesOf(db: Db): ExistingSamples {
  return {
    async byRackTube(pairs: RackTube[]): Promise<ExistingSample[]> {
      if (!pairs.length) return [];
      const racks = pairs.map((p) => p.rackOrPlateId);
      const tubes = pairs.map((p) => p.tubeOrWellId);
      return db
        .select(columns)
        .from(samples)
        .where(
          sql`(coalesce(${samples.rackOrPlateId}, ''), ${samples.tubeOrWellId}) in
              (select * from unnest(${sql.param(racks)}::text[], ${sql.param(tubes)}::text[]))`,
        );
    },
    async bySpecimenId(specimenIds: string[]): Promise<ExistingSample[]> {
      if (!specimenIds.length) return [];
      return db
        .select(columns)
        .from(samples)
        .where(
          and(
            sql`${samples.specimenId} = any(${sql.param(specimenIds)}::text[])`,
            eq(sql`coalesce(${samples.symbiont}, 'TARGET')`, 'TARGET'),
          ),
        );
    },
  };
}

/**
 * Changes whenever a sample of the profile is created or updated: a report validated against an older state must
 * be validated again before it is confirmed.
 */
export async function samplesFingerprint(db: Db, profileId: string): Promise<string> {
  const [row] = await db
    .select({
      n: sql<number>`count(*)::int`,
      latest: sql<string>`coalesce(max(${samples.timeUpdated}), 'epoch'::timestamptz)::text`,
    })
    .from(samples)
    .where(eq(samples.profileId, profileId));
  return `${row?.n ?? 0}@${row?.latest ?? ''}`;
}
