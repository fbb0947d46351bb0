import type { Metadata } from 'next';
import Link from 'next/link';
import { ForgotPasswordForm } from '@/components/auth/forgot-password-form';
import { config } from '@/lib/config';

export const metadata: Metadata = { title: 'Forgot password' };
// offered only where the running server sends email, not the build
export const dynamic = 'force-dynamic';

export default function ForgotPasswordPage() {
  const sendsEmail = Boolean(config().SMTP_URL);
  return (
    <main className="center-card">
      <h1>Forgot password</h1>
      {sendsEmail ? (
        <>
          <p>Give your username or email address: we email a link that lets you set a new password.</p>
          <ForgotPasswordForm />
        </>
      ) : (
        <p>This broker sends no email, so it cannot send a reset link. Ask an administrator to set a new password for you.</p>
      )}
      <p>
        <Link href="/signin">Back to sign in</Link>
      </p>
    </main>
  );
}
