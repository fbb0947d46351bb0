import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { manifestDefinitions } from '@/db/schema';
import { fromExcluded } from '@/db/upsert';
import { loadManifestDefinitions } from '@/lib/manifests';

/**
 * Stores every Tree of Life manifest version (fields, vocabularies, patterns, flags, standard names) so that the
 * database says which definitions a stored sample was validated against; older versions stay readable.
 */
export async function seedManifestDefinitions(db: Db): Promise<void> {
  const rows = loadManifestDefinitions().map((d) => ({
    project: d.project,
    version: d.version,
    isCurrent: d.current,
    definition: d,
  }));
  const update = fromExcluded(manifestDefinitions, ['isCurrent', 'definition']);
  await db
    .insert(manifestDefinitions)
    .values(rows)
    .onConflictDoUpdate({
      target: [manifestDefinitions.project, manifestDefinitions.version],
      set: { ...update.set, loadedAt: sql`now()` },
      // an unchanged definition is not written again: every start rewrote all of them (ten here, half a megabyte of JSON)
      setWhere: update.changed,
    });
}
