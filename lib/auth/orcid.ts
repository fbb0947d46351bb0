import type { Account, User } from 'next-auth';
import type { OAuthConfig } from 'next-auth/providers/oauth';
import type { Db } from '@/db/client';
import { signInWithOrcid } from '@/lib/users/orcid';
import type { OrcidRefusal } from '@/lib/users/orcid-words';

/** next-auth's id of the provider: the redirect URI to register at ORCID is {NEXTAUTH_URL}/api/auth/callback/orcid */
export const ORCID_PROVIDER = 'orcid';

export interface OrcidClient {
  clientId: string;
  clientSecret: string;
  /** https://orcid.org, or https://sandbox.orcid.org to test */
  issuer: string;
}

/** The claims of ORCID's id token that the broker reads: the iD (`sub`) and the person's names. */
interface OrcidClaims {
  sub: string;
  name?: string;
  given_name?: string;
  family_name?: string;
}

/** The name the claims give: `name`, else given and family names joined; '' when ORCID gives none (a private name). */
export function nameOfClaims(claims: OrcidClaims): string {
  const whole = claims.name?.trim();
  if (whole) return whole;
  return [claims.given_name, claims.family_name]
    .map((part) => part?.trim() ?? '')
    .filter(Boolean)
    .join(' ');
}

/**
 * ORCID as an OpenID Connect provider: its endpoints and keys from the discovery document, the scope `openid`, the
 * person read from the id token (whose signature, issuer, audience and expiry openid-client checks), and PKCE and
 * state checked on the way back.
 */
export function orcidProvider(client: OrcidClient): OAuthConfig<OrcidClaims> {
  return {
    id: ORCID_PROVIDER,
    name: 'ORCID',
    type: 'oauth',
    wellKnown: `${client.issuer}/.well-known/openid-configuration`,
    clientId: client.clientId,
    clientSecret: client.clientSecret,
    authorization: { params: { scope: 'openid' } },
    idToken: true,
    checks: ['pkce', 'state'],
    // ORCID's token endpoint takes the client's secret in the form's body
    client: { token_endpoint_auth_method: 'client_secret_post' },
    profile: (claims) => ({ id: claims.sub, name: nameOfClaims(claims), email: null }),
  };
}

export interface OrcidCallbackSettings {
  /** the public URL of the broker, where a refusal is shown */
  baseUrl: string;
  selfRegistration: boolean;
  /** the user whose session cookie came with ORCID's answer (they are linking), or null */
  signedInUserId: () => Promise<number | null>;
}

/**
 * next-auth's signIn callback for ORCID: the account the iD signs in to, linked to, or made for (the user's id
 * then replaces the iD as the user's id, so the session carries the broker's id only), or the page saying why not:
 * the account page for someone linking, the sign-in page otherwise.
 */
export async function orcidSignInCallback(
  db: Db,
  settings: OrcidCallbackSettings,
  { user, account }: { user: User; account: Account },
): Promise<true | string> {
  const orcidId = account.providerAccountId;
  const signedInUserId = await settings.signedInUserId();
  const outcome = await signInWithOrcid(
    db,
    { orcidId, fullName: user.name ?? '' },
    { signedInUserId, selfRegistration: settings.selfRegistration },
  );
  if (outcome.refused) return refusalUrl(settings.baseUrl, outcome.refused, orcidId, signedInUserId !== null);
  // next-auth hands this same user to the jwt callback, which writes its id into the session
  user.id = String(outcome.user.id);
  return true;
}

function refusalUrl(baseUrl: string, refusal: OrcidRefusal, orcidId: string, linking: boolean): string {
  const query = new URLSearchParams({ [linking ? 'orcid_error' : 'error']: refusal, orcid: orcidId });
  return `${baseUrl}${linking ? '/account' : '/signin'}?${query}`;
}
