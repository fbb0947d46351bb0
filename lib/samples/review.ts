import { and, asc, desc, eq, gt, inArray, isNotNull, min, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { manifests, permits, profiles, samples, sampleUpdates, users } from '@/db/schema';
import {
  type ApproverScope,
  AWAITING_DECISION,
  approvalsGiven,
  approverIds,
  approverScopeIn,
  awaitedTypes,
  decidesOnSql,
  reviewsSamples,
  typesApprovedBy,
  waitsForSql,
} from '@/lib/approvals/approvals';
import { manifestTypeOf } from '@/lib/manifests/contract';
import { permitNamesOf } from '@/lib/permits/permits';
import type { UserRecord } from '@/lib/users/users';
import { sampleLabels } from './columns';
import { usernamesOf } from './decision';
import {
  DECIDED_DAYS,
  type ReviewGroup,
  type ReviewPermit,
  type ReviewQuery,
  type ReviewQueue,
  type ReviewSample,
} from './review-contract';

/**
 * The portal's review queue (GET /api/sample/review): the samples of a sample manager or approver grouped by the
 * manifest that brought them. `awaiting` lists what waits for them (an approval of theirs, lib/approvals/approvals.ts),
 * oldest manifest first; `decided` lists what was decided in the last DECIDED_DAYS days among the samples they
 * decide on, and what they approved lately that still waits for other approvers, latest decision first, so the way of
 * accepted samples to ENA (ToLID, registration, accession) and the reason of a rejection can be followed after
 * leaving the page.
 */

type SampleRow = typeof samples.$inferSelect;
interface Decision {
  by: string | null;
  at: Date;
}

// private samples wait for their traditional-knowledge rights, not for a decision: listed apart (lib/samples/private.ts)
const AWAITING = AWAITING_DECISION;

/** How a sample is shown to this reviewer: their scope, and the names of the approvers its approvals carry. */
interface Viewer {
  scope: ApproverScope;
  names: Map<number, string>;
}

export async function reviewQueue(db: Db, user: UserRecord, q: ReviewQuery): Promise<ReviewQueue> {
  const scope = await approverScopeIn(db, user);
  const empty: ReviewQueue = {
    status: 'OK',
    state: q.state,
    number_found: 0,
    samples_found: 0,
    limit: q.limit,
    offset: q.offset,
    data: [],
  };
  if (!reviewsSamples(user, scope.required)) return empty;
  return q.state === 'awaiting' ? awaitingGroups(db, scope, q, empty) : decidedGroups(db, user, scope, q, empty);
}

async function awaitingGroups(db: Db, scope: ApproverScope, q: ReviewQuery, empty: ReviewQueue): Promise<ReviewQueue> {
  const where = waitsForSql(scope);
  const [totals] = await db
    .select({ groups: sql<number>`count(distinct ${samples.manifestId})::int`, samples: sql<number>`count(*)::int` })
    .from(samples)
    .where(where);
  if (!totals?.samples) return empty;
  const page = await db
    .select({ manifestId: samples.manifestId, first: min(samples.timeCreated) })
    .from(samples)
    .where(where)
    .groupBy(samples.manifestId)
    .orderBy(asc(min(samples.timeCreated)), asc(samples.manifestId))
    .limit(q.limit)
    .offset(q.offset);
  const ids = page.map((p) => p.manifestId);
  const rows = ids.length
    ? await db
        .select()
        .from(samples)
        .where(and(where, inArray(samples.manifestId, ids)))
        .orderBy(asc(samples.timeCreated), asc(samples.id))
    : [];
  const viewer = { scope, names: await usernamesOf(db, approverIds(rows)) };
  return { ...empty, number_found: totals.groups, samples_found: totals.samples, data: await groups(db, ids, rows, new Map(), viewer) };
}

async function decidedGroups(db: Db, user: UserRecord, scope: ApproverScope, q: ReviewQuery, empty: ReviewQueue): Promise<ReviewQueue> {
  const since = new Date(Date.now() - DECIDED_DAYS * 24 * 3600 * 1000);
  // the last decision on each sample they decide on lately; samples awaiting a decision again are in the other list
  const settled = await db
    .selectDistinctOn([sampleUpdates.sampleId], {
      sampleId: sampleUpdates.sampleId,
      manifestId: sampleUpdates.manifestId,
      at: sampleUpdates.timeUpdated,
      by: users.username,
    })
    .from(sampleUpdates)
    .innerJoin(samples, eq(samples.id, sampleUpdates.sampleId))
    .leftJoin(users, eq(users.id, sampleUpdates.actorId))
    .where(
      and(
        eq(sampleUpdates.updateType, 'user'),
        decidesOnSql(scope),
        gt(sampleUpdates.timeUpdated, since),
        eq(sampleUpdates.field, 'status'),
        sql`${samples.status} not in ('pending', 'private')`,
      ),
    )
    .orderBy(sampleUpdates.sampleId, desc(sampleUpdates.timeUpdated), desc(sampleUpdates.id));
  // what they approved lately that still waits for other approvers: no status changed, so no audit row says so
  const approvedByThem = await db
    .select({
      sampleId: samples.id,
      manifestId: samples.manifestId,
      at: sql<string>`max(a.value ->> 'date')`,
    })
    .from(samples)
    .innerJoin(sql`jsonb_each(${samples.approvals}) as a(type, value)`, sql`true`)
    .where(
      and(
        inArray(samples.status, [...AWAITING]),
        sql`(a.value ->> 'user_id')::int = ${user.id}`,
        sql`(a.value ->> 'date')::timestamptz > ${since.toISOString()}::timestamptz`,
      ),
    )
    .groupBy(samples.id, samples.manifestId);
  const decided = [
    ...settled,
    ...approvedByThem.map((a) => ({ sampleId: a.sampleId, manifestId: a.manifestId, at: new Date(a.at), by: user.username })),
  ];
  if (!decided.length) return empty;
  const latest = new Map<string, number>();
  for (const d of decided) latest.set(d.manifestId, Math.max(latest.get(d.manifestId) ?? 0, d.at.getTime()));
  const order = [...latest].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([id]) => id);
  const ids = order.slice(q.offset, q.offset + q.limit);
  const bySample = new Map<string, Decision>(decided.map((d) => [d.sampleId, { by: d.by, at: d.at }]));
  const pageSamples = decided.filter((d) => ids.includes(d.manifestId)).map((d) => d.sampleId);
  const rows = pageSamples.length
    ? await db.select().from(samples).where(inArray(samples.id, pageSamples)).orderBy(asc(samples.timeCreated), asc(samples.id))
    : [];
  const viewer = { scope, names: await usernamesOf(db, approverIds(rows)) };
  return { ...empty, number_found: order.length, samples_found: decided.length, data: await groups(db, ids, rows, bySample, viewer) };
}

/** The page's manifests, in the page's order, each with its samples of the list. */
async function groups(
  db: Db,
  manifestIds: string[],
  rows: SampleRow[],
  decisions: Map<string, Decision>,
  viewer: Viewer,
): Promise<ReviewGroup[]> {
  if (!manifestIds.length) return [];
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
    const own = rows.filter((r) => r.manifestId === id);
    const permitsOf = await permitLookup(db, head.manifest.profileId, own);
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
      samples: own.map((r) => reviewSample(r, decisions.get(r.id), permitsOf(r), viewer)),
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

function reviewSample(r: SampleRow, decision: Decision | undefined, permitList: ReviewPermit[], viewer: Viewer): ReviewSample {
  const approved = Object.keys(r.approvals);
  const waiting = (AWAITING as readonly string[]).includes(r.status) ? awaitedTypes(r, r.approvals, viewer.scope.required) : [];
  const mine = typesApprovedBy(viewer.scope, r);
  return {
    svc_id: r.id,
    status: r.status,
    status_detail: r.statusDetail,
    rejection_reason: r.status === 'rejected' ? r.rejectionReason : null,
    registration_failed: r.status === 'rejected' && approved.length > 0,
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
