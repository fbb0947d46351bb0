import type { Metadata } from 'next';
import { Suspense } from 'react';
import { SignInForm } from '@/components/auth/sign-in-form';

export const metadata: Metadata = { title: 'Sign in' };

export default function SignInPage() {
  return (
    <main className="center-card">
      <h1>Sign in</h1>
      <p className="muted">Research Metadata Broker</p>
      <Suspense>
        <SignInForm />
      </Suspense>
    </main>
  );
}
