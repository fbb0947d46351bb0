import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { type TolProject, userApproverTypes, userProjectRoles } from '@/db/schema';
import { PROJECT_APPROVAL_TYPE, requiredTypes } from '@/lib/approvals/approvals';
import type { SampleApprovals } from '@/lib/approvals/contract';
import { profilePeople } from '@/lib/profiles/access';
import { approvalTypes } from '@/lib/reference/read';
import { acceptanceEmailFor } from './acceptance-reference';
import { type MailContext, managersOf, queueEmail, recipientsOf } from './outbox';

/**
 * What the service tells people, and whom (docs/tol-manifests.md §3.2): the sample managers of a project, and the
 * approvers of the profile's types that need approval, when a manifest of theirs is confirmed or updated; the uploader
 * when their samples are accepted, rejected (with the reason), registered at ENA, or refused there; and the approvers
 * of samples that ENA or the ToLID service refused.
 */

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export interface ManifestEvent {
  project: TolProject;
  profileId: string;
  profileTitle: string;
  manifestId: string;
  fileName: string;
  uploader: string;
  created: number;
  updated: number;
  /** why the samples reach the managers now, when not because of the upload (their rights were cleared) */
  note?: string;
  /** the profile's associated types: the approvers of those that need approval are told too */
  associatedTypes?: string[];
}

export async function tellManagersOfManifest(tx: Db, mail: MailContext, e: ManifestEvent): Promise<void> {
  const project = e.project.toUpperCase();
  const update = e.updated > 0;
  const n = update ? e.updated : e.created;
  const subject = update
    ? `[${project}] ${plural(n, 'sample')} updated by ${e.uploader} await review`
    : `[${project}] ${plural(n, 'new sample')} from ${e.uploader} await review`;
  const body = [
    `${e.uploader} ${update ? 'updated' : 'confirmed'} the ${project} manifest ${e.fileName} on the profile "${e.profileTitle}":`,
    update
      ? `${plural(n, 'sample')} changed and ${n === 1 ? 'needs' : 'need'} your review again.`
      : `${plural(n, 'new sample')} ${n === 1 ? 'waits' : 'wait'} for your review.`,
    ...(e.note ? [e.note] : []),
    '',
    // straight to the manifest's group: in a long queue it would otherwise be one among many
    `Review them: ${mail.baseUrl}/manifests/review?manifest=${e.manifestId}`,
    `Manifest ${e.manifestId}`,
  ].join('\n');
  // the samples wait for the approvers of their types as much as for the managers (lib/approvals/approvals.ts)
  const types = requiredTypes({ associatedTolProjects: e.associatedTypes ?? [] }, await approvalTypes(tx));
  const approvers = types.length
    ? await tx.select({ userId: userApproverTypes.userId }).from(userApproverTypes).where(inArray(userApproverTypes.associatedType, types))
    : [];
  const managers = await managersOf(tx, e.project);
  const others = await recipientsOf(
    tx,
    approvers.map((a) => a.userId).filter((id) => !managers.some((m) => m.userId === id)),
  );
  // one email each: managers do not see each other's addresses
  for (const manager of [...managers, ...others]) {
    await queueEmail(tx, mail, {
      kind: update ? 'manifest_updated' : 'manifest_confirmed',
      recipients: [manager],
      subject,
      body,
      profileId: e.profileId,
      manifestId: e.manifestId,
    });
  }
}

export interface SampleGroup {
  /** the uploader of the manifest the samples came from */
  uploaderId: number;
  manifestId: string;
  profileId: string;
  project: TolProject;
  svcIds: string[];
}

/** Groups samples by uploader and manifest, one email each. */
export function byUploader<T extends { createdBy: number | null; manifestId: string; profileId: string; project: TolProject; id: string }>(
  rows: T[],
): SampleGroup[] {
  const groups = new Map<string, SampleGroup>();
  for (const r of rows) {
    if (r.createdBy === null) continue;
    const key = `${r.createdBy}/${r.manifestId}`;
    const g = groups.get(key) ?? {
      uploaderId: r.createdBy,
      manifestId: r.manifestId,
      profileId: r.profileId,
      project: r.project,
      svcIds: [],
    };
    g.svcIds.push(r.id);
    groups.set(key, g);
  }
  return [...groups.values()];
}

function acceptedNext(ids: string[], registering: ReadonlySet<string>, awaiting?: ReadonlyMap<string, string[]>): string {
  const going = ids.filter((id) => registering.has(id)).length;
  if (going === ids.length) return 'They are on their way to ENA.';
  const types = [...new Set(ids.flatMap((id) => awaiting?.get(id) ?? []))].sort();
  const whose = types.length ? `the approvers of ${types.join(' and ')}` : 'the approvers of an associated project';
  const waiting = `${plural(ids.length - going, 'sample')} still ${ids.length - going === 1 ? 'needs' : 'need'} the approval of ${whose}`;
  return going
    ? `${plural(going, 'sample')} ${going === 1 ? 'is' : 'are'} on the way to ENA; ${waiting}.`
    : `${waiting.charAt(0).toUpperCase()}${waiting.slice(1)}.`;
}

