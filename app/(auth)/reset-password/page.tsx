import type { Metadata } from 'next';
import Link from 'next/link';
import { ResetPasswordForm } from '@/components/auth/reset-password-form';
import { RESET_LINK_INVALID, resetLinkUser } from '@/lib/auth/password-reset';
import { config } from '@/lib/config';
import { getDb } from '@/lib/server/runtime';

// the link's token is in this page's URL: no other site is told it
export const metadata: Metadata = { title: 'Set a new password', referrer: 'no-referrer' };
export const dynamic = 'force-dynamic';

type Query = { token?: string | string[] };

export default async function ResetPasswordPage({ searchParams }: { searchParams: Promise<Query> }) {
  const raw = (await searchParams).token;
  const token = (Array.isArray(raw) ? raw[0] : raw) ?? '';
  const user = token ? await resetLinkUser(await getDb(), config().authSecret, token) : null;
  return (
    <main className="center-card">
      <h1>Set a new password</h1>
      {user ? (
        <>
          <p>
            For the account <strong>{user.username}</strong>.
          </p>
          <ResetPasswordForm token={token} username={user.username} />
        </>
      ) : (
        <>
          <p role="alert" className="notice error">
            {RESET_LINK_INVALID}
          </p>
          <p>
            <Link href="/forgot-password">Ask for a new link</Link> · <Link href="/signin">Sign in</Link>
          </p>
        </>
      )}
    </main>
  );
}
