import { randomBytes } from 'node:crypto';
import { and, asc, eq, ilike, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '@/db/client';
import { type ProjectRole, TOL_PROJECTS, type TolProject, userApproverTypes, userProjectRoles, users } from '@/db/schema';
import { Conflict, fieldInvalid, Invalid, NotFound } from '@/lib/errors';
import { approvalTypes } from '@/lib/reference/read';
import { type NewUser, NewUserSchema, type User, type UserUpdate, UserUpdateSchema } from './contract';
import { DUMMY_HASH, hashPassword, type ScryptCost, verifyPassword } from './passwords';

export interface UserRecord {
  id: number;
  username: string;
  email: string;
  isAdmin: boolean;
  isActive: boolean;
  createdAt: Date;
  /** Tree of Life projects the user belongs to */
  memberOf: TolProject[];
  /** Tree of Life projects whose samples the user manages: decides on, and approves for the project's own type */
  managerOf: TolProject[];
  /** associated types (BGE, ERGA_COMMUNITY, SANGER…) whose approval the user gives (lib/approvals/approvals.ts) */
  approverOf: string[];
  /** their ORCID iD, once they signed in with ORCID or linked it (lib/users/orcid.ts); null when none */
  orcidId: string | null;
  /** the name ORCID gave; '' when unknown */
  fullName: string;
  /** the generation of the person's portal sessions (lib/auth/sessions.ts) */
  sessionVersion: number;
}

export type { NewUser } from './contract';

/**
 * `hashCost` is the cost of the stored password hash, OWASP's floor unless given (lib/users/passwords.ts); sign-in
 * checks a password at the cost stored with its hash. The service always takes the default; tests/support/harness.ts
 * makes its fixture accounts at a low cost, as OWASP's costs each a noticeable share of a second of CPU and most are
 * never signed in with (docs/benchmarks.md).
 */
export async function createUser(db: Db, input: NewUser, hashCost?: ScryptCost): Promise<UserRecord> {
  const u = NewUserSchema.parse(input);
  await checkApproverTypes(db, u.approverOf);
  const passwordHash = await hashPassword(u.password, hashCost);
  const id = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(users)
      .values({ username: u.username, email: u.email, passwordHash, isAdmin: u.isAdmin })
      .onConflictDoNothing({ target: users.username })
      .returning({ id: users.id });
    if (!row) throw Conflict(`A user named '${u.username}' already exists`);
    await writeRoles(tx, row.id, u.memberOf, u.managerOf);
    await writeApproverTypes(tx, row.id, u.approverOf);
    return row.id;
  });
  return getUser(db, id);
}

// a user's projects in a role and the associated types they approve, each sorted, read in the statement that reads
// the user (a subquery per user: a user is read on every authenticated request, one statement instead of three)
const projectsAs = (role: ProjectRole) =>
  sql<TolProject[]>`coalesce((select array_agg(${userProjectRoles.project} order by ${userProjectRoles.project}) from ${userProjectRoles}
    where ${userProjectRoles.userId} = ${users.id} and ${userProjectRoles.role} = ${role}), '{}')::text[]`;
const approverTypesOfUser = sql<string[]>`coalesce((select array_agg(${userApproverTypes.associatedType}
    order by ${userApproverTypes.associatedType}) from ${userApproverTypes} where ${userApproverTypes.userId} = ${users.id}), '{}')::text[]`;

/** What a UserRecord is read from: the user's row and their roles. */
const withRoles = { user: users, memberOf: projectsAs('member'), managerOf: projectsAs('sample_manager'), approverOf: approverTypesOfUser };

export async function updateUser(db: Db, id: number, input: UserUpdate): Promise<UserRecord> {
  const u = UserUpdateSchema.parse(input);
  if (u.approverOf) await checkApproverTypes(db, u.approverOf);
  const passwordHash = u.password ? await hashPassword(u.password) : undefined;
  await db.transaction(async (tx) => {
    const [current] = await tx
      .select({ memberOf: withRoles.memberOf, managerOf: withRoles.managerOf })
      .from(users)
      .where(eq(users.id, id))
      .for('update');
    if (!current) throw NotFound('No such user');
    const set = {
      ...(u.email !== undefined && { email: u.email }),
      ...(u.isAdmin !== undefined && { isAdmin: u.isAdmin }),
      ...(u.isActive !== undefined && { isActive: u.isActive }),
      // a new password ends every portal session of the account (lib/auth/sessions.ts)
      ...(passwordHash && { passwordHash, sessionVersion: sql`${users.sessionVersion} + 1` }),
      // only unlinking: an iD is linked by proving it at ORCID (lib/users/orcid.ts)
      ...(u.orcidId === null && { orcidId: null }),
    };
    if (Object.keys(set).length) await tx.update(users).set(set).where(eq(users.id, id));
    if (u.memberOf || u.managerOf) {
      await tx.delete(userProjectRoles).where(eq(userProjectRoles.userId, id));
      await writeRoles(tx, id, u.memberOf ?? current.memberOf, u.managerOf ?? current.managerOf);
    }
    if (u.approverOf) {
      await tx.delete(userApproverTypes).where(eq(userApproverTypes.userId, id));
      await writeApproverTypes(tx, id, u.approverOf);
    }
  });
  return getUser(db, id);
}

