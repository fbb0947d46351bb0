import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { type SampleStatus, samples, sampleUpdates } from '@/db/schema';
import { Conflict, NotFound } from '@/lib/errors';
import { byUploader, tellUploaders } from '@/lib/mail/messages';
import type { MailContext } from '@/lib/mail/outbox';
import { manifestTypeOf } from '@/lib/manifests/contract';
import { ASSOCIATED_TYPES } from '@/lib/profiles/enums';
import { TOL_PROJECTS, type TolProject } from '@/lib/projects/contract';
import { managesProject, type UserRecord } from '@/lib/users/users';
import { LABEL_COLUMNS, sampleLabels } from './columns';
import type { Decision, DecisionAnswer, PendingSamples, SampleApprovals } from './contract';
import { type RegistrationQueue, routeApprovedSamples } from './registration';
import { onRightsHold, privateReason, traditionalKnowledgeProject } from './rights-hold';

export const DEFAULT_REJECTION = 'Sample rejected by curator.';

/** Associated types whose sample managers must approve a sample before it is registered. */
export const NEEDS_APPROVAL = new Set(ASSOCIATED_TYPES.filter((a) => a.approvalRequired).map((a) => a.name));

// not `private`: such a sample waits for its traditional-knowledge rights (lib/samples/rights-hold.ts)
const DECIDABLE: SampleStatus[] = ['pending', 'rejected'];

/** Every associated type of the sample that needs an approval has one. */
const fullyApproved = (associated: string[], approvals: SampleApprovals) =>
  associated.filter((t) => NEEDS_APPROVAL.has(t)).every((t) => t in approvals);

/**
 * A sample manager's (or an admin's) verdict on pending samples of their projects. Accepting records an approval for
 * every associated type that needs one; a sample whose last required approval this is goes on to registration in
 * the same transaction (lib/samples/registration.ts), with no further call. Rejecting keeps the reason out of the
 * public API. All or nothing: one sample the caller may not decide, or that is not awaiting a decision, refuses the
 * whole request.
 */
export async function decideSamples(
  db: Db,
  user: UserRecord,
  input: { svcIds: string[]; decision: Decision; reason?: string },
  registration: RegistrationQueue,
  mail: MailContext,
): Promise<DecisionAnswer> {
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
    // neither accepted nor rejected before the Local Contexts Hub says the community made its project public
    const held = visible.filter((r) => r.status === 'private' || (input.decision === 'accept' && onRightsHold(r)));
    if (held.length)
      throw Conflict(`${held.map((r) => privateReason(r.id, traditionalKnowledgeProject(r.project, r.fields))).join('; ')}.`);
    const notAwaiting = visible.filter((r) => !DECIDABLE.includes(r.status));
    if (notAwaiting.length) {
      throw Conflict(`Only pending or rejected samples can be decided; ${notAwaiting.map((r) => `${r.id} is ${r.status}`).join(', ')}.`);
    }
    const now = new Date().toISOString();
    const approved: typeof visible = [];
    for (const r of visible) {
      const approvals: SampleApprovals =
        input.decision === 'accept'
          ? {
              ...r.approvals,
              ...Object.fromEntries(
                r.associatedTolProjects.filter((t) => NEEDS_APPROVAL.has(t)).map((t) => [t, { user_id: user.id, date: now }]),
              ),
            }
          : {};
      const ready = input.decision === 'accept' && fullyApproved(r.associatedTolProjects, approvals);
      const status: SampleStatus = input.decision === 'reject' ? 'rejected' : ready ? 'processing' : r.status;
      if (ready) approved.push({ ...r, status });
      await tx
        .update(samples)
        .set({
          status,
          approvals,
          rejectionReason: input.decision === 'reject' ? input.reason?.trim() || DEFAULT_REJECTION : null,
          timeUpdated: sql`now()`,
        })
        .where(sql`${samples.id} = ${r.id}`);
      if (status !== r.status) {
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
    }
    const decided = visible.map((r) => r.id);
    if (input.decision === 'reject') {
      const reason = input.reason?.trim() || DEFAULT_REJECTION;
      await tellUploaders(tx, mail, byUploader(visible), { kind: 'samples_rejected', by: user.username, reason });
      return { accepted: [], rejected: decided, registrations: [] };
    }
    const registrations = await routeApprovedSamples(tx, registration, approved, user.id);
    await tellUploaders(tx, mail, byUploader(visible), {
      kind: 'samples_accepted',
      by: user.username,
      registering: new Set(approved.map((r) => r.id)),
    });
    return { accepted: decided, rejected: [], registrations };
  });
}

/** The projects whose samples this user decides on. */
export const reviewProjects = (user: UserRecord): TolProject[] => (user.isAdmin ? [...TOL_PROJECTS] : user.managerOf);
const awaitingReview = (projects: string[]) =>
  sql`${samples.project} = any(${sql.param(projects)}::text[]) and ${samples.status} in ('pending', 'private')`;

/** How many samples wait for this manager's decision (the home page's count). */
export async function countAwaitingReview(db: Db, user: UserRecord): Promise<number> {
  const projects = reviewProjects(user);
  if (!projects.length) return 0;
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(samples).where(awaitingReview(projects));
  return Number(row?.n ?? 0);
}

/** Samples waiting for this manager's decision, oldest first (the portal's review queue). */
export async function pendingForManager(db: Db, user: UserRecord, opts: { limit?: number; offset?: number } = {}): Promise<PendingSamples> {
  const projects = reviewProjects(user);
  if (!projects.length) return { status: 'OK', number_found: 0, data: [] };
  const total = await countAwaitingReview(db, user);
  const rows = await db
    .select({
      id: samples.id,
      manifestId: samples.manifestId,
      profileId: samples.profileId,
      project: samples.project,
      status: samples.status,
      ...LABEL_COLUMNS,
      timeCreated: samples.timeCreated,
    })
    .from(samples)
    .where(awaitingReview(projects))
    .orderBy(samples.timeCreated, samples.id)
    .limit(opts.limit ?? 100)
    .offset(opts.offset ?? 0);
  return {
    status: 'OK',
    number_found: total,
    data: rows.map((s) => ({
      svc_id: s.id,
      manifest_id: s.manifestId,
      profile_id: s.profileId,
      tol_project: manifestTypeOf(s.project),
      status: s.status,
      ...sampleLabels(s),
      time_created: s.timeCreated.toISOString(),
    })),
  };
}
