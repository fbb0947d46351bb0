'use client';

import { useMutation } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { NewPasswordFields, newPasswordRule } from '@/components/auth/new-password-fields';
import { FormOutcome, SubmitButton, showServerErrors } from '@/components/ui/form';
import { useZodForm } from '@/components/ui/zod-form';
import { api } from '@/lib/client/api';

/** The new password, twice, for the account of a reset link; once set, the link is spent and the way leads to sign-in. */
export function ResetPasswordForm({ token, username }: { token: string; username: string }) {
  const form = useZodForm(newPasswordRule, { new_password: '', confirm_password: '' });
  const [error, setError] = useState<string | null>(null);
  const set = useMutation({
    mutationFn: (password: string) => api.POST('/api/password-reset/confirm', { body: { token, password } }),
    onError: (err) => setError(showServerErrors(form, err)),
  });
  if (set.isSuccess) {
    return (
      <>
        <FormOutcome success={set.data.detail} />
        <p>
          <Link href="/signin">Sign in</Link>
        </p>
      </>
    );
  }
  const submit = form.handleSubmit(({ new_password: password }) => {
    setError(null);
    set.mutate(password);
  });
  return (
    <form className="stack" onSubmit={submit} noValidate aria-label={`A new password for ${username}`}>
      {/* for password managers: whose password this is */}
      <input type="text" name="username" autoComplete="username" value={username} readOnly hidden />
      <NewPasswordFields form={form} />
      <FormOutcome error={error} />
      <SubmitButton busy={set.isPending} busyLabel="Setting…">
        Set my password
      </SubmitButton>
    </form>
  );
}
