import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { isUniqueViolation } from '@/db/errors';
import { users } from '@/db/schema';
import { AppError } from '@/lib/errors';
import { OrcidIdSchema, UsernameSchema } from './contract';
import type { OrcidRefusal } from './orcid-words';
import { NO_PASSWORD } from './passwords';
import { getUser, type UserRecord } from './users';

/** The person ORCID vouched for: the id token's `sub` and the name its claims give. */
export interface OrcidPerson {
  orcidId: string;
  fullName: string;
}

export interface OrcidSignIn {
  /** the user whose session came with ORCID's answer: they are linking the iD to their account */
  signedInUserId: number | null;
  /** SELF_REGISTRATION: an iD no account has makes a new account instead of being refused */
  selfRegistration: boolean;
}

export type OrcidOutcome =
  | { user: UserRecord; created: boolean; linked: boolean; refused?: undefined }
  | { refused: OrcidRefusal; user?: undefined };

/**
 * What signing in with ORCID does to the accounts. With a session, the iD is linked to that account (refused when
 * another account has it, or this one has another iD) and the session stays theirs. Without one, the account with
 * the iD signs in (refused when deactivated); an iD no account has gets a new account when self-registration is on
 * and is refused otherwise.
 */
export async function signInWithOrcid(db: Db, person: OrcidPerson, how: OrcidSignIn): Promise<OrcidOutcome> {
  if (!OrcidIdSchema.safeParse(person.orcidId).success) return { refused: 'OrcidInvalid' };
  const fullName = person.fullName.trim().slice(0, 300);
  const me = how.signedInUserId === null ? null : await userOrNull(db, how.signedInUserId);
  if (me && !me.isActive) return { refused: 'OrcidDeactivated' };
  if (me) return link(db, me, { orcidId: person.orcidId, fullName });

  const owner = await byOrcid(db, person.orcidId);
  if (owner) {
    if (!owner.isActive) return { refused: 'OrcidDeactivated' };
    if (fullName && !owner.fullName) await db.update(users).set({ fullName }).where(eq(users.id, owner.id));
    return { user: await getUser(db, owner.id), created: false, linked: false };
  }
  if (!how.selfRegistration) return { refused: 'OrcidUnknown' };
  return register(db, { orcidId: person.orcidId, fullName });
}

async function link(db: Db, me: UserRecord, person: OrcidPerson): Promise<OrcidOutcome> {
  if (me.orcidId === person.orcidId) return { user: me, created: false, linked: false };
  if (me.orcidId) return { refused: 'OrcidOtherLinked' };
  const owner = await byOrcid(db, person.orcidId);
  if (owner) return { refused: 'OrcidTaken' };
  try {
    const set = { orcidId: person.orcidId, ...(!me.fullName && person.fullName && { fullName: person.fullName }) };
    const [row] = await db
      .update(users)
      .set(set)
      .where(and(eq(users.id, me.id), isNull(users.orcidId)))
      .returning({ id: users.id });
    // another tab linked an iD to this account meanwhile
    if (!row) return { refused: 'OrcidOtherLinked' };
  } catch (err) {
    // another account took the iD meanwhile
    if (isUniqueViolation(err)) return { refused: 'OrcidTaken' };
    throw err;
  }
  return { user: await getUser(db, me.id), created: false, linked: true };
}

/** A new account for a person ORCID vouched for: member of nothing, no password, a username of their own. */
async function register(db: Db, person: OrcidPerson): Promise<OrcidOutcome> {
  const base = usernameBase(person);
  // fifty people of one name: then the iD itself, which is unique
  const candidates = [base, ...Array.from({ length: 49 }, (_, i) => `${base}-${i + 2}`), `orcid-${person.orcidId}`];
  for (const username of candidates) {
    try {
      const [row] = await db
        .insert(users)
        .values({ username, passwordHash: NO_PASSWORD, orcidId: person.orcidId, fullName: person.fullName })
        .onConflictDoNothing({ target: users.username })
        .returning({ id: users.id });
      if (row) return { user: await getUser(db, row.id), created: true, linked: false };
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      // the same person's other sign-in made the account a moment ago
      const owner = await byOrcid(db, person.orcidId);
      if (owner) return owner.isActive ? { user: owner, created: false, linked: false } : { refused: 'OrcidDeactivated' };
      throw err;
    }
  }
  throw new Error(`no free username for ORCID iD ${person.orcidId}`);
}

/** `jane.smith` from the name (letters without their accents), or `orcid-0000-0002-1825-0097` without one. */
export function usernameBase(person: OrcidPerson): string {
  const fromName = person.fullName
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '.')
    // the line above leaves no two dots together
    .replace(/^\.|\.$/g, '')
    .slice(0, 40)
    .replace(/\.$/, '');
  const name = fromName.length >= 2 ? fromName : `orcid-${person.orcidId}`;
  return UsernameSchema.parse(name);
}

async function byOrcid(db: Db, orcidId: string): Promise<UserRecord | null> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.orcidId, orcidId));
  return row ? getUser(db, row.id) : null;
}

async function userOrNull(db: Db, id: number): Promise<UserRecord | null> {
  try {
    return await getUser(db, id);
  } catch (err) {
    // a session of a user deleted since is no session
    if (err instanceof AppError && err.code === 'not_found') return null;
    throw err;
  }
}
