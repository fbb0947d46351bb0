import type { Metadata } from 'next';
import Link from 'next/link';
import { OrcidLink } from '@/components/account/orcid-link';
import { SignOutEverywhere } from '@/components/account/sign-out-everywhere';
import { OrcidButton } from '@/components/auth/orcid-button';
import { orcidSignInOffered, signedInOrRedirect } from '@/lib/server/auth-options';
import { orcidRefusalText } from '@/lib/users/orcid-words';

export const metadata: Metadata = { title: 'Your account' };

type Query = { orcid_error?: string; orcid?: string; linked?: string };

export default async function AccountPage({ searchParams }: { searchParams: Promise<Query> }) {
  const user = await signedInOrRedirect();
  const query = await searchParams;
  const refusal = query.orcid_error
    ? (orcidRefusalText(query.orcid_error, query.orcid ?? 'that was given') ?? 'Linking did not work.')
    : null;
  return (
    <>
      <h1>Your account</h1>
      <dl className="facts">
        <div>
          <dt>Username</dt>
          <dd>{user.username}</dd>
        </div>
        <div>
          <dt>Name</dt>
          <dd>{user.fullName || <span className="muted">Not known</span>}</dd>
        </div>
        <div>
          <dt>Email</dt>
          <dd>{user.email || <span className="muted">None</span>}</dd>
        </div>
        <div>
          <dt>ORCID iD</dt>
          <dd>{user.orcidId ? <OrcidLink orcidId={user.orcidId} /> : <span className="muted">Not linked</span>}</dd>
        </div>
      </dl>

      <section aria-labelledby="orcid-heading">
        <h2 id="orcid-heading">ORCID</h2>
        <div aria-live="polite">
          {refusal && (
            <p role="alert" className="notice error">
              {refusal}
            </p>
          )}
          {!refusal && query.linked && user.orcidId && (
            <p role="status" className="notice success">
              Your ORCID iD {user.orcidId} is linked: you can sign in with ORCID from now on.
            </p>
          )}
        </div>
        {user.orcidId ? (
          <p>You can sign in with ORCID as well as with your password. To unlink your iD, ask an administrator.</p>
        ) : orcidSignInOffered() ? (
          <>
            <p>Link your ORCID iD to sign in with ORCID from now on. You sign in at ORCID and come back here.</p>
            <OrcidButton callbackUrl="/account?linked=1">Link your ORCID iD</OrcidButton>
          </>
        ) : (
          <p className="muted">Signing in with ORCID is not set up on this server.</p>
        )}
      </section>

      <section aria-labelledby="sessions-heading">
        <h2 id="sessions-heading">Where you are signed in</h2>
        <SignOutEverywhere />
      </section>

      <p>
        Scripts and pipelines use <Link href="/account/keys">API keys</Link>.
      </p>
    </>
  );
}
