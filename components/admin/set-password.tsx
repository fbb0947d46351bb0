'use client';

import { useMutation } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { NewPasswordFields, newPasswordRule } from '@/components/auth/new-password-fields';
import styles from '@/components/ui/confirm-dialog.module.css';
import { FormOutcome, SubmitButton, showServerErrors } from '@/components/ui/form';
import { useZodForm } from '@/components/ui/zod-form';
import { api } from '@/lib/client/api';
import type { User } from '@/lib/users/contract';

/**
 * The admin's "Set password" for one user: a modal dialog with the new password twice, checked with the API's own
 * rule, that says in the dialog what happened. A new password also lifts the locks failed sign-ins put on the account.
 */
export function SetPasswordDialog({ user, onClose, onSet }: { user: User | null; onClose: () => void; onSet: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  const form = useZodForm(newPasswordRule, { new_password: '', confirm_password: '' });
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const set = useMutation({
    mutationFn: ({ u, password }: { u: User; password: string }) =>
      api.PATCH('/api/admin/users/{id}', { params: { path: { id: u.id } }, body: { password } }),
    onSuccess: (u) => {
      form.reset();
      setDone(`The password of ${u.username} is set, and any sign-in locks on the account are lifted. Tell them the new password.`);
      onSet();
    },
    onError: (err) => setError(showServerErrors(form, err)),
  });

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (user && !dialog.open) {
      form.reset();
      setError(null);
      setDone(null);
      dialog.showModal();
    }
    if (!user && dialog.open) dialog.close();
  }, [user, form]);

  const submit = form.handleSubmit(({ new_password: password }) => {
    setError(null);
    if (user) set.mutate({ u: user, password });
  });

  return (
    <dialog
      ref={ref}
      className={styles.dialog}
      aria-labelledby={`${id}-title`}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <h2 id={`${id}-title`} className={styles.title}>
        Set a password for {user?.username ?? 'this user'}
      </h2>
      {done ? (
        <>
          <FormOutcome success={done} />
          <div className={styles.actions}>
            <button type="button" className="primary" onClick={onClose}>
              Close
            </button>
          </div>
        </>
      ) : (
        <form className="stack" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
          <NewPasswordFields form={form} />
          <FormOutcome error={error} />
          <div className={styles.actions}>
            <button type="button" onClick={onClose} disabled={set.isPending}>
              Cancel
            </button>
            <SubmitButton busy={set.isPending} busyLabel="Setting…">
              Set password
            </SubmitButton>
          </div>
        </form>
      )}
    </dialog>
  );
}
