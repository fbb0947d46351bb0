import { and, gt, gte, or, sql } from 'drizzle-orm';
import type { RateLimiterDrizzle } from 'rate-limiter-flexible';
import type { Db } from '@/db/client';
import { rateLimits } from '@/db/schema';
import { limitStore, type RateLimited, refused as refusedAs } from './limit-store';

/**
 * Limits on guessing, counted in the database (./limit-store.ts), so every instance on it shares them. Only failures count: a right password or a valid key is never slowed, and a blocked
 * sign-in is refused before the password hash is computed, so guessing cannot be used to load the CPU either.
 *
 * - Passwords (portal sign-in and POST /apiKey): 10 failures for one account from one client within 15 minutes lock
 *   the account for that client for 15 minutes; 30 failures from one client within 15 minutes block that client for
 *   15 minutes. The account's lock is per client so that nobody can lock a person out of their own account by
 *   failing on it from elsewhere; an administrator's new password lifts every lock on the account at once.
 * - API keys: 30 unknown keys from one client within a minute block that client's unknown keys for 5 minutes.
 * - Password resets by email: 3 requests naming one username or address within an hour (whether or not an account
 *   has it, so the refusal says nothing of accounts), and 10 from one client within an hour; 10 wrong or spent reset
 *   links from one client within 15 minutes block that client's resets for 15 minutes.
 */

export const LIMITS = {
  accountFailures: { points: 10, duration: 15 * 60, blockDuration: 15 * 60 },
  clientPasswordFailures: { points: 30, duration: 15 * 60, blockDuration: 15 * 60 },
  clientKeyFailures: { points: 30, duration: 60, blockDuration: 5 * 60 },
  resetRequestsByLogin: { points: 3, duration: 60 * 60, blockDuration: 60 * 60 },
  resetRequestsByClient: { points: 10, duration: 60 * 60, blockDuration: 60 * 60 },
  resetTokenFailures: { points: 10, duration: 15 * 60, blockDuration: 15 * 60 },
} as const;

/** Which limit refused an attempt: the `limit` label of rmb_throttled_attempts_total. */
type LimitName = 'password_account' | 'password_client' | 'api_key_client' | 'reset_request' | 'reset_link_client';

const refused = (limit: LimitName, message: string, retryAfterSeconds: number): RateLimited => refusedAs(limit, message, retryAfterSeconds);

export interface GuessLimits {
  /** before checking a password: 429 when the account is locked or the client blocked */
  assertPasswordAllowed(client: string, username: string): Promise<void>;
  passwordFailed(client: string, username: string): Promise<void>;
  passwordSucceeded(client: string, username: string): Promise<void>;
  /** an administrator gave the account a new password: every client's lock on it is lifted */
  accountReset(username: string): Promise<void>;
  /** after an unknown key: 429 instead of 401 once the client has guessed too often */
  keyFailed(client: string): Promise<void>;
  /** a reset email asked for `login` (a username or an address, known or not): 429 past either limit */
  resetRequested(client: string, login: string): Promise<void>;
  /** before checking a reset link: 429 when the client has sent too many bad ones */
  assertResetAllowed(client: string): Promise<void>;
  resetTokenFailed(client: string): Promise<void>;
  /** which of these accounts failed sign-ins have locked from at least one client, and until when */
  lockedAccounts(usernames: string[]): Promise<Map<string, Date>>;
}

const minutes = (ms: number) => Math.max(1, Math.ceil(ms / 60_000));
const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));
const account = (username: string) => username.trim().toLowerCase();
// the account's failures are counted per client: `alice|10.0.0.1`
const accountKey = (client: string, username: string) => `${account(username)}|${client}`;
const ACCOUNT_PREFIX = 'pw_account';

const limiters = new WeakMap<Db, GuessLimits>();

