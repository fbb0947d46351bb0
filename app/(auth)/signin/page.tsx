import type { Metadata } from 'next';
import Link from 'next/link';
import { Suspense } from 'react';
import { safeCallback } from '@/components/auth/callback-url';
import { OrcidButton } from '@/components/auth/orcid-button';
import { signInErrorText } from '@/components/auth/sign-in-errors';
import { SignInForm } from '@/components/auth/sign-in-form';
import { config } from '@/lib/config';
import { orcidSignInOffered } from '@/lib/server/auth-options';
import { requestOrigin } from '@/lib/server/request-origin';

export const metadata: Metadata = { title: 'Sign in' };
// the ORCID button follows the settings of the running server, not those of the build
export const dynamic = 'force-dynamic';

type Query = { error?: string | string[]; orcid?: string | string[]; callbackUrl?: string | string[]; signed_out?: string | string[] };
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export default async function SignInPage({ searchParams }: { searchParams: Promise<Query> }) {
  const query = await searchParams;
  const refusal = signInErrorText(one(query.error), one(query.orcid));
  return (
    <main className="center-card">
      <h1>Sign in</h1>
      <p className="muted">Research Metadata Broker</p>
      {refusal && (
        <p role="alert" className="notice error">
          {refusal}
        </p>
      )}
      {!refusal && one(query.signed_out) && (
        <p role="status" className="notice success">
          {one(query.signed_out) === 'everywhere'
            ? 'You have signed out everywhere: every browser signed in to your account must sign in again.'
            : 'You have signed out.'}
        </p>
      )}
      <Suspense>
        <SignInForm />
      </Suspense>
      {/* a reset link needs email; without it, an administrator sets a new password */}
      {config().SMTP_URL && (
        <p>
          <Link href="/forgot-password">Forgot password?</Link>
        </p>
      )}
      {orcidSignInOffered() && (
        <>
          <p className="muted">or</p>
          <OrcidButton callbackUrl={safeCallback(one(query.callbackUrl), await requestOrigin())}>Sign in with ORCID</OrcidButton>
        </>
      )}
      <p>
        <Link href="/dashboard">The Tree of Life dashboard</Link>: the public samples by project, month, taxon and place, without signing
        in.
      </p>
    </main>
  );
}
