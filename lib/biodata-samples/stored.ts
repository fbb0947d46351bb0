import { eq, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { biodataSamples } from '@/db/schema';
import { SCIENTIFIC_NAME, TAXON_ID } from './sheet';

/** A sample of the profile, as a re-upload meets it. */
export interface StoredSample {
  sampleId: string;
  alias: string;
  checklistId: string;
  values: Record<string, string>;
}

/** A profile's biodata samples as a sheet meets them: by alias, lower-cased, with their values as the sheet gives them. */
export async function storedSamplesOf(db: Db, profileId: string): Promise<Map<string, StoredSample>> {
  const rows = await db
    .select({
      id: biodataSamples.id,
      alias: biodataSamples.alias,
      checklistId: biodataSamples.checklistId,
      taxonId: biodataSamples.taxonId,
      scientificName: biodataSamples.scientificName,
      fields: biodataSamples.fields,
    })
    .from(biodataSamples)
    .where(eq(biodataSamples.profileId, profileId));
  return new Map(
    rows.map((r) => [
      r.alias.toLowerCase(),
      {
        sampleId: r.id,
        alias: r.alias,
        checklistId: r.checklistId,
        values: { ...r.fields, [TAXON_ID]: r.taxonId, [SCIENTIFIC_NAME]: r.scientificName },
      },
    ]),
  );
}

/**
 * Changes whenever a biodata sample of the profile is created or updated: a report validated against an older state
 * must be validated again before it is confirmed.
 */
export async function biodataFingerprint(db: Db, profileId: string): Promise<string> {
  const [row] = await db
    .select({
      n: sql<number>`count(*)::int`,
      latest: sql<string>`coalesce(max(${biodataSamples.timeUpdated}), 'epoch'::timestamptz)::text`,
    })
    .from(biodataSamples)
    .where(eq(biodataSamples.profileId, profileId));
  return `biodata:${row?.n ?? 0}@${row?.latest ?? ''}`;
}
