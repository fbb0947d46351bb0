'use client';

import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { showServerErrors } from './form';

/**
 * A form's sending: the body its schema accepted goes to `send`; the server's refusals are shown beside their fields
 * (or, for the form as a whole, as `error`, above its button), and what the server answered goes to `onSent`.
 */
export function useFormSend<Input extends FieldValues, Output extends FieldValues, Sent>(
  form: UseFormReturn<Input, unknown, Output>,
  send: (body: Output) => Promise<Sent>,
  onSent: (sent: Sent) => void,
) {
  const [error, setError] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: send,
    onSuccess: (sent) => onSent(sent),
    onError: (err) => setError(showServerErrors(form, err)),
  });
  const onSubmit = form.handleSubmit((body) => {
    setError(null);
    mutation.mutate(body);
  });
  return { error, busy: mutation.isPending, onSubmit, mutation };
}
