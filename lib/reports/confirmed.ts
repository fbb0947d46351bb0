import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { pageWithTotal } from '@/db/rows';
import { manifests, profiles, samples, users, validationReports } from '@/db/schema';
import { NotFound } from '@/lib/errors';
import { isUuid } from '@/lib/identifiers/contract';
import { storedRowNumber, storedRowsOf, storedValue } from '@/lib/manifests/stored-rows';
import { roleOn, visibleProfiles } from '@/lib/profiles/access';
import { LABEL_COLUMNS } from '@/lib/samples/columns';
import { type SampleStatus, STOPPED_AT_ENA } from '@/lib/samples/contract';
import { managesProject, type UserRecord } from '@/lib/users/users';

/**
 * What a confirmed report became, for the portal's pages: the manifests the caller may see, a page at a time, and
 * one manifest with a page of its samples and where each stands.
 */

/** A page of confirmed manifests, newest first: an admin's are all, anyone else's those of the profiles they may see. */
export async function confirmedManifests(db: Db, user: UserRecord, page: { limit: number; offset: number }) {
  const where = visibleProfiles(db, user);
  const list = db
    .select({
      id: manifests.id,
      project: manifests.project,
      version: manifests.version,
      fileName: manifests.fileName,
      createdAt: manifests.createdAt,
      profileId: profiles.id,
      profileTitle: profiles.title,
      samples: sql<number>`(select count(*)::int from ${samples} where ${samples.manifestId} = ${manifests.id})`.as('samples'),
    })
    .from(manifests)
    .innerJoin(profiles, eq(profiles.id, manifests.profileId))
    .where(where)
    .$dynamic();
  return pageWithTotal(db, list, [desc(manifests.createdAt), desc(manifests.id)], page);
}
export type ConfirmedManifest = Awaited<ReturnType<typeof confirmedManifests>>['rows'][number];

/**
 * A manifest with a page of its samples (in upload order) and the count of each status. Whoever may see its profile,
 * the project's sample managers and admins see it; anyone else, and unknown ids, get the same 404.
 */
export async function manifestSamplesPage(db: Db, user: UserRecord, manifestId: string, page: { limit: number; offset: number }) {
  const head = await readableManifest(db, user, manifestId);
  const mine = eq(samples.manifestId, head.manifest.id);
  const uploaded = uploadedPositions(db, head.manifest.reportId);
  const [rows, statuses] = await Promise.all([
    db
      .with(uploaded)
      .select({
        id: samples.id,
        status: samples.status,
        ...LABEL_COLUMNS,
        symbiont: samples.symbiont,
        biosampleAccession: samples.biosampleAccession,
        // where it stands, in the API's names (the portal's SampleState reads these as it reads ReviewSample)
        status_detail: samples.statusDetail,
        rejection_reason: samples.rejectionReason,
        // refused by ENA, or rejected after a manager's approval: the ToLID service refused it, or registration gave up
        registration_failed: sql<boolean>`${inArray(samples.status, [...STOPPED_AT_ENA])} or (${samples.status} = 'rejected' and ${samples.approvals} <> '{}'::jsonb)`,
        timeUpdated: samples.timeUpdated,
      })
      .from(samples)
      .leftJoin(
        uploaded,
        and(eq(uploaded.rack, sql`coalesce(${samples.rackOrPlateId}, '')`), eq(uploaded.tube, sql`coalesce(${samples.tubeOrWellId}, '')`)),
      )
      .where(mine)
      // the rows' order in the spreadsheet; samples of one upload share their creation time, so it alone gave none
      .orderBy(sql`${uploaded.position} asc nulls last`, asc(samples.timeCreated), asc(samples.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ status: samples.status, n: sql<number>`count(*)::int` }).from(samples).where(mine).groupBy(samples.status),
  ]);
  const counts = statuses.map((s) => ({ status: s.status as SampleStatus, samples: Number(s.n) }));
  return {
    manifest: head.manifest,
    profileTitle: head.profileTitle,
    profileOwnerId: head.ownerId,
    uploadedBy: head.uploadedBy,
    samples: rows,
    counts,
    total: counts.reduce((sum, c) => sum + c.samples, 0),
  };
}

/**
 * The upload order of a manifest's samples: each rack and tube's first row number in the report the manifest was
 * confirmed from (a symbiont sharing its target's tube comes next to it), computed once in the database.
 */
export function uploadedPositions(db: Db, reportId: string | null) {
  return db.$with('uploaded').as(
    db
      .select({
        rack: sql<string>`coalesce(${storedValue('RACK_OR_PLATE_ID')}, '')`.as('rack'),
        tube: sql<string>`coalesce(${storedValue('TUBE_OR_WELL_ID')}, '')`.as('tube'),
        position: sql<number>`min(${storedRowNumber})`.as('position'),
      })
      .from(sql`${validationReports} ${storedRowsOf(validationReports.rows)}`)
      .where(sql`${validationReports.id} = ${reportId}`)
      .groupBy(sql`1, 2`),
  );
}

/**
 * A confirmed manifest its reader may see, with its profile's title and its uploader: its profile's owner, the
 * project's sample managers and admins; anyone else, and unknown ids, get the same 404. The manifest's page and its
 * spreadsheet (lib/reports/spreadsheet.ts) both ask here.
 */
export async function readableManifest(db: Db, user: UserRecord, manifestId: string) {
  if (!isUuid(manifestId)) throw NotFound('Manifest not found');
  const [head] = await db
    .select({ manifest: manifests, profileTitle: profiles.title, ownerId: profiles.ownerId, uploadedBy: users.username })
    .from(manifests)
    .innerJoin(profiles, eq(profiles.id, manifests.profileId))
    .leftJoin(users, eq(users.id, manifests.createdBy))
    .where(eq(manifests.id, manifestId.toLowerCase()));
  const maySee = async (h: NonNullable<typeof head>) =>
    managesProject(user, h.manifest.project) || (await roleOn(db, user, { id: h.manifest.profileId, ownerId: h.ownerId })) !== null;
  if (!head || !(await maySee(head))) throw NotFound('Manifest not found');
  return head;
}

export type ManifestSample = Awaited<ReturnType<typeof manifestSamplesPage>>['samples'][number];
