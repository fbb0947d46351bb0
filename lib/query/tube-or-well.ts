import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { manifests, profiles, samples, type TolProject } from '@/db/schema';
import { Invalid } from '@/lib/errors';
import { formatUtc, parseDateRange } from '@/lib/values/dates';
import type { ProfileTubes } from './contract';
import { humanList, parseProject, type Raw, single } from './params';
import { filterAssociatedTypes } from './samples';
import { utcText } from './sql';

export interface TubeOrWellInput {
  project: Raw;
  /** the parameter's name as the caller spelled it, for messages (project or profile_type) */
  projectParam: string;
  associated: Raw;
  from?: string;
  to?: string;
}

/**
 * Profiles of a project (optionally carrying a sub-project) with the tube or well ids of their samples
 * (docs/api-behaviour.md §3.5.12, Sensible): sub-projects compared in any case, profiles without samples left out, and a
 * profile whose manifests were never modified counts its first manifest's date as its last.
 */
export async function tubeOrWellIds(db: Db, input: TubeOrWellInput): Promise<ProfileTubes[]> {
  const project: TolProject = parseProject(input.project, input.projectParam);
  const associated = single(input.associated)?.toUpperCase();
  if (associated !== undefined) {
    const accepted = await filterAssociatedTypes(db);
    if (!accepted.includes(associated)) throw Invalid(`Invalid value for associated project. Must be one of: ${humanList(accepted, 'or')}`);
  }
  const range = parseDateRange(input.from, input.to, false);
  const dates = db
    .select({
      profileId: manifests.profileId,
      first: sql<Date>`min(${manifests.createdAt})`.as('first'),
      last: sql<Date>`max(greatest(${manifests.createdAt}, ${manifests.updatedAt}))`.as('last'),
    })
    .from(manifests)
    .groupBy(manifests.profileId)
    .as('dates');
  const rows = await db
    .select({
      title: profiles.title,
      type: profiles.type,
      associated: profiles.associatedTypes,
      first: utcText(dates.first),
      last: utcText(dates.last),
      tubes: sql<
        string[]
      >`array(select ${samples.tubeOrWellId} from ${samples} where ${samples.profileId} = ${profiles.id} and ${samples.tubeOrWellId} is not null order by ${samples.id})`,
    })
    .from(profiles)
    .innerJoin(dates, eq(dates.profileId, profiles.id))
    .where(
      and(
        eq(profiles.type, project),
        associated ? sql`${associated} = any(array(select upper(a) from unnest(${profiles.associatedTypes}) a))` : undefined,
        range ? sql`${dates.first} >= ${range.from.toISOString()}::timestamptz` : undefined,
        range ? sql`${dates.last} < ${range.to.toISOString()}::timestamptz` : undefined,
      ),
    )
    .orderBy(profiles.title);
  return rows
    .filter((r) => r.tubes.length)
    .map((r) => ({
      TUBE_OR_WELL_IDs: r.tubes,
      associated_profile_type: r.associated,
      first_manifest_date_created: formatUtc(r.first),
      last_manifest_date_modified: formatUtc(r.last),
      profile_title: r.title,
      profile_type: r.type,
    }));
}
