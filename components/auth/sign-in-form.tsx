'use client';

import { signIn } from 'next-auth/react';
import { useRouter, useSearchParams } from 'next/navigation';
import { useState, type FormEvent } from 'react';

/** Only same-site paths are followed after sign-in. */
function safeCallback(value: string | null): string {
  return value && value.startsWith('/') && !value.startsWith('//') ? value : '/';
}

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
      setError('Unknown username or wrong password.');
      return;
    }
    router.replace(safeCallback(params.get('callbackUrl')));
    router.refresh();
  }

  return (
    <form className="stack" onSubmit={onSubmit} aria-describedby={error ? 'signin-error' : undefined}>
      <label>
        Username
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
      <button className="primary" type="submit" disabled={busy}>
        {busy ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}