const listed = (ids: string[], detail?: (id: string) => string) =>
  ids
    .slice(0, 50)
    .map((id) => `  ${id}${detail ? `  ${detail(id)}` : ''}`)
    .concat(ids.length > 50 ? [`  … and ${ids.length - 50} more`] : [])
    .join('\n');

export type UploaderEvent =
  /**
   * `registering`: those of the samples whose every approval is now present, so that they go on to ENA; `awaiting`:
   * the associated types each of the others still waits for
   */
  | { kind: 'samples_accepted'; by: string; registering: ReadonlySet<string>; awaiting?: ReadonlyMap<string, string[]> }
  | { kind: 'samples_rejected'; by: string; reason: string }
  | { kind: 'samples_registered'; accessions: Map<string, string> }
  /** `cause`: who stopped it, which decides who acts (see registrationFailedWords) */
  | { kind: 'registration_failed'; reason: string; cause: RegistrationStop };

/** What stopped approved samples on their way: ENA's refusal, a registration that gave up, or the ToLID service. */
export type RegistrationStop = 'ena_refused' | 'gave_up' | 'tolid_rejected';

/**
 * The uploader's email after a stop, in words that say who acts: after ENA's refusal or a give-up there is nothing
 * to upload again (a sample manager sends the samples again); after the ToLID service's rejection the manifest's
 * taxon is what to correct. ENA's own message, which names every sample of its document, comes last.
 */
function registrationFailedWords(n: number, manifestId: string, project: string, cause: RegistrationStop, reason: string): string[] {
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

/** Tells each group's uploader, and everyone its profile is shared with (lib/profiles/access.ts), what became of it. */
export async function tellUploaders(tx: Db, mail: MailContext, groups: SampleGroup[], e: UploaderEvent): Promise<void> {
  const people = new Map<string, number[]>();
  for (const g of groups) {
    if (!people.has(g.profileId)) people.set(g.profileId, await profilePeople(tx, g.profileId));
    const project = g.project.toUpperCase();
    const n = g.svcIds.length;
    const link = `${mail.baseUrl}/samples?manifest_id=${g.manifestId}`;
    const recipients = await recipientsOf(tx, [g.uploaderId, ...(people.get(g.profileId) ?? [])]);
    let subject: string;
    let lines: string[];
    switch (e.kind) {
      case 'samples_accepted': {
        const next = acceptedNext(g.svcIds, e.registering, e.awaiting);
        // the associated types' texts and the centres' contacts, when the samples are accepted (lib/mail/acceptance.ts)
        const steps = await acceptanceEmailFor(tx, {
          ...g,
          by: e.by,
          registering: e.registering,
          next,
          link,
          recipients: recipients.map((r) => r.email),
        });
        if (steps) {
          await queueEmail(tx, mail, {
            kind: e.kind,
            recipients,
            subject: steps.subject,
            body: steps.text,
            html: steps.html,
            cc: steps.cc,
            profileId: g.profileId,
            manifestId: g.manifestId,
          });
          continue;
        }
        subject = `[${project}] ${plural(n, 'sample')} accepted`;
        lines = [`${e.by} accepted ${plural(n, 'sample')} of manifest ${g.manifestId}.`, next, '', listed(g.svcIds)];
        break;
      }
      case 'samples_rejected':
        subject = `[${project}] ${plural(n, 'sample')} rejected`;
        lines = [`${e.by} rejected ${plural(n, 'sample')} of manifest ${g.manifestId}.`, `Reason: ${e.reason}`, '', listed(g.svcIds)];
        break;
      case 'samples_registered':
        subject = `[${project}] ${plural(n, 'sample')} registered at ENA`;
        lines = [
          `${plural(n, 'sample')} of manifest ${g.manifestId} ${n === 1 ? 'is' : 'are'} registered at ENA (BioSamples):`,
          '',
          listed(g.svcIds, (id) => e.accessions.get(id) ?? ''),
        ];
        break;
      case 'registration_failed':
        subject =
          e.cause === 'ena_refused'
            ? `[${project}] ENA refused ${plural(n, 'sample')}`
            : `[${project}] ${plural(n, 'sample')} could not be registered at ENA`;
        lines = [...registrationFailedWords(n, g.manifestId, project, e.cause, e.reason), '', listed(g.svcIds)];
        break;
    }
    await queueEmail(tx, mail, {
      kind: e.kind,
      recipients,
      subject,
      body: [...lines, '', `See them: ${link}`].join('\n'),
      profileId: g.profileId,
      manifestId: g.manifestId,
    });
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
