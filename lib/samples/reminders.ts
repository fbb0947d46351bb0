import { and, asc, eq, inArray, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Db } from '@/db/client';
import { manifests, profiles, samples, userApproverTypes, userProjectRoles, users } from '@/db/schema';
import { approverScopeIn, awaitedTypes, typesApprovedBy, waitsForSql } from '@/lib/approvals/approvals';
import { jobSpec } from '@/lib/jobs/spec';
import { type MailContext, queueEmail } from '@/lib/mail/outbox';
import { manifestTypeOf } from '@/lib/manifests/contract';
import { getUser } from '@/lib/users/users';

/**
 * The `approvals.remind` job (hourly): each approver and sample manager with an email gets ONE digest of the samples
 * that have waited for them (lib/approvals/approvals.ts waitsForSql) unchanged for longer than REMINDER_DAYS, and no other
 * for REMINDER_DAYS after it (users.approval_reminded_at). Only the roles a user was given count, not an admin's
 * reach: admins decide everything but are not the ones a sample waits for. The email and its `email.send` job are
 * written in the transaction that marks the user reminded, so a digest is recorded once or not at all.
 */

export interface ReminderDeps {
  db: Db;
  mail: MailContext;
  /** REMINDER_DAYS; 0 turns reminders off */
  days: number;
}

const DAY_MS = 24 * 3600 * 1000;
/** samples named in a digest; the review queue has them all */
const LISTED = 50;

/** Sends the digests that are due; returns how many. */
export async function remindApprovers(deps: ReminderDeps): Promise<number> {
  if (deps.days <= 0) return 0;
  const since = new Date(Date.now() - deps.days * DAY_MS);
  const due = or(isNull(users.approvalRemindedAt), lt(users.approvalRemindedAt, since));
  const candidates = await deps.db
    .selectDistinct({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.isActive, true),
        ne(sql`trim(${users.email})`, ''),
        due,
        or(
          inArray(users.id, deps.db.select({ id: userApproverTypes.userId }).from(userApproverTypes)),
          inArray(
            users.id,
            deps.db.select({ id: userProjectRoles.userId }).from(userProjectRoles).where(eq(userProjectRoles.role, 'sample_manager')),
          ),
        ),
      ),
    )
    .orderBy(users.id);
  let sent = 0;
  for (const { id } of candidates) if (await remindOne(deps, id, since)) sent += 1;
  return sent;
}

async function remindOne(deps: ReminderDeps, userId: number, since: Date): Promise<boolean> {
  const user = await getUser(deps.db, userId);
  const scope = await approverScopeIn(deps.db, user, { named: true });
  return deps.db.transaction(async (tx) => {
    // another instance's run may have reminded them since the list was read: the row lock and the re-check decide
    const [row] = await tx
      .select({ remindedAt: users.approvalRemindedAt })
      .from(users)
      .where(and(eq(users.id, userId), eq(users.isActive, true)))
      .for('update', { skipLocked: true });
    if (!row || (row.remindedAt && row.remindedAt >= since)) return false;
    const waiting = await tx
      .select({
        id: samples.id,
        project: samples.project,
        associatedTolProjects: samples.associatedTolProjects,
        approvals: samples.approvals,
        manifestId: samples.manifestId,
        fileName: manifests.fileName,
        profileTitle: profiles.title,
        since: samples.timeUpdated,
      })
      .from(samples)
      .innerJoin(manifests, eq(manifests.id, samples.manifestId))
      .innerJoin(profiles, eq(profiles.id, samples.profileId))
      .where(and(waitsForSql(scope), lt(samples.timeUpdated, since)))
      .orderBy(asc(samples.timeUpdated), asc(samples.id));
    if (!waiting.length) return false;

    const lines = waiting.slice(0, LISTED).map((s) => {
      const yours = awaitedTypes(s, s.approvals, scope.required).filter((t) => typesApprovedBy(scope, s).includes(t));
      const what = yours.length ? `awaits your approval for ${yours.join(' and ')}` : 'awaits your decision';
      return `  ${s.id}  ${manifestTypeOf(s.project)}, ${s.fileName} ("${s.profileTitle}"), ${what} since ${s.since.toISOString().slice(0, 10)}`;
    });
    if (waiting.length > LISTED) lines.push(`  … and ${waiting.length - LISTED} more`);
    const n = waiting.length;
    const manifestIds = new Set(waiting.map((s) => s.manifestId));
    // one manifest: the link opens its group of the queue alone
    const review = manifestIds.size === 1 ? `/manifests/review?manifest=${waiting[0]?.manifestId}` : '/manifests/review';
    await queueEmail(tx, deps.mail, {
      kind: 'approval_reminder',
      recipients: [{ userId: user.id, email: user.email }],
      subject: `${n === 1 ? '1 sample has' : `${n} samples have`} waited more than ${deps.days} days for you`,
      body: [
        `${n === 1 ? 'This sample has' : `These ${n} samples have`} waited more than ${deps.days} days for your approval:`,
        '',
        ...lines,
        '',
        `Review them: ${deps.mail.baseUrl}${review}`,
        `You are reminded at most once every ${deps.days} days.`,
      ].join('\n'),
      ...(manifestIds.size === 1 && { manifestId: waiting[0]?.manifestId }),
    });
    await tx.update(users).set({ approvalRemindedAt: sql`now()` }).where(eq(users.id, user.id));
    return true;
  });
}

const RemindApproversData = z.strictObject({});

declare module '@/lib/jobs/contract' {
  interface JobDataByName {
    'approvals.remind': z.infer<typeof RemindApproversData>;
  }
}

/** `approvals.remind`, hourly: a digest to each approver not reminded for REMINDER_DAYS. */
export const remindApproversJob = jobSpec({
  name: 'approvals.remind',
  label: 'Reminders to approvers',
  data: RemindApproversData,
  expireSeconds: 30 * 60,
  schedule: '41 * * * *',
  async run(deps: Omit<ReminderDeps, 'days'> & { logger: Logger; reminderDays: number }) {
    const sent = await remindApprovers({ ...deps, days: deps.reminderDays });
    if (sent) deps.logger.info({ approvers: sent }, 'approvers reminded of the samples waiting for them');
  },
});
