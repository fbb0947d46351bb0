import { randomUUID } from 'node:crypto';
import { eq, lt, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '@/db/client';
import { endedSessions, users } from '@/db/schema';
import type { UserRecord } from '@/lib/users/users';

/**
 * Portal sessions: a signed cookie (next-auth's JWT) that the service can end. Each session carries the account's
 * session version when it began, its own id and when the person signed in; it counts only while
 * - the account's version is still that one: a new password (set by the person, by a reset link or by an admin)
 *   and "sign out everywhere" raise it, ending every session at once, a stolen one among them;
 * - its id is not among the ended ones: signing out ends the session signed out of, wherever its copies are;
 * - it began less than SESSION_ABSOLUTE_SECONDS ago: using a session keeps it alive for SESSION_IDLE_SECONDS more,
 *   never past that.
 * API keys are not sessions: they live until revoked, through a new password too (SECURITY.md).
 */

/** A session unused this long ends (next-auth's `maxAge`, renewed as the portal asks for the session). */
export const SESSION_IDLE_SECONDS = 8 * 60 * 60;
/** No session lasts longer than this from signing in, however it is used. */
export const SESSION_ABSOLUTE_SECONDS = 12 * 60 * 60;

/** What a session carries besides the account's id (`sub`). */
const SessionClaimsSchema = z.object({
  sub: z.coerce.number().int().positive(),
  /** the account's session version when the session began */
  sv: z.number().int().nonnegative(),
  /** the session's own id */
  sid: z.uuid(),
  /** when the person signed in, in seconds since the epoch */
  auth_time: z.number().int().positive(),
});
export type SessionClaims = z.infer<typeof SessionClaimsSchema>;

/** The claims of a decoded session token, or null when it lacks them (a session made before sessions could end). */
export const sessionClaims = (token: unknown): SessionClaims | null => SessionClaimsSchema.safeParse(token).data ?? null;

/** The claims a new session of this account starts with. */
export async function newSessionClaims(db: Db, userId: number, now = new Date()): Promise<SessionClaims> {
  const [row] = await db.select({ version: users.sessionVersion }).from(users).where(eq(users.id, userId));
  return { sub: userId, sv: row?.version ?? 0, sid: randomUUID(), auth_time: Math.floor(now.getTime() / 1000) };
}

/** Why a session no longer counts, or null while it does; `user` is the account it names, as read now. */
export async function sessionEndedBecause(db: Db, user: UserRecord, claims: SessionClaims, now = new Date()): Promise<string | null> {
  if (!user.isActive) return 'the account is deactivated';
  if (claims.sv !== user.sessionVersion) return 'the password was changed, or every session was signed out';
  if ((claims.auth_time + SESSION_ABSOLUTE_SECONDS) * 1000 <= now.getTime()) return 'it began more than 12 hours ago';
  const [ended] = await db.select({ id: endedSessions.sessionId }).from(endedSessions).where(eq(endedSessions.sessionId, claims.sid));
  return ended ? 'it was signed out' : null;
}

/** Ends one session, wherever copies of it are: remembered until it would have expired anyway. */
export async function endSession(db: Db, claims: SessionClaims, now = new Date()): Promise<void> {
  const expiresAt = new Date((claims.auth_time + SESSION_ABSOLUTE_SECONDS) * 1000);
  if (expiresAt <= now) return;
  await db.insert(endedSessions).values({ sessionId: claims.sid, expiresAt }).onConflictDoNothing();
  // the ones that expired since are forgotten: they no longer count anyway
  await db.delete(endedSessions).where(lt(endedSessions.expiresAt, now));
}

/** Ends every session of the account at once (its API keys stay). */
export async function endEverySession(db: Db, userId: number): Promise<void> {
  await db
    .update(users)
    .set({ sessionVersion: sql`${users.sessionVersion} + 1` })
    .where(eq(users.id, userId));
}
