import { and, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { rowsOf } from '@/db/rows';
import { manifests, permits, samples, users } from '@/db/schema';
import { manifestTypeOf } from '@/lib/manifests/contract';
import { PERMIT_KINDS, type PermitKind, type ProfilePermit } from '@/lib/permits/contract';
import { getProfile } from '@/lib/profiles/profiles';
import type { UserRecord } from '@/lib/users/users';
import { countByStatus, type ProfileSampleSummary, stoppedAtEna } from './contract';

/**
 * What a Tree of Life profile holds, for its page in the portal (GET /api/profiles/{profile_id}/samples/summary):
 * its confirmed manifests, newest first, with their samples counted by status; the same counts for the whole
 * profile; and the ERGA permits its samples name. Seen by whoever may see the profile.
 */
export async function profileSampleSummary(db: Db, user: UserRecord, profileId: string): Promise<ProfileSampleSummary> {
  const profile = await getProfile(db, user, profileId);
  const heads = await db
    .select({ manifest: manifests, uploadedBy: users.username })
    .from(manifests)
    .leftJoin(users, eq(users.id, manifests.createdBy))
    .where(eq(manifests.profileId, profile.id))
    .orderBy(desc(manifests.createdAt), desc(manifests.id));
  const counts = await db
    .select({
      manifestId: samples.manifestId,
      status: samples.status,
      n: sql<number>`count(*)::int`,
      failed: sql<number>`(count(*) filter (where ${samples.approvals} <> '{}'::jsonb))::int`,
    })
    .from(samples)
    .where(eq(samples.profileId, profile.id))
    .groupBy(samples.manifestId, samples.status);

  const sum = (rows: typeof counts) => rows.reduce((s, r) => s + Number(r.n), 0);

  return {
    profile_id: profile.id,
    samples: sum(counts),
    statuses: countByStatus(counts),
    // refused by ENA or given up (approved, always), or rejected after approval
    registration_failed: counts.filter((c) => c.status === 'rejected' || stoppedAtEna(c.status)).reduce((s, c) => s + Number(c.failed), 0),
    manifests: heads.map(({ manifest: m, uploadedBy }) => {
      const own = counts.filter((c) => c.manifestId === m.id);
      return {
        manifest_id: m.id,
        file_name: m.fileName,
        tol_project: manifestTypeOf(m.project),
        version: m.version,
        uploaded_by: uploadedBy,
        confirmed: m.createdAt.toISOString(),
        updated: m.updatedAt.toISOString(),
        samples: sum(own),
        statuses: countByStatus(own),
      };
    }),
    permits: profile.type === 'erga' ? await profilePermits(db, profile.id) : [],
  };
}

/** Each permit file the profile's samples name (where the permit is required), its latest confirmed upload, and a sample to read it through. */
async function profilePermits(db: Db, profileId: string): Promise<ProfilePermit[]> {
  const named = PERMIT_KINDS.map(
    (kind) => sql`select ${samples.id} as id, ${kind}::text as kind, trim(${samples.fields} ->> ${`${kind}_PERMITS_FILENAME`}) as file_name
      from ${samples}
      where ${samples.profileId} = ${profileId}
        and upper(trim(coalesce(${samples.fields} ->> ${`${kind}_PERMITS_REQUIRED`}, ''))) = 'Y'
        and trim(coalesce(${samples.fields} ->> ${`${kind}_PERMITS_FILENAME`}, '')) <> ''`,
  );
  const rows = rowsOf<{ file_name: string; kinds: PermitKind[]; samples: number; svc_id: string }>(
    await db.execute(
      sql`select file_name, array_agg(distinct kind) as kinds, count(distinct id)::int as samples, min(id) as svc_id
          from (${sql.join(named, sql` union all `)}) named
          group by file_name order by file_name`,
    ),
  );
  if (!rows.length) return [];
  const stored = await db
    .select({ fileName: permits.fileName, storedName: permits.storedName, size: permits.sizeInBytes, at: permits.uploadedAt })
    .from(permits)
    .where(
      and(
        eq(permits.profileId, profileId),
        inArray(
          permits.fileName,
          rows.map((r) => r.file_name),
        ),
        isNotNull(permits.manifestId),
      ),
    )
    .orderBy(desc(permits.uploadedAt));
  return rows.flatMap((r) => {
    const p = stored.find((s) => s.fileName === r.file_name);
    if (!p) return [];
    return [
      {
        file_name: r.file_name,
        kinds: PERMIT_KINDS.filter((k) => r.kinds.includes(k)),
        stored_name: p.storedName,
        size_in_bytes: p.size,
        uploaded: p.at.toISOString(),
        samples: Number(r.samples),
        url: `/api/sample/${r.svc_id}/permits/${encodeURIComponent(p.storedName)}`,
      },
    ];
  });
}
