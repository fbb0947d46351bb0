import { and, asc, desc, eq, gt, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { manifests, profiles, samples, sampleUpdates, users, validationReports } from '@/db/schema';
import {
  type ApproverScope,
  AWAITING_DECISION,
  approverScopeIn,
  decidesOnSql,
  reviewsSamples,
  waitsForSql,
} from '@/lib/approvals/approvals';
import { storedRowNumber, storedRowsOf, storedValue } from '@/lib/manifests/stored-rows';
import type { UserRecord } from '@/lib/users/users';
import { DECIDED_DAYS, type ReviewChoices, type ReviewQuery, type ReviewQueue } from './review-contract';
import { type Decision, groups, type NamedSample } from './review-groups';

/**
 * The portal's review queue (GET /api/sample/review): the samples of a sample manager or approver grouped by the
 * manifest that brought them. `awaiting` lists what waits for them (an approval of theirs, lib/approvals/approvals.ts),
 * the manifest they were told about last first (the email they just read names it); `decided` lists what was decided
 * in the last DECIDED_DAYS days among the samples they decide on, and what they approved lately that still waits for
 * other approvers, latest decision first, so the way of accepted samples to ENA (ToLID, registration, accession) and
 * the reason of a rejection can be followed after leaving the page. `sort=oldest` turns either round; `profile`,
 * `uploader` and `manifest` narrow both, and `choices` says what they may be set to. Within a manifest the samples
 * keep the spreadsheet's row order.
 */

// private samples wait for their traditional-knowledge rights, not for a decision: listed apart (lib/samples/private.ts)
const AWAITING = AWAITING_DECISION;

export async function reviewQueue(db: Db, user: UserRecord, q: ReviewQuery): Promise<ReviewQueue> {
  const scope = await approverScopeIn(db, user);
  const empty: ReviewQueue = {
    status: 'OK',
    state: q.state,
    sort: q.sort,
    number_found: 0,
    samples_found: 0,
    limit: q.limit,
    offset: q.offset,
    data: [],
    choices: { profiles: [], uploaders: [] },
  };
  if (!reviewsSamples(user, scope.required)) return empty;
  return q.state === 'awaiting' ? awaitingGroups(db, scope, q, empty) : decidedGroups(db, user, scope, q, empty);
}

/** The query's filters, on the samples' own columns, so the same condition serves every list. */
function narrowedBy(q: ReviewQuery): SQL[] {
  const by: SQL[] = [];
  if (q.profile) by.push(eq(samples.profileId, q.profile));
  if (q.manifest) by.push(eq(samples.manifestId, q.manifest));
  if (q.uploader) {
    by.push(
      sql`${samples.manifestId} in (select ${manifests.id} from ${manifests} join ${users} on ${users.id} = ${manifests.createdBy} where ${users.username} = ${q.uploader})`,
    );
  }
  return by;
}

async function awaitingGroups(db: Db, scope: ApproverScope, q: ReviewQuery, empty: ReviewQueue): Promise<ReviewQueue> {
  const waiting = waitsForSql(scope);
  const where = and(waiting, ...narrowedBy(q));
  const [[totals], choices] = await Promise.all([
    db
      .select({ groups: sql<number>`count(distinct ${samples.manifestId})::int`, samples: sql<number>`count(*)::int` })
      .from(samples)
      .where(where),
    awaitingChoices(db, waiting),
  ]);
  if (!totals?.samples) return { ...empty, choices };
  // when the reader was told of the manifest's samples: its confirmation, its last update (confirm.ts sets
  // updated_at), or the clearing of its samples' rights (rights.ts), whichever came last
  const told = sql`greatest(max(${manifests.updatedAt}), max(${samples.rightsClearedAt}))`;
  const page = await db
    .select({ manifestId: samples.manifestId })
    .from(samples)
    .innerJoin(manifests, eq(manifests.id, samples.manifestId))
    .where(where)
    .groupBy(samples.manifestId)
    .orderBy(...(q.sort === 'newest' ? [desc(told), desc(samples.manifestId)] : [asc(told), asc(samples.manifestId)]))
    .limit(q.limit)
    .offset(q.offset);
  const ids = page.map((p) => p.manifestId);
  const rows = await inRowOrder(db, ids, and(where, inArray(samples.manifestId, ids)));
  return {
    ...empty,
    number_found: totals.groups,
    samples_found: totals.samples,
    data: await groups(db, ids, rows, new Map(), scope, q.rows),
    choices,
  };
}

/** A manifest whose samples wait for the reader, as the home page names it, with a link to its group of the queue. */
interface ManifestAwaiting {
  manifestId: string;
  fileName: string;
  profileTitle: string;
  samples: number;
}

/**
 * The manifests whose samples wait for this user, the one they were told about last first (the queue's order), at
 * most `limit` of them, and how many there are in all.
 */
export async function manifestsAwaiting(db: Db, user: UserRecord, limit: number): Promise<{ rows: ManifestAwaiting[]; total: number }> {
  const scope = await approverScopeIn(db, user);
  if (!reviewsSamples(user, scope.required)) return { rows: [], total: 0 };
  const told = sql`greatest(max(${manifests.updatedAt}), max(${samples.rightsClearedAt}))`;
  const rows = await db
    .select({
      manifestId: samples.manifestId,
      fileName: sql<string>`max(${manifests.fileName})`,
      profileTitle: sql<string>`max(${profiles.title})`,
      samples: sql<number>`count(*)::int`,
      total: sql<number>`(count(*) over ())::int`,
    })
    .from(samples)
    .innerJoin(manifests, eq(manifests.id, samples.manifestId))
    .innerJoin(profiles, eq(profiles.id, manifests.profileId))
    .where(waitsForSql(scope))
    .groupBy(samples.manifestId)
    .orderBy(desc(told), desc(samples.manifestId))
    .limit(limit);
  return {
    rows: rows.map((r) => ({ manifestId: r.manifestId, fileName: r.fileName, profileTitle: r.profileTitle, samples: Number(r.samples) })),
    total: Number(rows[0]?.total ?? 0),
  };
}

/** The profiles and uploaders of every manifest waiting for the reader, whatever the filter. */
async function awaitingChoices(db: Db, waiting: SQL | undefined): Promise<ReviewChoices> {
  const heads = await db
    .selectDistinct({ profileId: profiles.id, profileTitle: profiles.title, uploadedBy: users.username })
    .from(samples)
    .innerJoin(manifests, eq(manifests.id, samples.manifestId))
    .innerJoin(profiles, eq(profiles.id, manifests.profileId))
    .leftJoin(users, eq(users.id, manifests.createdBy))
    .where(waiting);
  return choicesOf(heads);
}

function choicesOf(heads: { profileId: string; profileTitle: string; uploadedBy: string | null }[]): ReviewChoices {
  const titles = new Map(heads.map((h) => [h.profileId, h.profileTitle]));
  return {
    profiles: [...titles]
      .map(([profile_id, profile_title]) => ({ profile_id, profile_title }))
      .sort((a, b) => a.profile_title.localeCompare(b.profile_title) || a.profile_id.localeCompare(b.profile_id)),
    uploaders: [...new Set(heads.flatMap((h) => (h.uploadedBy ? [h.uploadedBy] : [])))].sort((a, b) => a.localeCompare(b)),
  };
}

/**
 * The samples of these manifests that `where` admits, in the order of the spreadsheets they came from: each rack and
 * tube's first row number in the report its manifest was confirmed from, as the manifest's page orders them
 * (lib/reports/confirmed.ts, which this domain may not import). Samples of one upload share their creation time, so
 * it alone gave no order; a sample its report does not list (the report was deleted) comes after those it does.
 */
async function inRowOrder(db: Db, manifestIds: string[], where: SQL | undefined): Promise<NamedSample[]> {
  if (!manifestIds.length) return [];
  const uploaded = db.$with('uploaded').as(
    db
      .select({
        // named in full: inside the CTE drizzle writes a column without its table, and both tables have an id
        manifestId: sql<string>`${sql.identifier('manifests')}.${sql.identifier('id')}`.as('uploaded_manifest'),
        rack: sql<string>`coalesce(${storedValue('RACK_OR_PLATE_ID')}, '')`.as('rack'),
        tube: sql<string>`coalesce(${storedValue('TUBE_OR_WELL_ID')}, '')`.as('tube'),
        position: sql<number>`min(${storedRowNumber})`.as('position'),
      })
      .from(
        sql`${manifests} join ${validationReports} on ${validationReports.id} = ${manifests.reportId} ${storedRowsOf(validationReports.rows)}`,
      )
      .where(inArray(manifests.id, manifestIds))
      .groupBy(sql`1, 2, 3`),
  );
  return db
    .with(uploaded)
    .select({ id: samples.id, manifestId: samples.manifestId, status: samples.status, approvals: samples.approvals })
    .from(samples)
    .leftJoin(
      uploaded,
      and(
        eq(uploaded.manifestId, samples.manifestId),
        eq(uploaded.rack, sql`coalesce(${samples.rackOrPlateId}, '')`),
        eq(uploaded.tube, sql`coalesce(${samples.tubeOrWellId}, '')`),
      ),
    )
    .where(where)
    .orderBy(sql`${uploaded.position} asc nulls last`, asc(samples.timeCreated), asc(samples.id));
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
  // the filters are applied to the manifests found, so that `choices` still offers every profile and uploader
  const heads = await db
    .select({ manifestId: manifests.id, profileId: profiles.id, profileTitle: profiles.title, uploadedBy: users.username })
    .from(manifests)
    .innerJoin(profiles, eq(profiles.id, manifests.profileId))
    .leftJoin(users, eq(users.id, manifests.createdBy))
    .where(inArray(manifests.id, [...new Set(decided.map((d) => d.manifestId))]));
  const choices = choicesOf(heads);
  const kept = new Set(
    heads
      .filter(
        (h) =>
          (!q.profile || h.profileId === q.profile) &&
          (!q.uploader || h.uploadedBy === q.uploader) &&
          (!q.manifest || h.manifestId === q.manifest),
      )
      .map((h) => h.manifestId),
  );
  const shown = decided.filter((d) => kept.has(d.manifestId));
  if (!shown.length) return { ...empty, choices };
  const latest = new Map<string, number>();
  for (const d of shown) latest.set(d.manifestId, Math.max(latest.get(d.manifestId) ?? 0, d.at.getTime()));
  const way = q.sort === 'newest' ? -1 : 1;
  const order = [...latest].sort((a, b) => way * (a[1] - b[1]) || way * a[0].localeCompare(b[0])).map(([id]) => id);
  const ids = order.slice(q.offset, q.offset + q.limit);
  const bySample = new Map<string, Decision>(shown.map((d) => [d.sampleId, { by: d.by, at: d.at }]));
  const pageSamples = shown.filter((d) => ids.includes(d.manifestId)).map((d) => d.sampleId);
  const rows = await inRowOrder(db, ids, inArray(samples.id, pageSamples));
  return {
    ...empty,
    number_found: order.length,
    samples_found: shown.length,
    data: await groups(db, ids, rows, bySample, scope, q.rows),
    choices,
  };
}
