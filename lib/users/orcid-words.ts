/**
 * What the portal says and links of an ORCID iD, as plain values beside the iD's schema (contract.ts): the sign-in,
 * account and users pages show them, where importing the contract would load zod with the page.
 */

/** The page of an ORCID iD at ORCID, which the portal links to (nothing is fetched from it). */
export const orcidUrl = (orcidId: string) => `https://orcid.org/${orcidId}`;

/**
 * Why signing in with ORCID was refused, as the sign-in and account pages say it; `{orcid}` is the iD. The codes
 * travel in the `error` (sign-in page) or `orcid_error` (account page) query parameter.
 */
export const ORCID_REFUSALS = {
  OrcidUnknown: 'No account has the ORCID iD {orcid}. Ask an administrator to add you, or to link this iD to your account.',
  OrcidDeactivated: 'The account with the ORCID iD {orcid} is deactivated. Ask an administrator if you need it again.',
  OrcidTaken: 'The ORCID iD {orcid} is already linked to another account. Each iD belongs to one account; ask an administrator.',
  OrcidOtherLinked: 'Your account is already linked to another ORCID iD. Unlink it first to link {orcid}.',
  OrcidInvalid: 'ORCID answered with an identifier that is not an ORCID iD ({orcid}).',
} as const;
export type OrcidRefusal = keyof typeof ORCID_REFUSALS;

/** The refusal in words, or null when `code` is not one of them. */
export function orcidRefusalText(code: string, orcidId: string): string | null {
  const text = (ORCID_REFUSALS as Record<string, string>)[code];
  return text ? text.replace('{orcid}', orcidId) : null;
}
