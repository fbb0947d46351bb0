import type { AuthOptions } from 'next-auth';
import { decode } from 'next-auth/jwt';
import CredentialsProvider from 'next-auth/providers/credentials';
import type { Db } from '@/db/client';
import { CLIENT_ADDRESS_HEADER } from '@/lib/auth/client-address';
import { type Config, orcidClient } from '@/lib/config';
import { AppError } from '@/lib/errors';
import { getUser, type UserRecord } from '@/lib/users/users';
import { RateLimited } from './limit-store';
import { ORCID_PROVIDER, type OrcidClient, orcidProvider, orcidSignInCallback } from './orcid';
import { endSession, newSessionClaims, SESSION_IDLE_SECONDS, type SessionClaims, sessionClaims, sessionEndedBecause } from './sessions';
import { signInWithPassword } from './sign-in';

// next-auth v4 names its cookie by whether the site is served over https; large tokens are split into .0, .1 …
const SESSION_COOKIES = ['__Secure-next-auth.session-token', 'next-auth.session-token'];

function readSessionCookie(cookieHeader: string): string | null {
  const jar = new Map<string, string>();
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) jar.set(part.slice(0, eq).trim(), decodeURIComponent(part.slice(eq + 1).trim()));
  }
  for (const name of SESSION_COOKIES) {
    const whole = jar.get(name);
    if (whole) return whole;
    const chunks: string[] = [];
    for (let i = 0; ; i++) {
      const chunk = jar.get(`${name}.${i}`);
      if (chunk === undefined) break;
      chunks.push(chunk);
    }
    if (chunks.length) return chunks.join('');
  }
  return null;
}

/** The claims of a next-auth session cookie that decodes (signature, expiry) and carries them, or null. */
export async function sessionOf(cookieHeader: string | undefined, secret: string): Promise<SessionClaims | null> {
  if (!cookieHeader) return null;
  const token = readSessionCookie(cookieHeader);
  if (!token) return null;
  try {
    return sessionClaims(await decode({ token, secret }));
  } catch {
    return null;
  }
}

/**
 * The account of a session cookie whose session still counts (lib/auth/sessions.ts), or null: no cookie, one that
 * does not decode, an ended session, or an account gone or deactivated.
 */
export async function signedInUser(db: Db, cookieHeader: string | undefined, secret: string): Promise<UserRecord | null> {
  const claims = await sessionOf(cookieHeader, secret);
  if (!claims) return null;
  const user = await getUser(db, claims.sub).catch((err: unknown) => {
    if (err instanceof AppError && err.code === 'not_found') return null;
    throw err;
  });
  if (!user || (await sessionEndedBecause(db, user, claims)) !== null) return null;
  return user;
}

/** Thrown where next-auth reads a session that no longer counts: it then clears the cookie and answers no session. */
class SessionEnded extends Error {
  constructor(reason: string) {
    super(`The session has ended: ${reason}.`);
    this.name = 'SessionEnded';
  }
}

/** The session a token carries, checked against the account now; throws SessionEnded when it no longer counts. */
async function stillCounting(db: Db, token: unknown): Promise<SessionClaims> {
  const claims = sessionClaims(token);
  if (!claims) throw new SessionEnded('it was made before sessions could be ended');
  const user = await getUser(db, claims.sub).catch((err: unknown) => {
    if (err instanceof AppError && err.code === 'not_found') return null;
    throw err;
  });
  const reason = user ? await sessionEndedBecause(db, user, claims) : 'the account is gone';
  if (reason) throw new SessionEnded(reason);
  return claims;
}

export interface AuthSettings {
  secret: string;
  /** the public URL of the broker (NEXTAUTH_URL) */
  baseUrl: string;
  /** the ORCID client; null: no ORCID provider */
  orcid: OrcidClient | null;
  /** SELF_REGISTRATION: a person with an ORCID iD no account has gets an account */
  selfRegistration: boolean;
}

/** The settings of sign-in, from the configuration. */
export const authSettings = (cfg: Config): AuthSettings => ({
  secret: cfg.authSecret,
  baseUrl: cfg.baseUrl,
  orcid: orcidClient(cfg),
  selfRegistration: cfg.SELF_REGISTRATION,
});

/**
 * next-auth's options. `cookieHeader` is the request's, when the options are built for one request (the auth route
 * does so): ORCID's answer arriving with a session links the iD to that session's account, because next-auth v4
 * links accounts only through a database adapter, which the JWT sessions here do without.
 */
export function buildAuthOptions(getDb: () => Promise<Db>, settings: AuthSettings, cookieHeader?: string): AuthOptions {
  const { secret, orcid } = settings;
  return {
    secret,
    session: { strategy: 'jwt', maxAge: SESSION_IDLE_SECONDS },
    // next-auth's own failures (ORCID unreachable, a check that failed) are told in words on the sign-in page too
    pages: { signIn: '/signin', error: '/signin' },
    providers: [
      ...(orcid ? [orcidProvider(orcid)] : []),
      CredentialsProvider({
        name: 'Username and password',
        credentials: {
          username: { label: 'Username', type: 'text' },
          password: { label: 'Password', type: 'password' },
        },
        async authorize(credentials, req) {
          if (!credentials?.username || !credentials.password) return null;
          const client = String(req.headers?.[CLIENT_ADDRESS_HEADER] ?? 'unknown');
          try {
            const user = await signInWithPassword(await getDb(), client, credentials.username, credentials.password);
            if (!user) return null;
            return { id: String(user.id), name: user.username, email: user.email || null };
          } catch (err) {
            // next-auth hands a thrown error's message to the sign-in form: the lock-out, in words
            if (err instanceof RateLimited) throw new Error(err.message);
            throw err;
          }
        },
      }),
    ],
    callbacks: {
      signIn: async ({ user, account }) => {
        if (account?.provider !== ORCID_PROVIDER) return true;
        return orcidSignInCallback(
          await getDb(),
          {
            baseUrl: settings.baseUrl,
            selfRegistration: settings.selfRegistration,
            signedInUserId: async () => (await signedInUser(await getDb(), cookieHeader, secret))?.id ?? null,
          },
          { user, account },
        );
      },
      // the JWT carries the id and the session's own claims: roles are read fresh from the database on every request,
      // and each read of the session checks that it still counts (lib/auth/sessions.ts)
      jwt: async ({ token, user }) => {
        if (user) return { ...token, ...(await newSessionClaims(await getDb(), Number(user.id))), sub: user.id };
        await stillCounting(await getDb(), token);
        return token;
      },
      session: ({ session, token }) => ({ ...session, userId: token.sub }),
    },
    events: {
      // signing out ends the session wherever its copies are, not only in this browser
      signOut: async ({ token }) => {
        const claims = sessionClaims(token);
        if (claims) await endSession(await getDb(), claims);
      },
    },
    logger: {
      // an ended session is the expected end of a session, not an error of next-auth's
      error: (code, metadata) => {
        if (metadata instanceof SessionEnded) return;
        console.error(`[next-auth][error][${code}]`, metadata);
      },
    },
  };
}
