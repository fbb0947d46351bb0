import type { AuthOptions } from 'next-auth';
import { getServerSession } from 'next-auth';
import { buildAuthOptions } from '@/lib/auth/session';
import { config } from '@/lib/config';
import { AppError } from '@/lib/errors';
import { getUser, type UserRecord } from '@/lib/users/users';
import { getDb } from './runtime';

let options: AuthOptions | undefined;

export function authOptions(): AuthOptions {
  const cfg = config();
  // next-auth v4 reads its URL from the environment; derive it from PORT so side-by-side instances work
  process.env.NEXTAUTH_URL ??= cfg.baseUrl;
  options ??= buildAuthOptions(getDb, cfg.authSecret);
  return options;
}

/** The signed-in user of a server component, or null. */
export async function currentUser(): Promise<UserRecord | null> {
  const session = await getServerSession(authOptions());
  const id = Number((session as { userId?: string } | null)?.userId);
  if (!Number.isInteger(id) || id <= 0) return null;
  try {
    const user = await getUser(await getDb(), id);
    return user.isActive ? user : null;
  } catch (err) {
    // a session of a user deleted since is no session; anything else (the database down) is an error to see
    if (err instanceof AppError && err.code === 'not_found') return null;
    throw err;
  }
}
