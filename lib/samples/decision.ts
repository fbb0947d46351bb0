import { asc, desc, inArray, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { lotsOf } from '@/db/rows';
import { type SampleStatus, samples, sampleUpdates, users } from '@/db/schema';
import {
  approvalsGiven,
  approverIds,
  approverScopeIn,
  awaitedTypes,
  decidesOn,
  reviewsSamples,
  typesApprovedBy,
  waitsForSql,
} from '@/lib/approvals/approvals';
import { Conflict, NotFound } from '@/lib/errors';
import { byUploader, tellUploaders } from '@/lib/mail/messages';
import type { MailContext } from '@/lib/mail/outbox';
import { manifestTypeOf } from '@/lib/manifests/contract';
import type { UserRecord } from '@/lib/users/users';
import { changeOf, LABEL_COLUMNS, sampleLabels } from './columns';
import { type Decision, type DecisionAnswer, type PendingSamples, type SampleApprovals, STOPPED_AT_ENA } from './contract';
import { type RegistrationQueue, routeApprovedSamples } from './registration';
import { onRightsHold, privateReason, traditionalKnowledgeProject } from './rights-hold';

export const DEFAULT_REJECTION = 'Sample rejected by curator.';

// not `private`: such a sample waits for its traditional-knowledge rights (lib/samples/rights-hold.ts); `refused`: a
// manager may still reject a sample ENA refused (or whose registration failed), or accept it again, which sends it on
// as a retry does
const DECIDABLE: SampleStatus[] = ['pending', 'rejected', ...STOPPED_AT_ENA];

/** The usernames of these users (approvers named in approvals), for messages and lists. */
export async function usernamesOf(db: Db, ids: number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const rows = await db.select({ id: users.id, username: users.username }).from(users).where(inArray(users.id, ids));
  return new Map(rows.map((r) => [r.id, r.username]));
}

/**
 * A decision on samples by one who decides on them (lib/approvals/approvals.ts: the project's sample managers, the
 * approvers of one of the sample's required types, admins). Accepting records the caller's approvals: the sample's
 * awaited types that the caller approves; a sample whose last required approval this is goes on to registration in
 * the same transaction (lib/samples/registration.ts), with no further call, and one that still awaits other types
 * stays pending, saying which. An accept that would record nothing for a sample that still awaits approvals (none
 * of them is the caller's) is refused with 409 naming what it awaits and what it has. Rejecting, by any of them,
 * clears its approvals and keeps the reason out of the public API. All or nothing: one sample the caller may not
 * decide, or that is not awaiting a decision, refuses the whole request.
 */
export async function decideSamples(
  db: Db,
  user: UserRecord,
  input: { svcIds: string[]; decision: Decision; reason?: string },
  registration: RegistrationQueue,
  mail: MailContext,
): Promise<DecisionAnswer> {
  const ids = [...new Set(input.svcIds.map((s) => s.trim().toLowerCase()).filter(Boolean))];
  // read before the transaction: the reference data's copy is read on the service's own handle
  const scope = await approverScopeIn(db, user);
  const { required } = scope;
  return db.transaction(async (tx) => {
    const rows = await tx
      .select()
      .from(samples)
      .where(sql`${samples.id} = any(${sql.param(ids)}::text[])`)
      .for('update');
    const visible = rows.filter((r) => decidesOn(scope, r));
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
    // what each accept records: the awaited types that are the caller's
    const recording = new Map(
      visible.map((r) => {
        const mine = typesApprovedBy(scope, r);
        return [r.id, awaitedTypes(r, r.approvals, required).filter((t) => mine.includes(t))];
      }),
    );
    if (input.decision === 'accept') {
      const notYours = visible.filter((r) => awaitedTypes(r, r.approvals, required).length > 0 && !recording.get(r.id)?.length);
      if (notYours.length) throw Conflict(await notYoursMessage(tx, notYours, required));
    }
    const now = new Date().toISOString();
    const approved: typeof visible = [];
    const stillAwaited = new Map<string, string[]>();
    const reason = input.decision === 'reject' ? input.reason?.trim() || DEFAULT_REJECTION : null;
    const next = visible.map((r) => {
      const approvals: SampleApprovals =
        input.decision === 'accept'
          ? { ...r.approvals, ...Object.fromEntries((recording.get(r.id) ?? []).map((t) => [t, { user_id: user.id, date: now }])) }
          : {};
      stillAwaited.set(r.id, awaitedTypes(r, approvals, required));
      const ready = input.decision === 'accept' && stillAwaited.get(r.id)?.length === 0;
      // every decidable sample not yet ready waits as a pending one does: a rejected or stopped one accepted again too
      const status: SampleStatus = input.decision === 'reject' ? 'rejected' : ready ? 'processing' : 'pending';
      if (ready) approved.push({ ...r, status });
      return { r, status, approvals };
    });
    await writeDecisions(tx, next, reason, user.id);
    const decided = visible.map((r) => r.id);
    if (reason !== null) {
      await tellUploaders(tx, mail, byUploader(visible), { kind: 'samples_rejected', by: user.username, reason });
      return { accepted: [], rejected: decided, registrations: [] };
    }
    const registrations = await routeApprovedSamples(tx, registration, approved, user.id);
    await tellUploaders(tx, mail, byUploader(visible), {
      kind: 'samples_accepted',
      by: user.username,
      registering: new Set(approved.map((r) => r.id)),
      awaiting: stillAwaited,
    });
    return { accepted: decided, rejected: [], registrations };
  });
}

/**
 * The decided samples' new status and approvals, and a history row for each whose status changed: a statement per
 * thousand samples rather than two per sample, so that deciding a whole manifest costs a few round trips.
 */
async function writeDecisions(
  tx: Db,
  next: {
    r: Pick<typeof samples.$inferSelect, 'id' | 'manifestId' | 'project' | 'status'>;
    status: SampleStatus;
    approvals: SampleApprovals;
  }[],
  reason: string | null,
  actorId: number,
): Promise<void> {
  for (const lot of lotsOf(next)) {
    await tx.execute(sql`
      update ${samples} set status = v.status, approvals = v.approvals, rejection_reason = ${reason}, time_updated = now()
      from unnest(
        ${sql.param(lot.map((n) => n.r.id))}::text[],
        ${sql.param(lot.map((n) => n.status))}::text[],
        ${sql.param(lot.map((n) => JSON.stringify(n.approvals)))}::jsonb[]
      ) as v(id, status, approvals)
      where ${samples.id} = v.id`);
  }
  const changed = next.filter((n) => n.status !== n.r.status);
  for (const lot of lotsOf(changed)) {
    await tx.insert(sampleUpdates).values(
      lot.map((n) => ({
        ...changeOf(n.r, 'user'),
        field: 'status',
        oldValue: n.r.status,
        newValue: n.status,
        actorId,
      })),
    );
  }
}

/** `0123…abcd awaits BGE (ERGA_COMMUNITY approved by jane at …)`, for each sample an accept would record nothing on. */
async function notYoursMessage(
  db: Db,
  rows: { id: string; associatedTolProjects: string[]; approvals: SampleApprovals }[],
  required: ReadonlySet<string>,
) {
  const names = await usernamesOf(db, approverIds(rows));
  const each = rows.slice(0, 10).map((r) => {
    const given = approvalsGiven(r.approvals, names).map(
      (a) => `${a.associated_type} approved by ${a.approved_by ?? `user ${a.user_id}`} at ${a.approved_at}`,
    );
    return `${r.id} awaits ${awaitedTypes(r, r.approvals, required).join(' and ')}${given.length ? ` (${given.join('; ')})` : ''}`;
  });
  const more = rows.length > 10 ? `; and ${rows.length - 10} more` : '';
  return `Nothing awaits your approval on ${rows.length === 1 ? 'this sample' : 'these samples'}: you approve none of the associated types ${rows.length === 1 ? 'it awaits' : 'they await'}. ${each.join('; ')}${more}.`;
}

/** How many samples wait for this user (the home page's count): the same samples as pendingForManager lists. */
export async function countAwaitingReview(db: Db, user: UserRecord): Promise<number> {
  const scope = await approverScopeIn(db, user);
  if (!reviewsSamples(user, scope.required)) return 0;
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(samples).where(waitsForSql(scope));
  return Number(row?.n ?? 0);
}

/**
 * Samples waiting for this user, newest first unless `sort` says oldest (GET sample/pending): those awaiting an approval of a type the user
 * approves, and those awaiting no approval that the user decides on (lib/approvals/approvals.ts waitsForSql).
 */
export async function pendingForManager(
  db: Db,
  user: UserRecord,
  opts: { limit?: number; offset?: number; sort?: 'newest' | 'oldest' } = {},
): Promise<PendingSamples> {
  const scope = await approverScopeIn(db, user);
  if (!reviewsSamples(user, scope.required)) return { status: 'OK', number_found: 0, data: [] };
  const total = await countAwaitingReview(db, user);
  const rows = await db
    .select({
      id: samples.id,
      manifestId: samples.manifestId,
      profileId: samples.profileId,
      project: samples.project,
      status: samples.status,
      associatedTolProjects: samples.associatedTolProjects,
      approvals: samples.approvals,
      ...LABEL_COLUMNS,
      timeCreated: samples.timeCreated,
    })
    .from(samples)
    .where(waitsForSql(scope))
    // a manifest's samples, made in one statement, keep their order either way
    .orderBy(opts.sort === 'oldest' ? asc(samples.timeCreated) : desc(samples.timeCreated), samples.id)
    .limit(opts.limit ?? 100)
    .offset(opts.offset ?? 0);
  const names = await usernamesOf(db, approverIds(rows));
  return {
    status: 'OK',
    number_found: total,
    data: rows.map((s) => {
      const waiting = awaitedTypes(s, s.approvals, scope.required);
      const mine = typesApprovedBy(scope, s);
      return {
        svc_id: s.id,
        manifest_id: s.manifestId,
        profile_id: s.profileId,
        tol_project: manifestTypeOf(s.project),
        status: s.status,
        ...sampleLabels(s),
        approvals: approvalsGiven(s.approvals, names),
        waiting_for: waiting,
        waiting_for_you: waiting.filter((t) => mine.includes(t)),
        time_created: s.timeCreated.toISOString(),
      };
    }),
  };
}
