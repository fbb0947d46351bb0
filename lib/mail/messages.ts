import type { Db } from '@/db/client';
import type { TolProject } from '@/db/schema';
import { type MailContext, managersOf, queueEmail, recipientsOf } from './outbox';

/**
 * What the service tells people, and whom (tol-manifests.md §3.2): the sample managers of a project when a manifest
 * of theirs is confirmed or updated, and the uploader when their samples are accepted, rejected (with the reason),
 * registered at ENA, or refused there.
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
    `Review them: ${mail.baseUrl}/manifests/review`,
    `Manifest ${e.manifestId}`,
  ].join('\n');
  // one email each: managers do not see each other's addresses
  for (const manager of await managersOf(tx, e.project)) {
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

function acceptedNext(ids: string[], registering: ReadonlySet<string>): string {
  const going = ids.filter((id) => registering.has(id)).length;
  if (going === ids.length) return 'They are on their way to ENA.';
  const waiting = `${plural(ids.length - going, 'sample')} still ${ids.length - going === 1 ? 'needs' : 'need'} the approval of the managers of an associated project`;
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
  /** `registering`: those of the samples whose every approval is now present, so that they go on to ENA */
  | { kind: 'samples_accepted'; by: string; registering: ReadonlySet<string> }
  | { kind: 'samples_rejected'; by: string; reason: string }
  | { kind: 'samples_registered'; accessions: Map<string, string> }
  | { kind: 'registration_failed'; reason: string };

export async function tellUploaders(tx: Db, mail: MailContext, groups: SampleGroup[], e: UploaderEvent): Promise<void> {
  for (const g of groups) {
    const project = g.project.toUpperCase();
    const n = g.svcIds.length;
    const link = `${mail.baseUrl}/samples?manifest_id=${g.manifestId}`;
    let subject: string;
    let lines: string[];
    switch (e.kind) {
      case 'samples_accepted':
        subject = `[${project}] ${plural(n, 'sample')} accepted`;
        lines = [
          `${e.by} accepted ${plural(n, 'sample')} of manifest ${g.manifestId}.`,
          acceptedNext(g.svcIds, e.registering),
          '',
          listed(g.svcIds),
        ];
        break;
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
        subject = `[${project}] ${plural(n, 'sample')} could not be registered at ENA`;
        lines = [
          `The registration of ${plural(n, 'sample')} of manifest ${g.manifestId} failed.`,
          `Reason: ${e.reason}`,
          '',
          listed(g.svcIds),
        ];
        break;
    }
    await queueEmail(tx, mail, {
      kind: e.kind,
      recipients: await recipientsOf(tx, [g.uploaderId]),
      subject,
      body: [...lines, '', `See them: ${link}`].join('\n'),
      profileId: g.profileId,
      manifestId: g.manifestId,
    });
  }
}
