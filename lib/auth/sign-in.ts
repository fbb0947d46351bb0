import type { Db } from '@/db/client';
import { authenticate, type UserRecord } from '@/lib/users/users';
import { guessLimits } from './limits';

/**
 * A password check with the guessing limits around it (lib/auth/limits.ts): 429 (RateLimited) before the hash is
 * computed when the account is locked for this client or the client blocked; a failure counted; a success clears
 * the account's count for this client.
 * `client` is the caller's address as the server saw it.
 */
export async function signInWithPassword(db: Db, client: string, username: string, password: string): Promise<UserRecord | null> {
  const limits = guessLimits(db);
  await limits.assertPasswordAllowed(client, username);
  const user = await authenticate(db, username, password);
  if (!user) {
    await limits.passwordFailed(client, username);
    return null;
  }
  await limits.passwordSucceeded(client, username);
  return user;
}
