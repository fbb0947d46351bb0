'use client';

import { useRouter, useSearchParams } from 'next/navigation';
import { signIn } from 'next-auth/react';
import { type FormEvent, useState } from 'react';
import { SubmitButton } from '@/components/ui/form';
import { safeCallback } from './callback-url';

export function SignInForm() {
  const router = useRouter();
  const params = useSearchParams();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    setBusy(true);
    setError(null);
    const res = await signIn('credentials', {
      username: String(data.get('username') ?? ''),
      password: String(data.get('password') ?? ''),
      redirect: false,
    });
    setBusy(false);
    if (!res || res.error) {
      // a lock-out comes back in words; a plain refusal as next-auth's code
      setError(res?.error && res.error !== 'CredentialsSignin' ? res.error : 'Unknown username or wrong password.');
      return;
    }
    router.replace(safeCallback(params.get('callbackUrl'), window.location.origin));
    router.refresh();
  }

  return (
    <form className="stack" onSubmit={onSubmit} aria-describedby={error ? 'signin-error' : undefined}>
      <label>
        Username
        {/* biome-ignore lint/a11y/noAutofocus: a sign-in page exists to take the username, and users expect to type it at once */}
        <input name="username" autoComplete="username" required autoFocus />
      </label>
      <label>
        Password
        <input name="password" type="password" autoComplete="current-password" required />
      </label>
      {error && (
        <p id="signin-error" role="alert" className="field-error">
          {error}
        </p>
      )}
      <SubmitButton busy={busy} busyLabel="Signing in…">
        Sign in
      </SubmitButton>
    </form>
  );
}
