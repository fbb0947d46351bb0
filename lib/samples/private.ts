import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { type SampleStatus, samples } from '@/db/schema';
import { manifestTypeOf } from '@/lib/manifests/contract';
import { TOL_PROJECTS, type TolProject } from '@/lib/projects/contract';
import type { LocalContextsClient } from '@/lib/repositories/local-contexts';
import { managesProject, type UserRecord } from '@/lib/users/users';
import { LABEL_COLUMNS, sampleLabels } from './columns';
import { hubCheck } from './hub';
import type { PrivateSamples } from './review-contract';
import { RIGHTS_APPLICABLE, RIGHTS_PROJECT_ID, traditionalKnowledgeProject } from './rights-hold';

/**
 * The private samples (held for traditional-knowledge rights, lib/samples/rights-hold.ts): the columns their check
 * reads (lib/samples/rights.ts), and the list their project's managers see.
 */

export const iso = (d: Date | null) => (d ? d.toISOString() : null);

// the columns a check reads: the two manifest fields that name the project, not the whole record
export const checkColumns = {
  id: samples.id,
  manifestId: samples.manifestId,
  profileId: samples.profileId,
  project: samples.project,
  status: samples.status,
  applicable: sql<string | null>`${samples.fields} ->> ${RIGHTS_APPLICABLE}`,
  projectField: sql<string | null>`${samples.fields} ->> ${RIGHTS_PROJECT_ID}`,
};
export interface CheckRow {
  id: string;
  manifestId: string;
  profileId: string;
  project: TolProject;
  status: SampleStatus;
  applicable: string | null;
  projectField: string | null;
}

export const projectOf = (r: Pick<CheckRow, 'project' | 'applicable' | 'projectField'>): string | null =>
  traditionalKnowledgeProject(r.project, { [RIGHTS_APPLICABLE]: r.applicable ?? '', [RIGHTS_PROJECT_ID]: r.projectField ?? '' });

/** The projects whose private samples this user may see and check: as for deciding (managesProject). */
const heldProjects = (user: UserRecord): TolProject[] => TOL_PROJECTS.filter((p) => managesProject(user, p));

/** GET sample/private: the private samples of the caller's projects, oldest first, with why each waits. */
export async function privateForManager(
  db: Db,
  user: UserRecord,
  hub: Pick<LocalContextsClient, 'projectPage'>,
  page: { limit: number; offset: number },
): Promise<PrivateSamples> {
  const projects = heldProjects(user);
  const last = await hubCheck(db);
  if (!projects.length) return { status: 'OK', number_found: 0, data: [], hub: last };
  const where = and(eq(samples.status, 'private'), inArray(samples.project, projects));
  const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(samples).where(where);
  const rows = await db
    .select({
      ...checkColumns,
      ...LABEL_COLUMNS,
      rightsCheckedAt: samples.rightsCheckedAt,
      statusDetail: samples.statusDetail,
      timeCreated: samples.timeCreated,
    })
    .from(samples)
    .where(where)
    .orderBy(asc(samples.timeCreated), asc(samples.id))
    .limit(page.limit)
    .offset(page.offset);
  return {
    status: 'OK',
    number_found: Number(count?.n ?? 0),
    data: rows.map((r) => {
      const projectId = projectOf(r);
      return {
        svc_id: r.id,
        manifest_id: r.manifestId,
        profile_id: r.profileId,
        tol_project: manifestTypeOf(r.project),
        ...sampleLabels(r),
        project_id: projectId,
        project_url: projectId ? hub.projectPage(projectId) : null,
        rights_checked_at: iso(r.rightsCheckedAt),
        status_detail: r.statusDetail,
        time_created: r.timeCreated.toISOString(),
      };
    }),
    hub: last,
  };
}
