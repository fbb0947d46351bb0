import { randomBytes } from 'node:crypto';
import { and, desc, eq, getTableColumns, ne, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { isUniqueViolation } from '@/db/errors';
import { one, pageWithTotal } from '@/db/rows';
import { type ProfileType, profiles, users } from '@/db/schema';
import { AppError, Conflict, type FieldError, Forbidden, Invalid, NotFound } from '@/lib/errors';
import { isProfileId } from '@/lib/identifiers/contract';
import { PROFILE_TYPE_INFO, type ProfileTypeInfo, profileTypeInfo, tolProjectOf } from '@/lib/projects/enums';
import { forgetProfileTitle } from '@/lib/query/profile-titles';
import { referenceData } from '@/lib/reference/read';
import { isMemberOf, type UserRecord } from '@/lib/users/users';
import { assertRoleAllows, type ProfileNeed, roleOn, rolesOn, visibleProfiles } from './access';
import type { ProfileInput, ProfileRole } from './contract';
import { checkLocusTags, checkText, parseProfileType, resolveAssociations, throwIfAny } from './input';

export interface ProfileRecord {
  id: string;
  ownerId: number;
  title: string;
  description: string;
  type: ProfileType;
  associatedTypes: string[];
  sequencingCentres: string[];
  enaLocusTags: string[];
  createdAt: Date;
  updatedAt: Date;
}

// one sentence for unknown and for someone else's profile, so ids cannot be probed
const NOT_FOUND = 'Profile not found';

export const newProfileId = () => randomBytes(12).toString('hex');

/** Whether the user may create and use profiles of this type: ToL types need the project membership. */
export const mayUseType = (user: UserRecord, type: ProfileType) => {
  const project = tolProjectOf(type);
  return project === null || isMemberOf(user, project);
};

function assertMayUseType(user: UserRecord, type: ProfileType) {
  if (!mayUseType(user, type)) {
    throw Forbidden(`You are not a member of the ${type.toUpperCase()} project; ask an administrator for access.`);
  }
}

const duplicateTitle = (title: string) => Conflict(`Record already exist with title: ${title}`);

/** Creates a profile owned by `user`. Titles are unique per owner. */
export async function createProfile(db: Db, user: UserRecord, input: ProfileInput): Promise<ProfileView> {
  const type = parseProfileType(input.type, { forCreate: true });
  assertMayUseType(user, type);
  const errors: FieldError[] = [];
  const { title, description } = checkText(input, errors, { required: true });
  const assoc = resolveAssociations(profileTypeInfo(type), input, null, errors, await referenceData(db));
  const enaLocusTags = checkLocusTags(input, errors) ?? [];
  throwIfAny(errors);
  // a required title that is missing is among the errors thrown just above
  if (!title) throw new Error('expected a checked title');
  const [row] = await db
    .insert(profiles)
    .values({ id: newProfileId(), ownerId: user.id, title, description: description ?? '', type, ...assoc, enaLocusTags })
    .onConflictDoNothing({ target: [profiles.ownerId, profiles.title] })
    .returning();
  if (!row) throw duplicateTitle(title);
  return { ...row, role: user.isAdmin ? 'admin' : 'owner', ownerUsername: user.username };
}

/** A profile with the caller's role on it and its owner's name, as every read answers it. */
export interface ProfileView extends ProfileRecord {
  role: ProfileRole;
  ownerUsername: string;
}

const viewColumns = { ...getTableColumns(profiles), ownerUsername: users.username };

/**
 * A page of the profiles the caller may see (their own and those shared with them; an admin's: all), most recently
 * changed first, with the true total.
 */
export async function listProfiles(
  db: Db,
  user: UserRecord,
  page: { limit: number; offset: number },
): Promise<{ rows: ProfileView[]; total: number }> {
  const list = db
    .select(viewColumns)
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.ownerId))
    .where(visibleProfiles(db, user))
    .$dynamic();
  const { rows, total } = await pageWithTotal(db, list, [desc(profiles.updatedAt), desc(profiles.id)], page);
  return { rows: await rolesOn(db, user, rows), total };
}

