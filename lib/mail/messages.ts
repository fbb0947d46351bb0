import { inArray } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { type TolProject, userApproverTypes } from '@/db/schema';
import { requiredTypes } from '@/lib/approvals/approvals';
import { profilePeople } from '@/lib/profiles/access';
import { approvalTypes } from '@/lib/reference/read';
import { acceptanceEmailFor } from './acceptance-reference';
import { type MailContext, managersOf, queueEmail, recipientsOf } from './outbox';
import { type RegistrationStop, registrationFailedWords } from './registration-stops';
import { listed, plural } from './words';

/**
 * What the service tells people, and whom (docs/tol-manifests.md §3.2): the sample managers of a project, and the
 * approvers of the profile's types that need approval, when a manifest of theirs is confirmed or updated; the uploader
 * when their samples are accepted, rejected (with the reason), registered at ENA, or stopped on the way (the words
 * of lib/mail/registration-stops.ts, which also tells their approvers).
 */

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
