import { inArray } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { samples } from '@/db/schema';
import { Conflict, NotFound } from '@/lib/errors';
import type { JobQueue } from '@/lib/jobs/queue';
import { type Registration, stoppedAtEna } from '@/lib/samples/contract';
import { registrableColumns, registrationQueue, routeApprovedSamples, WAITING_STATUSES } from '@/lib/samples/registration';
import { managesProject, type UserRecord } from '@/lib/users/users';

type RegistrationSettings = Parameters<typeof registrationQueue>[0];

export const ENA_SETTINGS_MISSING = 'ENA submission is not configured: set ENA_USERNAME and ENA_PASSWORD.';

/**
 * Retry registration (`sample/register`): approved samples the caller manages that are not registered yet, or
 * whose registration failed after approval (refused by ENA, rejected by the ToLID service, or given up after an outage),
 * are sent on again. Idempotent: samples already in an open registration are answered with it, and two identical
 * requests at once make one registration (the rows are locked). 409, nothing queued, without a Webin account.
 */
export async function queueSampleRegistration(
  deps: { db: Db; jobs: JobQueue; config: RegistrationSettings },
  user: UserRecord,
  svcIds: string[],
): Promise<Registration[]> {
  const q = registrationQueue(deps.config, deps.jobs);
  if (!q.enaConfigured) throw Conflict(ENA_SETTINGS_MISSING);
  const ids = [...new Set(svcIds.map((s) => s.trim().toLowerCase()))];
  return deps.db.transaction(async (tx) => {
    const rows = await tx
      .select({ ...registrableColumns, approvals: samples.approvals })
      .from(samples)
      .where(inArray(samples.id, ids))
      .for('update');
    const mine = rows.filter((r) => managesProject(user, r.project));
    const missing = ids.filter((id) => !mine.some((r) => r.id === id));
    if (missing.length) throw NotFound(`No sample you manage with svc_id ${missing.join(', ')}`);
    // refused by ENA, a give-up, or rejected by the ToLID service after approval: never a manager's rejection
    const failedAfterApproval = (r: (typeof rows)[number]) =>
      stoppedAtEna(r.status) || (r.status === 'rejected' && Object.keys(r.approvals).length > 0);
    const notReady = mine.filter((r) => !WAITING_STATUSES.includes(r.status) && r.status !== 'sending' && !failedAfterApproval(r));
    if (notReady.length) {
      throw Conflict(
        `Only approved samples not yet registered, or whose registration failed, can be sent; ${notReady.map((r) => `${r.id} is ${r.status}`).join(', ')}.`,
      );
    }
    return routeApprovedSamples(tx, q, mine, user.id);
  });
}
