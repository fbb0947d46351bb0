import type { Db } from '@/db/client';
import { type AuditedObject, auditEvents } from '@/db/schema';
import type { UserRecord } from '@/lib/users/users';

/** One removal as `audit_events` keeps it: what went, from which profile, and what identified it. */
export interface Removal {
  objectType: AuditedObject;
  objectId: string;
  /** the profile it belonged to */
  profileId: string | null;
  /** what a person would name it by: file name, tube and rack, specimen, study name… */
  detail: Record<string, string | number | null>;
}

// rows per insert: a profile's removal may name ten thousand samples, and a statement takes at most 65,535 values
const BATCH = 1_000;

/**
 * Writes the removals in the caller's transaction, so an event exists exactly when what it names is gone. The rows
 * outlive their objects (no foreign keys), which is the point: they are what is left to read.
 */
export async function recordRemovals(tx: Db, actor: UserRecord, removals: readonly Removal[]): Promise<void> {
  for (let i = 0; i < removals.length; i += BATCH) {
    await tx.insert(auditEvents).values(
      removals.slice(i, i + BATCH).map((r) => ({
        actorId: actor.id,
        action: 'delete' as const,
        objectType: r.objectType,
        objectId: r.objectId,
        profileId: r.profileId,
        detail: r.detail,
      })),
    );
  }
}

/** The sentence every refusal ends with: the rule that decides what may be deleted. */
export const NEVER_DELETED = 'what reached a public archive is never deleted.';

/** What changes who may use a profile: a share made or changed, ended, or the profile given to another owner. */
export type ProfileEvent = 'share' | 'unshare' | 'transfer';

/** Records a change of who may use a profile, in the caller's transaction; `detail` names who and with what role. */
export async function recordProfileEvent(
  tx: Db,
  actor: UserRecord,
  profileId: string,
  action: ProfileEvent,
  detail: Record<string, string>,
): Promise<void> {
  await tx.insert(auditEvents).values({ actorId: actor.id, action, objectType: 'profile', objectId: profileId, profileId, detail });
}
