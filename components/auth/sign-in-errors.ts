import { orcidRefusalText } from '@/lib/users/orcid-words';

// next-auth's own codes, as it sends them to the sign-in page (pages.error, lib/auth/session.ts)
const NEXT_AUTH_ERRORS: Record<string, string> = {
  OAuthSignin: 'Signing in with ORCID could not start: ORCID did not answer. Try again in a moment.',
  OAuthCallback: 'Signing in with ORCID did not complete: its answer could not be checked. Try again.',
  Callback: 'Signing in with ORCID did not complete. Try again.',
  AccessDenied: 'Signing in was refused.',
  Configuration: 'Signing in is not configured correctly on this server. Tell an administrator.',
  SessionRequired: 'Sign in to see that page.',
};

/** What the sign-in page says for the `error` it was sent with (and the ORCID iD it names), or null for none. */
export function signInErrorText(error: string | undefined, orcidId: string | undefined): string | null {
  if (!error) return null;
  return orcidRefusalText(error, orcidId ?? 'that was given') ?? NEXT_AUTH_ERRORS[error] ?? 'Signing in did not work. Try again.';
}
