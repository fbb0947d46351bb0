import { and, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { isAnyOf } from '@/db/any-of';
import type { Db } from '@/db/client';
import { manifests, permits, profiles, samples, users } from '@/db/schema';
import {
  type ApproverScope,
  AWAITING_DECISION,
  approvalsGiven,
  approverIds,
  awaitedTypes,
  typesApprovedBy,
} from '@/lib/approvals/approvals';
import { manifestTypeOf } from '@/lib/manifests/contract';
import { permitNamesOf } from '@/lib/permits/permits';
import { sampleLabels } from './columns';
import { countByStatus, stoppedAtEna } from './contract';
import { usernamesOf } from './decision';
import type { ReviewGroup, ReviewPermit, ReviewSample } from './review-contract';

/** The review queue's groups as the API answers them: each manifest's head, its samples, their approvals and permits. */

type SampleRow = typeof samples.$inferSelect;
/** What names a sample in its group and counts it: read for every sample of the page's manifests. */
export type NamedSample = Pick<SampleRow, 'id' | 'manifestId' | 'status' | 'approvals'>;
export interface Decision {
  by: string | null;
  at: Date;
}

/** How a sample is shown to this reviewer: their scope, and the names of the approvers its approvals carry. */
interface Viewer {
  scope: ApproverScope;
  names: Map<number, string>;
}

/**
 * The page's manifests, in the page's order, each with its samples of the list: every one named, the first `described`
 * of them (all when not given) described in full, so that a page of manifests of thousands of rows stays small. Only
 * the described samples are read whole (their fields, labels and permits).
 */
export async function groups(
  db: Db,
  manifestIds: string[],
  rows: NamedSample[],
  decisions: Map<string, Decision>,
  scope: ApproverScope,
  described?: number,
): Promise<ReviewGroup[]> {
  if (!manifestIds.length) return [];
  const ownOf = new Map<string, NamedSample[]>(manifestIds.map((id) => [id, []]));
  for (const r of rows) ownOf.get(r.manifestId)?.push(r);
  const describedOf = (own: NamedSample[]) => (described === undefined ? own : own.slice(0, described));
  const shownIds = [...ownOf.values()].flatMap((own) => describedOf(own).map((r) => r.id));
  const whole = new Map(
    (shownIds.length ? await db.select().from(samples).where(isAnyOf(samples.id, shownIds)) : []).map((r) => [r.id, r]),
  );
  const viewer: Viewer = { scope, names: await usernamesOf(db, approverIds([...whole.values()])) };
  const heads = await db
    .select({
      manifest: manifests,
      profileTitle: profiles.title,
      uploadedBy: users.username,
      total: sql<number>`(select count(*)::int from ${samples} where ${samples.manifestId} = ${manifests.id})`,
    })
    .from(manifests)
    .innerJoin(profiles, eq(profiles.id, manifests.profileId))
    .leftJoin(users, eq(users.id, manifests.createdBy))
    .where(inArray(manifests.id, manifestIds));
  const byId = new Map(heads.map((h) => [h.manifest.id, h]));
  const out: ReviewGroup[] = [];
  for (const id of manifestIds) {
    const head = byId.get(id);
    if (!head) continue;
    const own = ownOf.get(id) ?? [];
    const shown = describedOf(own).flatMap((r) => whole.get(r.id) ?? []);
    const permitsOf = await permitLookup(db, head.manifest.profileId, shown);
    out.push({
      manifest_id: head.manifest.id,
      file_name: head.manifest.fileName,
      tol_project: manifestTypeOf(head.manifest.project),
      version: head.manifest.version,
      profile_id: head.manifest.profileId,
      profile_title: head.profileTitle,
      uploaded_by: head.uploadedBy,
      uploaded_at: head.manifest.createdAt.toISOString(),
      manifest_samples: Number(head.total),
      samples_found: own.length,
      statuses: countByStatus(own.map((r) => ({ status: r.status, n: 1 }))),
      svc_ids: own.map((r) => r.id),
      failed_ids: own.filter(registrationFailed).map((r) => r.id),
      samples: shown.map((r) => reviewSample(r, decisions.get(r.id), permitsOf(r), viewer)),
    });
  }
  return out;
}

/** The permits samples name, resolved against the profile's confirmed uploads (the latest of each name). */
async function permitLookup(db: Db, profileId: string, rows: SampleRow[]): Promise<(r: SampleRow) => ReviewPermit[]> {
  const names = [...new Set(rows.flatMap((r) => permitNamesOf(r.fields).map((n) => n.fileName)))];
  const stored = names.length
    ? await db
        .select({ fileName: permits.fileName, storedName: permits.storedName })
        .from(permits)
        .where(and(eq(permits.profileId, profileId), inArray(permits.fileName, names), isNotNull(permits.manifestId)))
        .orderBy(desc(permits.uploadedAt))
    : [];
  const latest = new Map<string, string>();
  for (const s of stored) if (!latest.has(s.fileName)) latest.set(s.fileName, s.storedName);
  return (r) =>
    permitNamesOf(r.fields).map((n) => {
      const storedName = latest.get(n.fileName) ?? null;
      return {
        kind: n.kind,
        file_name: n.fileName,
        stored_name: storedName,
        url: storedName ? `/api/sample/${r.id}/permits/${encodeURIComponent(storedName)}` : null,
      };
    });
}

/** Refused by ENA, or rejected after an approval: its registration failed and can be retried. */
const registrationFailed = (r: NamedSample) => stoppedAtEna(r.status) || (r.status === 'rejected' && Object.keys(r.approvals).length > 0);

function reviewSample(r: SampleRow, decision: Decision | undefined, permitList: ReviewPermit[], viewer: Viewer): ReviewSample {
  const waiting = (AWAITING_DECISION as readonly string[]).includes(r.status) ? awaitedTypes(r, r.approvals, viewer.scope.required) : [];
  const mine = typesApprovedBy(viewer.scope, r);
  return {
    svc_id: r.id,
    status: r.status,
    status_detail: r.statusDetail,
    rejection_reason: r.status === 'rejected' ? r.rejectionReason : null,
    registration_failed: registrationFailed(r),
    approvals: approvalsGiven(r.approvals, viewer.names),
    waiting_for: waiting,
    waiting_for_you: waiting.filter((t) => mine.includes(t)),
    ...sampleLabels(r),
    public_name: r.publicName,
    biosampleAccession: r.biosampleAccession,
    sraAccession: r.sraAccession,
    decided_by: decision?.by ?? null,
    decided_at: decision?.at.toISOString() ?? null,
    permits: permitList,
    time_created: r.timeCreated.toISOString(),
  };
}