async function writeRoles(db: Db, userId: number, memberOf: TolProject[], managerOf: TolProject[]) {
  const rows = [
    ...[...new Set(memberOf)].map((project) => ({ userId, project, role: 'member' as const })),
    ...[...new Set(managerOf)].map((project) => ({ userId, project, role: 'sample_manager' as const })),
  ];
  if (rows.length) await db.insert(userProjectRoles).values(rows);
}

/** 400 unless every type named needs approval now (lib/reference): a user approves only what waits for an approval. */
async function checkApproverTypes(db: Db, types: string[]) {
  if (!types.length) return;
  const required = await approvalTypes(db);
  const wrong = types.filter((t) => !required.has(t));
  if (wrong.length) {
    throw fieldInvalid(
      'approver_of',
      `not an associated type that needs approval: ${wrong.join(', ')}; one of ${[...required].sort().join(', ')}`,
    );
  }
}

async function writeApproverTypes(db: Db, userId: number, types: string[]) {
  const rows = [...new Set(types)].map((associatedType) => ({ userId, associatedType }));
  if (rows.length) await db.insert(userApproverTypes).values(rows);
}

export async function getUser(db: Db, id: number): Promise<UserRecord> {
  const [row] = await db.select(withRoles).from(users).where(eq(users.id, id));
  if (!row) throw NotFound('No such user');
  return toRecord(row);
}

/** An active user by name, or a 400 naming the field (`path`) that named them: whom to add is the caller's input. */
export async function findActiveUser(db: Db, username: string, path: string): Promise<{ id: number; username: string }> {
  const [row] = await db
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(and(eq(users.username, username), eq(users.isActive, true)));
  if (!row) throw fieldInvalid(path, `No active user is named '${username}'`);
  return row;
}

/**
 * A page of the users by name, with the true total; with `q`, only those whose username, email, full name or ORCID iD
 * contains it, in any case.
 */
export async function listUsers(
  db: Db,
  page: { limit: number; offset: number; q?: string },
): Promise<{ rows: UserRecord[]; total: number }> {
  const q = page.q?.trim();
  // the search is taken literally: % and _ match themselves
  const pattern = q ? `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const where = pattern
    ? or(
        ilike(users.username, pattern),
        ilike(users.email, pattern),
        ilike(users.fullName, pattern),
        ilike(sql`coalesce(${users.orcidId}, '')`, pattern),
      )
    : undefined;
  const [rows, [counted]] = await Promise.all([
    db.select(withRoles).from(users).where(where).orderBy(asc(users.username), asc(users.id)).limit(page.limit).offset(page.offset),
    db.select({ n: sql<number>`count(*)::int` }).from(users).where(where),
  ]);
  return { rows: rows.map(toRecord), total: counted?.n ?? 0 };
}

export async function countUsers(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(users);
  return row?.n ?? 0;
}

/** The active user with these credentials, or null; same cost whether or not the username exists. */
export async function authenticate(db: Db, username: string, password: string): Promise<UserRecord | null> {
  const [row] = await db.select().from(users).where(eq(users.username, username.trim()));
  const ok = await verifyPassword(password, row?.passwordHash ?? DUMMY_HASH);
  if (!row || !ok || !row.isActive) return null;
  return getUser(db, row.id);
}

/**
 * On first start with no users, creates the first admin from ADMIN_USERNAME/ADMIN_PASSWORD, or with a random
 * password that the caller prints once. Returns what it created, or null when users already exist.
 */
export async function ensureFirstAdmin(
  db: Db,
  opts: { username?: string; password?: string },
): Promise<{ username: string; generatedPassword?: string } | null> {
  if ((await countUsers(db)) > 0) return null;
  const username = opts.username ?? 'admin';
  const password = opts.password ?? randomBytes(12).toString('base64url');
  const generatedPassword = opts.password === undefined ? password : undefined;
  try {
    await createUser(db, {
      username,
      password,
      isAdmin: true,
      memberOf: [...TOL_PROJECTS],
      managerOf: [...TOL_PROJECTS],
    });
  } catch (err) {
    // a second instance starting at the same moment created it first
    if (err instanceof Error && err.message.includes('already exists')) return null;
    if (err instanceof z.ZodError) throw Invalid(`ADMIN_USERNAME/ADMIN_PASSWORD: ${err.issues[0]?.message}`);
    throw err;
  }
  return { username, generatedPassword };
}

/** A user as the service passes them around, from their row and roles (withRoles). */
function toRecord({
  user,
  memberOf,
  managerOf,
  approverOf,
}: { user: typeof users.$inferSelect } & Pick<UserRecord, 'memberOf' | 'managerOf' | 'approverOf'>): UserRecord {
  const { id, username, email, isAdmin, isActive, createdAt, orcidId, fullName, sessionVersion } = user;
  return { id, username, email, isAdmin, isActive, createdAt, memberOf, managerOf, approverOf, orcidId, fullName, sessionVersion };
}

/** A user as the API shows them. */
export const userJson = (u: UserRecord): User => ({
  id: u.id,
  username: u.username,
  email: u.email,
  is_admin: u.isAdmin,
  is_active: u.isActive,
  member_of: u.memberOf,
  manager_of: u.managerOf,
  approver_of: u.approverOf,
  created: u.createdAt.toISOString(),
  orcid_id: u.orcidId,
  full_name: u.fullName,
});

/** Whether the user may create and use profiles of a Tree of Life project. */
export const isMemberOf = (u: UserRecord, project: TolProject) => u.isAdmin || u.memberOf.includes(project);
export const managesProject = (u: UserRecord, project: TolProject) => u.isAdmin || u.managerOf.includes(project);