/** One set of limiters per database handle. */
export function guessLimits(db: Db): GuessLimits {
  let limits = limiters.get(db);
  if (limits) return limits;
  const { counter: store, consume } = limitStore(db);
  const accounts = store(ACCOUNT_PREFIX, LIMITS.accountFailures);
  const clientPasswords = store('pw_client', LIMITS.clientPasswordFailures);
  const clientKeys = store('key_client', LIMITS.clientKeyFailures);
  const resetLogins = store('reset_login', LIMITS.resetRequestsByLogin);
  const resetClients = store('reset_client', LIMITS.resetRequestsByClient);
  const resetTokens = store('reset_token_client', LIMITS.resetTokenFailures);

  // the limit reached: that many failures already, so the next attempt is refused before it is tried
  const blocked = async (limiter: RateLimiterDrizzle, key: string, points: number) => {
    const res = await limiter.get(key);
    return res && res.consumedPoints >= points ? res.msBeforeNext : 0;
  };
  limits = {
    async assertPasswordAllowed(client, username) {
      const locked = await blocked(accounts, accountKey(client, username), LIMITS.accountFailures.points);
      if (locked) {
        throw refused(
          'password_account',
          `Too many failed sign-ins for this account from this address: it is locked here for ${minutes(locked)} more minute(s). Try again then, or ask an administrator to reset the password.`,
          seconds(locked),
        );
      }
      const wait = await blocked(clientPasswords, client, LIMITS.clientPasswordFailures.points);
      if (wait)
        throw refused(
          'password_client',
          `Too many failed sign-ins from this address: try again in ${minutes(wait)} minute(s).`,
          seconds(wait),
        );
    },
    async passwordFailed(client, username) {
      await Promise.all([consume(accounts, accountKey(client, username)), consume(clientPasswords, client)]);
    },
    async passwordSucceeded(client, username) {
      await accounts.delete(accountKey(client, username));
    },
    async accountReset(username) {
      // rate-limiter-flexible stores `${keyPrefix}:${key}`; every client's count of this account starts so
      await db.delete(rateLimits).where(sql`starts_with(${rateLimits.key}, ${`${ACCOUNT_PREFIX}:${account(username)}|`})`);
    },
    async keyFailed(client) {
      const wait = await consume(clientKeys, client);
      if (wait)
        throw refused(
          'api_key_client',
          `Too many unknown API keys from this address: try again in ${seconds(wait)} seconds.`,
          seconds(wait),
        );
    },
    async resetRequested(client, login) {
      const [byClient, byLogin] = await Promise.all([consume(resetClients, client), consume(resetLogins, account(login))]);
      const wait = Math.max(byClient, byLogin);
      if (wait)
        throw refused(
          'reset_request',
          `Too many password resets asked for from this address or for this name: try again in ${minutes(wait)} minute(s).`,
          seconds(wait),
        );
    },
    async assertResetAllowed(client) {
      const wait = await blocked(resetTokens, client, LIMITS.resetTokenFailures.points);
      if (wait)
        throw refused(
          'reset_link_client',
          `Too many reset links that do not work from this address: try again in ${minutes(wait)} minute(s).`,
          seconds(wait),
        );
    },
    async resetTokenFailed(client) {
      await consume(resetTokens, client);
    },
    async lockedAccounts(usernames) {
      const out = new Map<string, Date>();
      if (!usernames.length) return out;
      const prefixes = [...new Set(usernames.map(account))].map((u) => sql`starts_with(${rateLimits.key}, ${`${ACCOUNT_PREFIX}:${u}|`})`);
      const rows = await db
        .select({ key: rateLimits.key, expire: rateLimits.expire })
        .from(rateLimits)
        .where(and(or(...prefixes), gte(rateLimits.points, LIMITS.accountFailures.points), gt(rateLimits.expire, sql`now()`)));
      for (const r of rows) {
        const name = r.key.slice(ACCOUNT_PREFIX.length + 1, r.key.indexOf('|'));
        if (!r.expire) continue;
        const until = out.get(name);
        if (!until || r.expire > until) out.set(name, r.expire);
      }
      return out;
    },
  };
  limiters.set(db, limits);
  return limits;
}
