import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { sampleUpdates, samples, type SampleStatus } from '@/db/schema';
import { Conflict, NotFound } from '@/lib/errors';
import { ASSOCIATED_TYPES } from '@/lib/profiles/enums';
import { managesProject, type UserRecord } from '@/lib/users/users';

export type Decision = 'accept' | 'reject';
export const DEFAULT_REJECTION = 'Sample rejected by curator.';

const NEEDS_APPROVAL = new Set(ASSOCIATED_TYPES.filter((a) => a.approvalRequired).map((a) => a.name));
const DECIDABLE: SampleStatus[] = ['pending', 'private', 'rejected'];

export interface DecisionResult {
  accepted: string[];
  rejected: string[];
}

/**
 * A sample manager's (or an admin's) verdict on pending samples of their projects. Accepting records an approval for
 * every associated type that needs one and moves the samples to `processing`, ready for registration at ENA;
 * rejecting keeps the reason out of the public API. All or nothing: one sample the caller may not decide, or that
 * is not awaiting a decision, refuses the whole request.
 */
export async function decideSamples(
  db: Db,
  user: UserRecord,
  input: { svcIds: string[]; decision: Decision; reason?: string },
): Promise<DecisionResult> {
  const ids = [...new Set(input.svcIds.map((s) => s.trim().toLowerCase()).filter(Boolean))];
  return db.transaction(async (tx) => {
    const rows = await tx
      .select()
      .from(samples)
      .where(sql`${samples.id} = any(${sql.param(ids)}::text[])`)
      .for('update');
    const visible = rows.filter((r) => managesProject(user, r.project));
    // samples the caller cannot manage are reported exactly like unknown ids, so ids do not leak
    const missing = ids.filter((id) => !visible.some((r) => r.id === id));
    if (missing.length) throw NotFound(`No sample awaiting your decision with svc_id ${missing.join(', ')}`);
    const notAwaiting = visible.filter((r) => !DECIDABLE.includes(r.status));
    if (notAwaiting.length) {
      throw Conflict(
        `Only pending or rejected samples can be decided; ${notAwaiting.map((r) => `${r.id} is ${r.status}`).join(', ')}.`,
      );
    }
    const now = new Date().toISOString();
    for (const r of visible) {
      const status: SampleStatus = input.decision === 'accept' ? 'processing' : 'rejected';
      const approvals =
        input.decision === 'accept'
          ? {
              ...(r.approvals as Record<string, unknown>),
              ...Object.fromEntries(
                r.associatedTolProjects.filter((t) => NEEDS_APPROVAL.has(t)).map((t) => [t, { user_id: user.id, date: now }]),
              ),
            }
          : {};
      await tx
        .update(samples)
        .set({
          status,
          approvals,
          rejectionReason: input.decision === 'reject' ? input.reason?.trim() || DEFAULT_REJECTION : null,
          timeUpdated: sql`now()`,
        })
        .where(sql`${samples.id} = ${r.id}`);
      await tx.insert(sampleUpdates).values({
        sampleId: r.id,
        manifestId: r.manifestId,
        project: r.project,
        updateType: 'user',
        field: 'status',
        oldValue: r.status,
        newValue: status,
        actorId: user.id,
      });
    }
    const decided = visible.map((r) => r.id);
    return input.decision === 'accept' ? { accepted: decided, rejected: [] } : { accepted: [], rejected: decided };
  });
}

/** Samples waiting for this manager's decision, oldest first (the portal's review queue). */
export async function pendingForManager(db: Db, user: UserRecord, opts: { limit?: number; offset?: number } = {}) {
  const projects = user.isAdmin ? ['asg', 'dtol', 'dtolenv', 'erga'] : user.managerOf;
  if (!projects.length) return { total: 0, samples: [] as (typeof samples.$inferSelect)[] };
  const where = sql`${samples.project} = any(${sql.param(projects)}::text[]) and ${samples.status} in ('pending', 'private')`;
  const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(samples).where(where);
  const rows = await db
    .select()
    .from(samples)
    .where(where)
    .orderBy(samples.timeCreated, samples.id)
    .limit(opts.limit ?? 100)
    .offset(opts.offset ?? 0);
  return { total: count?.n ?? 0, samples: rows };
}
