import { and, eq, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { biodataSamples } from '@/db/schema';

/** A biodata profile's sample (lib/biodata-samples) as a study sheet meets it: registered (by its BioSample accession), or not yet. */
export interface NamedBiodataSample {
  alias: string;
  /** as the biodata_samples table keeps it (the biodata samples register through the submissions, above the studies) */
  status: (typeof biodataSamples.$inferSelect)['status'];
  biosampleAccession: string | null;
  taxonId: string;
  scientificName: string;
  fields: Record<string, string>;
}

/**
 * The profile's biodata samples a study sheet's values name: by BioSample accession (as ENA knows them), or by the
 * alias or svc_id a researcher may type before the sample is registered. Keyed by the value as typed, lower-cased.
 */
export async function biodataSamplesNamed(db: Db, profileId: string, values: readonly string[]): Promise<Map<string, NamedBiodataSample>> {
  const lower = [...new Set(values.map((v) => v.trim().toLowerCase()).filter(Boolean))];
  if (!lower.length) return new Map();
  const rows = await db
    .select({
      id: biodataSamples.id,
      alias: biodataSamples.alias,
      status: biodataSamples.status,
      biosampleAccession: biodataSamples.biosampleAccession,
      taxonId: biodataSamples.taxonId,
      scientificName: biodataSamples.scientificName,
      fields: biodataSamples.fields,
    })
    .from(biodataSamples)
    .where(
      and(
        eq(biodataSamples.profileId, profileId),
        or(
          inArray(sql`lower(${biodataSamples.alias})`, lower),
          inArray(biodataSamples.id, lower),
          inArray(sql`lower(${biodataSamples.biosampleAccession})`, lower),
        ),
      ),
    );
  const asked = new Set(lower);
  const named = new Map<string, NamedBiodataSample>();
  for (const { id, ...r } of rows) {
    for (const key of [r.alias.toLowerCase(), id, r.biosampleAccession?.toLowerCase()]) {
      if (key && asked.has(key)) named.set(key, r);
    }
  }
  return named;
}
