import { eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { biodataSamples } from '@/db/schema';
import { NEVER_DELETED, type Removal, recordRemovals } from '@/lib/audit/events';
import type { BiodataSample } from '@/lib/biodata-samples/contract';
import { Conflict, NotFound } from '@/lib/errors';
import { isSvcId } from '@/lib/identifiers/contract';
import { roleAllows, roleOn } from '@/lib/profiles/access';
import type { UserRecord } from '@/lib/users/users';
import { lockProfileFor } from './samples';

/**
 * Deleting samples of a biodata profile (lib/biodata-samples) that never reached ENA: one confirmed and not yet
 * registered, or one ENA refused. One that is being registered, or that ENA accepted (it has an accession), stays.
 * Their history goes with them (its foreign key cascades); the audit event keeps what named them.
 */

type Row = Pick<typeof biodataSamples.$inferSelect, 'id' | 'profileId' | 'alias' | 'status' | 'biosampleAccession' | 'checklistId'>;
const columns = {
  id: biodataSamples.id,
  profileId: biodataSamples.profileId,
  alias: biodataSamples.alias,
  status: biodataSamples.status,
  biosampleAccession: biodataSamples.biosampleAccession,
  checklistId: biodataSamples.checklistId,
};

const SAMPLE_NOT_FOUND = 'Sample not found';

/** Why the sample may not be deleted, in words, or null when it may. */
export function biodataRemovalRefusal(s: Pick<Row, 'alias' | 'status' | 'biosampleAccession'>): string | null {
  const label = `Sample ${s.alias}`;
  if (s.biosampleAccession || s.status === 'accepted') {
    return `${label} is registered at ENA${s.biosampleAccession ? ` (${s.biosampleAccession})` : ''}: ${NEVER_DELETED}`;
  }
  if (s.status === 'processing') return `${label} is being registered at ENA and may be public in a moment: ${NEVER_DELETED}`;
  return null;
}

const removal = (s: Row): Removal => ({
  objectType: 'sample',
  objectId: s.id,
  profileId: s.profileId,
  detail: { sample: s.alias, checklist_id: s.checklistId, status: s.status },
});

/**
 * Deletes one biodata sample of a profile the caller contributes to (or any, for an admin), with its history and an
 * audit event. 404 for an unknown sample or one the caller may not change; 409, nothing changed, for one ENA has or
 * may have.
 */
export async function deleteBiodataSample(db: Db, user: UserRecord, svcId: string): Promise<void> {
  const id = svcId.trim().toLowerCase();
  if (!isSvcId(id)) throw NotFound(SAMPLE_NOT_FOUND);
  await db.transaction(async (tx) => {
    const [head] = await tx.select({ profileId: biodataSamples.profileId }).from(biodataSamples).where(eq(biodataSamples.id, id));
    if (!head) throw NotFound(SAMPLE_NOT_FOUND);
    // the profile first, as a confirmation and a registration do: they and this removal take turns
    await lockProfileFor(tx, user, head.profileId, SAMPLE_NOT_FOUND, 'contribute');
    const [sample] = await tx.select(columns).from(biodataSamples).where(eq(biodataSamples.id, id)).for('update');
    if (!sample) throw NotFound(SAMPLE_NOT_FOUND);
    const refusal = biodataRemovalRefusal(sample);
    if (refusal) throw Conflict(refusal);
    await tx.delete(biodataSamples).where(eq(biodataSamples.id, id));
    await recordRemovals(tx, user, [removal(sample)]);
  });
}

/** What the sample page says about deleting the sample: nothing for who may not, else whether and why not. */
export async function biodataRemovalState(
  db: Db,
  user: UserRecord,
  sample: Pick<BiodataSample, 'profile_id' | 'sample' | 'status' | 'biosampleAccession'>,
  ownerId: number,
): Promise<{ refusal: string | null } | null> {
  if (!roleAllows(await roleOn(db, user, { id: sample.profile_id, ownerId }), 'contribute')) return null;
  return { refusal: biodataRemovalRefusal({ alias: sample.sample, status: sample.status, biosampleAccession: sample.biosampleAccession }) };
}

/** Why a profile's biodata samples keep it, or null (the caller has locked the profile). */
export async function profileBiodataRefusal(tx: Db, profileId: string): Promise<string | null> {
  const rows = await tx.select(columns).from(biodataSamples).where(eq(biodataSamples.profileId, profileId)).for('update');
  for (const r of rows) {
    const refusal = biodataRemovalRefusal(r);
    if (refusal) return refusal;
  }
  return null;
}

/** Removes every biodata sample of a profile being deleted (checked by profileBiodataRefusal), as audit events. */
export async function removeProfileBiodataSamples(tx: Db, profileId: string): Promise<Removal[]> {
  const gone = await tx.delete(biodataSamples).where(eq(biodataSamples.profileId, profileId)).returning(columns);
  return gone.map(removal);
}
