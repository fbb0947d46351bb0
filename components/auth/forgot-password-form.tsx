'use client';

import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { FormOutcome, SubmitButton, showServerErrors, TextField } from '@/components/ui/form';
import { useZodForm } from '@/components/ui/zod-form';
import { api } from '@/lib/client/api';
import type { PasswordResetRequest } from '@/lib/users/contract';

const resetRequestRule = () => import('@/lib/users/contract').then((c) => c.PasswordResetRequestSchema);

/** Asks for a reset email; the answer is the server's, the same whoever is named. */
export function ForgotPasswordForm() {
  const form = useZodForm(resetRequestRule, { login: '' });
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const ask = useMutation({
    mutationFn: (body: PasswordResetRequest) => api.POST('/api/password-reset', { body }),
    onSuccess: (answer) => setSent(answer.detail),
    onError: (err) => setError(showServerErrors(form, err)),
  });
  const submit = form.handleSubmit((body) => {
    setError(null);
    setSent(null);
    ask.mutate(body);
  });
  return (
    <form className="stack" onSubmit={submit} noValidate aria-label="Ask for a password reset link">
      <TextField form={form} name="login" label="Username or email address" required autoComplete="username" />
      <FormOutcome error={error} success={sent} />
      <SubmitButton busy={ask.isPending} busyLabel="Sending…">
        Send me a link
      </SubmitButton>
    </form>
  );
}
