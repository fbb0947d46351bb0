import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { profiles, samples, sampleUpdates, type TolProject, users } from '@/db/schema';
import { AppError, NotFound } from '@/lib/errors';
import { isSvcId } from '@/lib/identifiers/contract';

// permits are shown to those who decide on the sample and who may see its profile: to anyone else, none (any other
// error is an error)
const notMine = (err: unknown): [] => {
  if (err instanceof AppError && (err.code === 'not_found' || err.code === 'forbidden')) return [];
  throw err;
};

import { approverScopeIn, decidesOn } from '@/lib/approvals/approvals';
import { samplePermits } from '@/lib/permits/permits';
import { roleOn } from '@/lib/profiles/access';
import { exportedFieldSet } from '@/lib/standards/fields';
import { isEmbargoed, renderSample, type SampleRecord } from '@/lib/standards/render';
import { loadedRow } from '@/lib/standards/sample-columns';
import type { UserRecord } from '@/lib/users/users';

/**
 * Who may look at a sample in full in the portal: whoever may see its profile (owner, those it is shared with,
 * admins: lib/profiles/access.ts), and those who decide on it (the project's sample managers, the approvers of one
 * of its types, lib/approvals/approvals.ts), who review it.
 */
const maySee = async (
  db: Db,
  user: UserRecord,
  profile: { id: string; ownerId: number },
  sample: { project: TolProject; associatedTolProjects: string[] },
) => decidesOn(await approverScopeIn(db, user), sample) || (await roleOn(db, user, profile)) !== null;

/** The sample as the public query API shows it (every exported field, nothing sensitive), for the public view. */
const publicRecord = (sample: typeof samples.$inferSelect, profileTitle: string): SampleRecord =>
  renderSample(loadedRow(sample, profileTitle), 'tol');

/**
 * A sample and its changes, newest first. Those who may see its profile, the project's sample managers and the
 * approvers of its types see everything,
 * including who made each user update. Any other signed-in user (the sample browser lists every sample, as the
 * public query API does) gets the public view: the record and the audit rows exactly as the public API shows
 * them, so no sensitive field, rejection reason or actor; a sample under traditional-knowledge rights stays hidden.
 */
export async function sampleWithHistory(db: Db, user: UserRecord, svcId: string) {
  if (!isSvcId(svcId)) throw NotFound('Sample not found');
  const [row] = await db
    .select({ sample: samples, profileTitle: profiles.title, ownerId: profiles.ownerId })
    .from(samples)
    .innerJoin(profiles, eq(profiles.id, samples.profileId))
    .where(eq(samples.id, svcId));
  if (!row) throw NotFound('Sample not found');
  const full = await maySee(db, user, { id: row.sample.profileId, ownerId: row.ownerId }, row.sample);
  if (!full && isEmbargoed({ ...row.sample, rightsCleared: row.sample.rightsClearedAt !== null })) throw NotFound('Sample not found');
  const changes = await db
    .select({
      id: sampleUpdates.id,
      field: sampleUpdates.field,
      oldValue: sampleUpdates.oldValue,
      newValue: sampleUpdates.newValue,
      updateType: sampleUpdates.updateType,
      timeUpdated: sampleUpdates.timeUpdated,
      actor: users.username,
    })
    .from(sampleUpdates)
    .leftJoin(users, eq(users.id, sampleUpdates.actorId))
    .where(and(eq(sampleUpdates.sampleId, svcId), full ? undefined : inArray(sampleUpdates.field, [...exportedFieldSet()])))
    .orderBy(desc(sampleUpdates.timeUpdated), desc(sampleUpdates.id));
  const history = changes.map((c) => ({ ...c, actor: full ? c.actor : null }));
  return {
    // ERGA permits, for those who may read them (the project's managers, the owner)
    permits: full ? await samplePermits(db, user, svcId).catch(notMine) : [],
    sample: row.sample,
    profileTitle: row.profileTitle,
    history,
    access: full ? ('full' as const) : ('public' as const),
    record: full ? null : publicRecord(row.sample, row.profileTitle),
  };
}
