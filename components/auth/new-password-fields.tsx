'use client';

import type { UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { TextField } from '@/components/ui/form';
import type { NewPasswordFormSchema } from '@/lib/users/contract';

type NewPasswordForm = z.infer<typeof NewPasswordFormSchema>;

/** The rule of a new password typed twice, for useZodForm. */
export const newPasswordRule = () => import('@/lib/users/contract').then((c) => c.NewPasswordFormSchema);

/** A new password typed twice, checked by NewPasswordFormSchema: the admin's "Set password" and the reset page. */
export function NewPasswordFields({ form }: { form: UseFormReturn<NewPasswordForm, unknown, NewPasswordForm> }) {
  return (
    <>
      <TextField
        form={form}
        name="new_password"
        label="New password (at least 8 characters)"
        required
        type="password"
        autoComplete="new-password"
      />
      <TextField form={form} name="confirm_password" label="The new password again" required type="password" autoComplete="new-password" />
    </>
  );
}
