import { asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { profiles, samples } from '@/db/schema';
import { NotFound } from '@/lib/errors';
import { referenceData } from '@/lib/reference/read';
import type { AcceptanceCentre, AcceptanceTemplate } from './acceptance';
import { type AcceptanceEmail, acceptanceEmailWith, previewAcceptance } from './acceptance-email';
import type { AcceptancePreview } from './contract';
import { loadMarkdown } from './markdown';

/**
 * The acceptance email's wiring to the database: the accepted samples' tubes, specimens and associated types, their
 * profile's title and sequencing centres, and, from the lists administrators keep (lib/reference), each type's
 * acceptance text and each centre's contacts. Read on the handle given: in a decision, its transaction's.
 */

/** The acceptance texts of these associated types, in the order lists show them. */
export async function acceptanceTemplatesOf(db: Db, types: string[]): Promise<AcceptanceTemplate[]> {
  const wanted = new Set(types);
  return (await referenceData(db)).associatedTypes
    .filter((t) => wanted.has(t.name))
    .map((t) => ({ type: t.name, label: t.label, text: t.acceptanceText }));
}

/** These sequencing centres with their contacts, in the order lists show them. */
export async function acceptanceCentresOf(db: Db, names: string[]): Promise<AcceptanceCentre[]> {
  const wanted = new Set(names);
  return (await referenceData(db)).sequencingCentres
    .filter((c) => wanted.has(c.name))
    .map((c) => ({ name: c.name, label: c.label, contacts: c.contacts }));
}

export interface AcceptedGroup {
  project: string;
  profileId: string;
  manifestId: string;
  svcIds: string[];
  by: string;
  /** the samples whose every approval is present now */
  registering: ReadonlySet<string>;
  next: string;
  link: string;
  /** the addresses the email goes to */
  recipients: string[];
}

/** The acceptance email of one uploader's accepted samples, or null when the plain one says all there is. */
export async function acceptanceEmailFor(db: Db, g: AcceptedGroup): Promise<AcceptanceEmail | null> {
  if (!g.svcIds.some((id) => g.registering.has(id))) return null;
  await loadMarkdown();
  const [profile] = await db
    .select({ title: profiles.title, centres: profiles.sequencingCentres })
    .from(profiles)
    .where(eq(profiles.id, g.profileId));
  if (!profile) return null;
  const rows = await db
    .select({
      svcId: samples.id,
      tube: samples.tubeOrWellId,
      specimen: samples.specimenId,
      types: samples.associatedTolProjects,
    })
    .from(samples)
    .where(inArray(samples.id, g.svcIds))
    .orderBy(asc(samples.tubeOrWellId), asc(samples.id));
  const accepted = rows.filter((r) => g.registering.has(r.svcId));
  const templates = await acceptanceTemplatesOf(db, [...new Set(accepted.flatMap((r) => r.types))]);
  const centres = await acceptanceCentresOf(db, profile.centres);
  return acceptanceEmailWith({
    project: g.project,
    by: g.by,
    manifestId: g.manifestId,
    profileTitle: profile.title,
    samples: rows,
    accepted,
    next: g.next,
    link: g.link,
    templates,
    centres,
    recipients: g.recipients,
  });
}

/** The admin's preview of an associated type's acceptance email with this text (lib/mail/acceptance-email.ts). */
export async function previewAcceptanceOf(db: Db, name: string, text: string, baseUrl: string): Promise<AcceptancePreview> {
  const [type] = await acceptanceTemplatesOf(db, [name.toUpperCase()]);
  if (!type) throw NotFound(`No associated type ${name}.`);
  await loadMarkdown();
  return previewAcceptance({ name: type.type, label: type.label }, text, baseUrl);
}
