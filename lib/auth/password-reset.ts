import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, eq, or, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { users } from '@/db/schema';
import { AppError, NotFound } from '@/lib/errors';
import { type MailContext, queueEmail } from '@/lib/mail/outbox';
import { PASSWORD_RESET_SENT, PasswordResetRequestSchema, PasswordResetSchema, RESET_LINK_HOURS } from '@/lib/users/contract';
import { hashPassword } from '@/lib/users/passwords';
import { guessLimits } from './limits';

/**
 * "Forgot password": a link by email that sets a new password. No table holds the links: the token is the account's
 * id, an expiry and an HMAC of them with the account's current password hash and email address under a key derived
 * from the service's secret (Django's PasswordResetTokenGenerator does the same). Setting a password changes the hash,
 * so a link works once; changing the address or the password otherwise also ends every link sent before.
 */

type UserRow = typeof users.$inferSelect;

export const RESET_LINK_INVALID =
  'This password reset link does not work: it has expired, was used already, or was not copied whole. Ask for a new one.';

// a key of its own, so that a reset token can never stand for anything else signed with the service's secret
const resetKey = (secret: string) => createHmac('sha256', secret).update('rmb password reset v1').digest();

const signature = (secret: string, u: Pick<UserRow, 'id' | 'passwordHash' | 'email'>, expires: number) =>
  createHmac('sha256', resetKey(secret))
    .update(`${u.id}\n${expires}\n${u.passwordHash}\n${u.email.trim().toLowerCase()}`)
    .digest('base64url');

/** `<id>-<expiry in seconds, base 36>-<signature>` */
export function makeResetToken(secret: string, u: Pick<UserRow, 'id' | 'passwordHash' | 'email'>, now = new Date()): string {
  const expires = Math.floor(now.getTime() / 1000) + RESET_LINK_HOURS * 3600;
  return `${u.id}-${expires.toString(36)}-${signature(secret, u, expires)}`;
}

function parseToken(token: string): { userId: number; expires: number; sig: string } | null {
  const [, id, expires, sig] = /^(\d{1,10})-([0-9a-z]{1,12})-([\w-]{43})$/.exec(token.trim()) ?? [];
  if (!id || !expires || !sig) return null;
  return { userId: Number(id), expires: Number.parseInt(expires, 36), sig };
}

function tokenFits(secret: string, u: UserRow, t: { expires: number; sig: string }, now: Date): boolean {
  if (!u.isActive || t.expires * 1000 <= now.getTime()) return false;
  const expected = Buffer.from(signature(secret, u, t.expires));
  const given = Buffer.from(t.sig);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** The active account a reset link is for, while it works; null otherwise. */
export async function resetLinkUser(db: Db, secret: string, token: string, now = new Date()): Promise<UserRow | null> {
  const t = parseToken(token);
  if (!t) return null;
  const [u] = await db.select().from(users).where(eq(users.id, t.userId));
  return u && tokenFits(secret, u, t, now) ? u : null;
}

export interface ResetContext {
  db: Db;
  secret: string;
  mail: MailContext;
  /** the caller's address, for the limits */
  client: string;
}

/**
 * Emails a reset link to each active account with a password whose username or address is `login`, and answers the
 * same whether or not one matched. Each request counts against the client and against `login` itself (lib/auth/
 * limits.ts), known or not, so the limits tell nothing either. Accounts without a password (made by signing in with
 * ORCID) get none: they sign in with ORCID, or an administrator sets one.
 */
export async function requestPasswordReset(ctx: ResetContext, input: { login: string }): Promise<string> {
  const { login } = PasswordResetRequestSchema.parse(input);
  if (!ctx.mail.smtpConfigured)
    throw NotFound(
      'Password resets by email are not offered here: this broker sends no email. Ask an administrator to set a new password.',
    );
  await guessLimits(ctx.db).resetRequested(ctx.client, login);
  const wanted = login.toLowerCase();
  await ctx.db.transaction(async (tx) => {
    const matches = await tx
      .select()
      .from(users)
      .where(
        and(
          eq(users.isActive, true),
          sql`${users.email} <> ''`,
          // only a scrypt hash is a password (lib/users/passwords.ts: NO_PASSWORD)
          sql`starts_with(${users.passwordHash}, 'scrypt$')`,
          or(sql`lower(${users.username}) = ${wanted}`, sql`lower(${users.email}) = ${wanted}`),
        ),
      )
      .orderBy(users.id);
    for (const u of matches) {
      const link = `${ctx.mail.baseUrl}/reset-password?token=${makeResetToken(ctx.secret, u)}`;
      await queueEmail(tx, ctx.mail, {
        kind: 'password_reset',
        recipients: [{ userId: u.id, email: u.email }],
        subject: 'Set a new password for the Research Metadata Broker',
        body: [
          `Someone, hopefully you, asked to set a new password for the account ${u.username}.`,
          '',
          `Set it here (the link works for ${RESET_LINK_HOURS} hour and only once):`,
          link,
          '',
          'If you did not ask, ignore this email: your password stays as it is.',
        ].join('\n'),
      });
    }
  });
  return PASSWORD_RESET_SENT;
}

/**
 * Sets the password a reset link is for, once: the account's row is locked while the link is checked again, so two
 * uses at once cannot both pass. Lifts every sign-in lock on the account. A bad link is counted against the client.
 */
export async function resetPassword(
  ctx: Pick<ResetContext, 'db' | 'secret' | 'client'>,
  input: { token: string; password: string },
  now = new Date(),
): Promise<{ username: string }> {
  const { token, password } = PasswordResetSchema.parse(input);
  const limits = guessLimits(ctx.db);
  await limits.assertResetAllowed(ctx.client);
  const refuse = async (): Promise<never> => {
    await limits.resetTokenFailed(ctx.client);
    throw new AppError('invalid', RESET_LINK_INVALID, [{ path: 'token', message: RESET_LINK_INVALID }]);
  };
  const t = parseToken(token);
  // checked before the new password is hashed: a made-up link costs the service no scrypt
  if (!t || !(await resetLinkUser(ctx.db, ctx.secret, token, now))) return refuse();
  const passwordHash = await hashPassword(password);
  const username = await ctx.db.transaction(async (tx) => {
    const [u] = await tx.select().from(users).where(eq(users.id, t.userId)).for('update');
    if (!u || !tokenFits(ctx.secret, u, t, now)) return null;
    // the new password ends every portal session of the account, a stolen one among them (lib/auth/sessions.ts)
    await tx
      .update(users)
      .set({ passwordHash, sessionVersion: sql`${users.sessionVersion} + 1` })
      .where(eq(users.id, u.id));
    return u.username;
  });
  if (!username) return refuse();
  await limits.accountReset(username);
  return { username };
}
