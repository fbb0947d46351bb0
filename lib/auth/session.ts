import type { AuthOptions } from 'next-auth';
import { decode } from 'next-auth/jwt';
import CredentialsProvider from 'next-auth/providers/credentials';
import type { Db } from '@/db/client';
import { CLIENT_ADDRESS_HEADER } from '@/lib/auth/client-address';
import { type Config, orcidClient } from '@/lib/config';
import { RateLimited } from './limits';
import { ORCID_PROVIDER, type OrcidClient, orcidProvider, orcidSignInCallback } from './orcid';
import { signInWithPassword } from './sign-in';

// next-auth v4 names its cookie by whether the site is served over https; large tokens are split into .0, .1 …
const SESSION_COOKIES = ['__Secure-next-auth.session-token', 'next-auth.session-token'];
const SESSION_MAX_AGE = 8 * 60 * 60;

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

/** The user id carried by a valid next-auth session cookie, or null. */
export async function sessionUserId(cookieHeader: string | undefined, secret: string): Promise<number | null> {
  if (!cookieHeader) return null;
  const token = readSessionCookie(cookieHeader);
  if (!token) return null;
  try {
    const jwt = await decode({ token, secret });
    const id = Number(jwt?.sub);
    return Number.isInteger(id) && id > 0 ? id : null;
  } catch {
    return null;
  }
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
    session: { strategy: 'jwt', maxAge: SESSION_MAX_AGE },
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
            signedInUserId: () => sessionUserId(cookieHeader, secret),
          },
          { user, account },
        );
      },
      // the JWT carries the id only: roles are read fresh from the database on every request
      jwt: ({ token, user }) => (user ? { ...token, sub: user.id } : token),
      session: ({ session, token }) => ({ ...session, userId: token.sub }),
    },
  };
}
