import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { type TolProject, userApproverTypes, userProjectRoles } from '@/db/schema';
import { PROJECT_APPROVAL_TYPE, requiredTypes } from '@/lib/approvals/approvals';
import type { SampleApprovals } from '@/lib/approvals/contract';
import { approvalTypes } from '@/lib/reference/read';
import { type MailContext, queueEmail, recipientsOf } from './outbox';
import { listed, plural } from './words';

/**
 * What people are told when approved samples stop on their way to ENA: the uploader's words (their email is sent
 * with the others', lib/mail/messages.ts) and the approvers' emails.
 */

/** What stopped approved samples on their way: ENA's refusal, a registration that gave up, or the ToLID service. */
export type RegistrationStop = 'ena_refused' | 'gave_up' | 'tolid_rejected';

/**
 * The uploader's email after a stop, in words that say who acts: after ENA's refusal or a give-up there is nothing
 * to upload again (a sample manager sends the samples again); after the ToLID service's rejection the manifest's
 * taxon is what to correct. ENA's own message, which names every sample of its document, comes last.
 */
export function registrationFailedWords(n: number, manifestId: string, project: string, cause: RegistrationStop, reason: string): string[] {
  const them = n === 1 ? 'it' : 'them';
  switch (cause) {
    case 'ena_refused':
      return [
        `ENA refused the registration of ${plural(n, 'sample')} of manifest ${manifestId}.`,
        `There is nothing for you to upload again: a sample manager of ${project} sends ${them} again once the cause is fixed, and asks you should a value of yours need correcting.`,
        `ENA's message: ${reason}`,
      ];
    case 'gave_up':
      return [
        `The registration of ${plural(n, 'sample')} of manifest ${manifestId} at ENA could not be completed.`,
        `There is nothing for you to upload again: a sample manager of ${project} sends ${them} again.`,
        `What went wrong: ${reason}`,
      ];
    case 'tolid_rejected':
      return [
        `${plural(n, 'sample')} of manifest ${manifestId} could not be sent to ENA.`,
        `Reason: ${reason}`,
        `Correct the taxon in the manifest and upload it again.`,
      ];
  }
}

/** A sample as its approvers are told of it: whose approvals it carries, and which types need one. */
export interface ApprovedSample {
  id: string;
  manifestId: string;
  profileId: string;
  project: TolProject;
  createdBy: number | null;
  associatedTolProjects: string[];
  approvals: SampleApprovals;
}

/**
 * Tells the approvers of samples that ENA or the ToLID service refused them, with the reason: the users whose
 * approvals they carry and the approvers of their types that need approval (a project's sample managers approve its
 * own type, lib/approvals/approvals.ts), each one email per manifest; the uploader, told by tellUploaders, is left out.
 */
export async function tellApprovers(
  tx: Db,
  mail: MailContext,
  rows: ApprovedSample[],
  reason: string,
  cause: RegistrationStop,
): Promise<void> {
  const byManifest = new Map<string, ApprovedSample[]>();
  for (const r of rows) byManifest.set(r.manifestId, [...(byManifest.get(r.manifestId) ?? []), r]);
  for (const [manifestId, group] of byManifest) {
    const first = group[0];
    if (!first) continue;
    const recipients = (await approversOf(tx, group)).filter((r) => !group.some((s) => s.createdBy === r.userId));
    const project = first.project.toUpperCase();
    const n = group.length;
    const subject = `[${project}] ${plural(n, 'sample')} you approved could not be registered`;
    const stopped =
      cause === 'ena_refused'
        ? 'refused by ENA'
        : cause === 'gave_up'
          ? 'not registered: the registration could not be completed'
          : 'rejected by the ToLID service';
    const body = [
      `${plural(n, 'sample')} of manifest ${manifestId} that ${n === 1 ? 'waits' : 'wait'} for your approval or carry it ${n === 1 ? 'was' : 'were'} ${stopped}.`,
      cause === 'tolid_rejected'
        ? 'Its uploader corrects the taxon and uploads the manifest again.'
        : `A sample manager of ${project} sends ${n === 1 ? 'it' : 'them'} again from the review queue once the cause is fixed.`,
      `${cause === 'ena_refused' ? "ENA's message" : 'Reason'}: ${reason}`,
      '',
      listed(group.map((r) => r.id)),
      '',
      `See them: ${mail.baseUrl}/manifests/review?manifest=${manifestId}#decided-heading`,
    ].join('\n');
    // one email each: approvers do not see each other's addresses
    for (const recipient of recipients) {
      await queueEmail(tx, mail, {
        kind: 'registration_failed',
        recipients: [recipient],
        subject,
        body,
        profileId: first.profileId,
        manifestId,
      });
    }
  }
}

/** The active approvers of these samples (see tellApprovers), by id. */
async function approversOf(tx: Db, rows: ApprovedSample[]) {
  const given = rows.flatMap((r) => Object.values(r.approvals).flatMap((a) => (a ? [a.user_id] : [])));
  const required = await approvalTypes(tx);
  const types = [...new Set(rows.flatMap((r) => requiredTypes(r, required)))];
  const projects = [
    ...new Set(rows.filter((r) => requiredTypes(r, required).includes(PROJECT_APPROVAL_TYPE[r.project] ?? '')).map((r) => r.project)),
  ];
  const named = types.length
    ? await tx.select({ userId: userApproverTypes.userId }).from(userApproverTypes).where(inArray(userApproverTypes.associatedType, types))
    : [];
  const managers = projects.length
    ? await tx
        .select({ userId: userProjectRoles.userId })
        .from(userProjectRoles)
        .where(and(inArray(userProjectRoles.project, projects), eq(userProjectRoles.role, 'sample_manager')))
    : [];
  return recipientsOf(tx, [...given, ...named.map((r) => r.userId), ...managers.map((r) => r.userId)]);
}
