import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import type { AuthOptions } from 'next-auth';
import { getServerSession } from 'next-auth';
import { cache } from 'react';
import { REQUEST_PAGE_HEADER, signInPath } from '@/components/auth/callback-url';
import { type AuthSettings, authSettings, buildAuthOptions } from '@/lib/auth/session';
import { config, orcidClient } from '@/lib/config';
import { AppError } from '@/lib/errors';
import { getUser, type UserRecord } from '@/lib/users/users';
import { getDb } from './runtime';

function settings(): AuthSettings {
  const cfg = config();
  // next-auth v4 reads its URL from the environment; derive it from PORT so side-by-side instances work
  process.env.NEXTAUTH_URL ??= cfg.baseUrl;
  return authSettings(cfg);
}

let options: AuthOptions | undefined;

/** The options that read sessions (the portal's pages). */
export function authOptions(): AuthOptions {
  options ??= buildAuthOptions(getDb, settings());
  return options;
}

/** The options of one request to the auth route: signing in with ORCID while signed in links the iD (lib/auth/session.ts). */
export function authOptionsFor(cookieHeader: string | null): AuthOptions {
  return buildAuthOptions(getDb, settings(), cookieHeader ?? undefined);
}

/** Whether the sign-in page offers ORCID: the server decides, from the settings. */
export const orcidSignInOffered = (): boolean => orcidClient(config()) !== null;

/**
 * The signed-in user of a server component, or null. Read once per request: the layout, the page and its data (lib/server/page-data.ts)
 * all ask, and React's cache lets them share one session and one user read.
 */
export const currentUser = cache(async (): Promise<UserRecord | null> => {
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
});

/**
 * The signed-in user of a server component; anyone else is sent to sign in, and brought back to the page they asked
 * for once they have.
 */
export async function signedInOrRedirect(): Promise<UserRecord> {
  const user = await currentUser();
  if (!user) redirect(signInPath((await headers()).get(REQUEST_PAGE_HEADER)));
  return user;
}
