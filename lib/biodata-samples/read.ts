import { and, asc, count, desc, eq, ilike, or } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { biodataSamples, biodataSampleUpdates, users } from '@/db/schema';
import { NotFound } from '@/lib/errors';
import { isSvcId } from '@/lib/identifiers/contract';
import { getProfile } from '@/lib/profiles/profiles';
import type { UserRecord } from '@/lib/users/users';
import type { BiodataSample, BiodataSampleStatus } from './contract';

/** A profile's biodata samples as those who may see the profile read them (lib/profiles/access.ts). */

type Row = typeof biodataSamples.$inferSelect;

export const biodataSampleJson = (r: Row): BiodataSample => ({
  svc_id: r.id,
  profile_id: r.profileId,
  sample: r.alias,
  checklist_id: r.checklistId,
  TAXON_ID: r.taxonId,
  SCIENTIFIC_NAME: r.scientificName,
  status: r.status,
  status_detail: r.statusDetail,
  release_date: r.releaseDate,
  biosampleAccession: r.biosampleAccession,
  sraAccession: r.sraAccession,
  fields: r.fields,
  time_created: r.timeCreated.toISOString(),
  time_updated: r.timeUpdated.toISOString(),
});

/** A LIKE pattern of a text taken as it is (its % _ and \ escaped). */
const containsPattern = (value: string) => `%${value.replace(/[\\%_]/g, '\\$&')}%`;

/** A page of the profile's samples, newest first, with the total; `q` is a part of the alias, name or accession. */
export async function listBiodataSamples(
  db: Db,
  user: UserRecord,
  profileId: string,
  query: { q?: string; status?: BiodataSampleStatus; limit: number; offset: number },
): Promise<{ rows: BiodataSample[]; total: number }> {
  const profile = await getProfile(db, user, profileId);
  const q = query.q?.trim();
  const where = and(
    eq(biodataSamples.profileId, profile.id),
    query.status ? eq(biodataSamples.status, query.status) : undefined,
    q
      ? or(
          ilike(biodataSamples.alias, containsPattern(q)),
          ilike(biodataSamples.scientificName, containsPattern(q)),
          ilike(biodataSamples.biosampleAccession, containsPattern(q)),
        )
      : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(biodataSamples)
      .where(where)
      .orderBy(desc(biodataSamples.timeCreated), asc(biodataSamples.alias))
      .limit(query.limit)
      .offset(query.offset),
    db.select({ n: count() }).from(biodataSamples).where(where),
  ]);
  return { rows: rows.map(biodataSampleJson), total: total?.n ?? 0 };
}

/** One biodata sample's history as the sample page shows it: who changed what, newest first. */
export interface BiodataHistoryItem {
  id: number;
  field: string;
  oldValue: string | null;
  newValue: string | null;
  updateType: 'user' | 'system';
  timeUpdated: Date;
  actor: string | null;
}

/**
 * One biodata sample with its profile's title and owner and its history, for those who may see its profile; 404
 * otherwise, as for an unknown id.
 */
export async function readBiodataSample(
  db: Db,
  user: UserRecord,
  svcId: string,
): Promise<{ sample: BiodataSample; profile: { id: string; title: string; ownerId: number }; history: BiodataHistoryItem[] }> {
  const id = svcId.toLowerCase();
  const [row] = isSvcId(id) ? await db.select().from(biodataSamples).where(eq(biodataSamples.id, id)) : [];
  if (!row) throw NotFound(`No sample with svc_id ${svcId}`);
  const profile = await getProfile(db, user, row.profileId);
  const history = await db
    .select({
      id: biodataSampleUpdates.id,
      field: biodataSampleUpdates.field,
      oldValue: biodataSampleUpdates.oldValue,
      newValue: biodataSampleUpdates.newValue,
      updateType: biodataSampleUpdates.updateType,
      timeUpdated: biodataSampleUpdates.timeUpdated,
      actor: users.username,
    })
    .from(biodataSampleUpdates)
    .leftJoin(users, eq(users.id, biodataSampleUpdates.actorId))
    .where(eq(biodataSampleUpdates.sampleId, row.id))
    .orderBy(desc(biodataSampleUpdates.timeUpdated), desc(biodataSampleUpdates.id));
  return { sample: biodataSampleJson(row), profile: { id: profile.id, title: profile.title, ownerId: profile.ownerId }, history };
}

/** Whether an id is a biodata sample's (the sample page and the removal route ask before the Tree of Life's tables). */
export async function isBiodataSample(db: Db, svcId: string): Promise<boolean> {
  const id = svcId.toLowerCase();
  if (!isSvcId(id)) return false;
  const [row] = await db.select({ id: biodataSamples.id }).from(biodataSamples).where(eq(biodataSamples.id, id));
  return row !== undefined;
}