/**
 * The profile if the caller may use it as `need` says: anything else the caller cannot see is the same 404 as an
 * unknown id; what they can see but not do is 403 (lib/profiles/access.ts). A Tree of Life profile also needs the
 * caller's membership of its project, whatever their role.
 */
export async function checkProfileAccess<T extends ProfileRecord>(db: Db, row: T | undefined, user: UserRecord, need: ProfileNeed) {
  const role = row ? await roleOn(db, user, row) : null;
  if (!row || !role) throw NotFound(NOT_FOUND);
  assertMayUseType(user, row.type);
  assertRoleAllows(role, need);
  return { ...row, role };
}

export async function getProfile(db: Db, user: UserRecord, id: string, need: ProfileNeed = 'view'): Promise<ProfileView> {
  if (!isProfileId(id)) throw NotFound(NOT_FOUND);
  const [row] = await db.select(viewColumns).from(profiles).innerJoin(users, eq(users.id, profiles.ownerId)).where(eq(profiles.id, id));
  return checkProfileAccess(db, row, user, need);
}

/**
 * Updates title, description and (ERGA) associated types and sequencing centres. The type must be sent and must be
 * the profile's own: a different one is 400 (docs/api-behaviour.md §3.2.4) and nothing changes.
 */
export async function updateProfile(db: Db, user: UserRecord, id: string, input: ProfileInput): Promise<ProfileView> {
  if (!isProfileId(id)) throw NotFound(NOT_FOUND);
  // read before the transaction: the reference data's copy is read on the service's own handle
  const lists = await referenceData(db);
  try {
    const view = await db.transaction(async (tx) => {
      const [row] = await tx
        .select(viewColumns)
        .from(profiles)
        .innerJoin(users, eq(users.id, profiles.ownerId))
        .where(eq(profiles.id, id))
        .for('update', { of: profiles });
      const current = await checkProfileAccess(tx, row, user, 'own');
      const type = input.type?.trim().toLowerCase();
      if (!type) throw Invalid('Missing required field: Type type', [{ path: 'type', message: 'type is required' }]);
      if (type !== current.type) {
        throw Invalid('It is not possible to modify the profile type', [
          { path: 'type', message: `the profile's type is ${current.type}` },
        ]);
      }
      const errors: FieldError[] = [];
      const { title, description } = checkText(input, errors, { required: false });
      const assoc = resolveAssociations(profileTypeInfo(current.type), input, current, errors, lists);
      const enaLocusTags = checkLocusTags(input, errors);
      throwIfAny(errors);
      if (title && title !== current.title) {
        const [clash] = await tx
          .select({ id: profiles.id })
          .from(profiles)
          .where(and(eq(profiles.ownerId, current.ownerId), eq(profiles.title, title), ne(profiles.id, id)));
        if (clash) throw duplicateTitle(title);
      }
      const updated = one(
        await tx
          .update(profiles)
          .set({
            ...(title && { title }),
            ...(description !== undefined && { description }),
            ...assoc,
            ...(enaLocusTags && { enaLocusTags }),
            updatedAt: sql`now()`,
          })
          .where(eq(profiles.id, id))
          .returning(),
        'the profile locked above',
      );
      return { ...updated, role: current.role, ownerUsername: current.ownerUsername };
    });
    // committed: the samples' records carry the new title from now on
    forgetProfileTitle(db, id);
    return view;
  } catch (err) {
    // two renames racing to the same title: the unique constraint decides
    if (!(err instanceof AppError) && isUniqueViolation(err) && input.title) throw duplicateTitle(input.title.trim());
    throw err;
  }
}

export interface ProfileTypeOption extends ProfileTypeInfo {
  /** whether this caller may create profiles of the type */
  allowed: boolean;
}

/** The types offered for new profiles, marked with whether the caller may use each. */
export const profileTypeOptions = (user: UserRecord): ProfileTypeOption[] =>
  PROFILE_TYPE_INFO.filter((t) => t.creatable).map((t) => ({ ...t, allowed: mayUseType(user, t.type) }));
