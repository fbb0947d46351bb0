import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { rowsOf } from '@/db/rows';
import { samples } from '@/db/schema';
import { Invalid, Unauthorized } from '@/lib/errors';
import { currentDefinition, type ManifestDefinition } from '@/lib/manifests';
import { PREFILL_DEFAULT_ROWS, type TemplateQuery } from '@/lib/manifests/contract';
import {
  checkPrefill,
  commonFields,
  parsePrefillParam,
  prefilledTemplate,
  profileValues,
  templateDefinition,
} from '@/lib/manifests/prefill';
import { getProfile, type ProfileView } from '@/lib/profiles/profiles';
import { isTolProject, type TolProject } from '@/lib/projects/contract';
import { sequencingCentres } from '@/lib/reference/read';
import type { UserRecord } from '@/lib/users/users';
import type { CommonValues } from './contract';

/**
 * A profile's manifest template, blank or pre-filled (GET /api/manifest/template), and the values its samples
 * already hold in the columns a sheet usually fills alike (GET /api/profiles/{profile_id}/common-values), which the
 * profile page offers for the pre-fill.
 */

/** Distinct values listed per field: the form's suggestions, not an export. */
export const COMMON_VALUES_PER_FIELD = 20;

function tolProjectOf(profile: ProfileView): TolProject {
  if (isTolProject(profile.type)) return profile.type;
  throw Invalid(`Profile ${profile.id} is a ${profile.type} profile: manifests are for Tree of Life profiles (ASG, DTOL, DTOLENV, ERGA).`);
}

/**
 * The workbook a template request asks for: its project's (or its profile's) definition, with the pre-filled
 * values, the profile's own first, on `rows` rows. Every check runs before anything is built, so a refusal is the
 * whole answer. `user` is needed only with a profile.
 */
export async function manifestTemplate(
  db: Db,
  user: UserRecord | undefined,
  query: TemplateQuery,
): Promise<{ definition: ManifestDefinition; body: Buffer }> {
  const entries = parsePrefillParam(query.prefill);
  let profile: ProfileView | null = null;
  if (query.profile_id) {
    if (!user) throw Unauthorized();
    profile = await getProfile(db, user, query.profile_id);
  }
  const project = query.project ?? (profile ? tolProjectOf(profile) : undefined);
  if (!project) {
    throw Invalid("'project' or 'profile_id' is required.", [{ path: 'project', message: 'Name a project or a profile.' }]);
  }
  const definition = templateDefinition(project, query.version);
  if (profile && profile.type !== definition.project) {
    throw Invalid(`Profile ${profile.id} is a ${profile.type} profile, not ${definition.project}.`, [
      { path: 'project', message: `The profile's manifests are ${profile.type.toUpperCase()} manifests.` },
    ]);
  }
  const given = await checkPrefill(definition, entries);
  const values = new Map([...(profile ? profileValues(definition, profile, await sequencingCentres(db)) : []), ...given]);
  return { definition, body: await prefilledTemplate(definition, values, query.rows ?? PREFILL_DEFAULT_ROWS) };
}

/**
 * For each common column of the profile's current manifest, the distinct values its samples hold there, the most
 * used first (at most COMMON_VALUES_PER_FIELD), with the field's list of allowed values and what the profile itself
 * pre-fills. Seen by whoever may see the profile.
 */
export async function profileCommonValues(db: Db, user: UserRecord, profileId: string): Promise<CommonValues> {
  const profile = await getProfile(db, user, profileId);
  const definition = currentDefinition(tolProjectOf(profile));
  const fields = commonFields(definition);
  const found = rowsOf<{ field: string; value: string; n: number }>(
    await db.execute(sql`
      select f.name as field, v.value, v.n
      from unnest(${sql.param(fields.map((f) => f.name))}::text[]) as f(name)
      cross join lateral (
        select ${samples.fields} ->> f.name as value, count(*)::int as n
        from ${samples}
        where ${samples.profileId} = ${profile.id} and coalesce(${samples.fields} ->> f.name, '') <> ''
        group by 1
        order by n desc, value
        limit ${COMMON_VALUES_PER_FIELD}
      ) v
      order by f.name, v.n desc, v.value`),
  );
  const own = profileValues(definition, profile, await sequencingCentres(db));
  return {
    profile_id: profile.id,
    project: definition.project,
    version: definition.version,
    fields: fields.map((f) => ({
      field: f.name,
      label: f.label,
      required: f.required,
      kind: f.kind,
      allowed_values: f.allowedValues,
      profile_value: own.get(f.name) ?? null,
      values: found.filter((r) => r.field === f.name).map((r) => ({ value: r.value, samples: Number(r.n) })),
    })),
  };
}
