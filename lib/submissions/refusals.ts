import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { profiles, samples, submissions } from '@/db/schema';
import { roleAllows, rolesOn } from '@/lib/profiles/access';
import { STOPPED_AT_ENA } from '@/lib/samples/contract';
import { managesProject, type UserRecord } from '@/lib/users/users';
import type { EnaRefusal, EnaRefusals } from './contract';
import { visibleTo } from './submissions';

/** The refused registrations looked through, newest first: far more than wait for a retry at any time. */
const LOOKED_AT = 200;

/**
 * The registrations of Tree of Life samples ENA refused, or that gave up (`outcome`), whose samples still wait for a
 * retry, newest first, for
 * whoever may see the submission (lib/submissions/submissions.ts): ENA's message once per registration, rather than
 * on each of its samples, with what the caller can do about it. A sample refused twice is counted in its latest
 * refusal only; a registration whose samples were all sent again since is left out. `since`: refused after it.
 */
export async function enaRefusals(db: Db, user: UserRecord, query: { limit: number; offset: number; since?: Date }): Promise<EnaRefusals> {
  const heads = await db
    .select({
      id: submissions.id,
      profileId: submissions.profileId,
      profileTitle: profiles.title,
      ownerId: profiles.ownerId,
      sampleIds: submissions.sampleIds,
      error: submissions.error,
      status: submissions.status,
      at: sql<Date>`coalesce(${submissions.finishedAt}, ${submissions.updatedAt})`.mapWith(submissions.updatedAt),
    })
    .from(submissions)
    .innerJoin(profiles, eq(profiles.id, submissions.profileId))
    .where(
      and(
        eq(submissions.kind, 'samples'),
        inArray(submissions.status, ['rejected', 'failed']),
        query.since
          ? sql`coalesce(${submissions.finishedAt}, ${submissions.updatedAt}) > ${query.since.toISOString()}::timestamptz`
          : undefined,
        visibleTo(db, user),
        sql`exists (select 1 from ${samples} where ${samples.id} = any(${submissions.sampleIds}) and ${inArray(samples.status, [...STOPPED_AT_ENA])})`,
      ),
    )
    .orderBy(desc(submissions.createdAt), desc(submissions.id))
    .limit(LOOKED_AT);
  if (!heads.length) return { number_found: 0, data: [] };

  const refused = await db
    .select({ id: samples.id, tube: samples.tubeOrWellId, specimen: samples.specimenId, project: samples.project })
    .from(samples)
    .where(and(inArray(samples.id, [...new Set(heads.flatMap((h) => h.sampleIds))]), inArray(samples.status, [...STOPPED_AT_ENA])))
    .orderBy(samples.tubeOrWellId, samples.id);
  // each sample in the newest registration that held it (heads are newest first)
  const claimed = new Set<string>();
  const roles = new Map(
    (await rolesOn(db, user, [...new Map(heads.map((h) => [h.profileId, { id: h.profileId, ownerId: h.ownerId }])).values()])).map((p) => [
      p.id,
      p.role,
    ]),
  );
  const all: EnaRefusal[] = [];
  for (const h of heads) {
    const ids = new Set(h.sampleIds);
    const own = refused.filter((r) => ids.has(r.id) && !claimed.has(r.id));
    for (const r of own) claimed.add(r.id);
    const first = own[0];
    if (!first) continue;
    all.push({
      submission_id: h.id,
      profile_id: h.profileId,
      profile_title: h.profileTitle,
      tol_project: first.project,
      refused_at: h.at.toISOString(),
      outcome: h.status === 'failed' ? 'failed' : 'refused',
      message: h.error ?? 'ENA gave no message.',
      samples: own.map((r) => ({ svc_id: r.id, tube: r.tube ?? '', specimen: r.specimen ?? '' })),
      your_part: managesProject(user, first.project)
        ? 'retry'
        : roleAllows(roles.get(h.profileId) ?? null, 'contribute')
          ? 'uploader'
          : 'viewer',
    });
  }
  return { number_found: all.length, data: all.slice(query.offset, query.offset + query.limit) };
}
