'use client';

import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { FormOutcome, SubmitButton, showServerErrors, TextField } from '@/components/ui/form';
import { useZodForm } from '@/components/ui/zod-form';
import { api, type Schema } from '@/lib/client/api';
import type { NewUserBody, User } from '@/lib/users/contract';
import { ApproverTypes, ProjectRoles } from './user-projects';
import styles from './users-admin.module.css';

const newUserRule = () => import('@/lib/users/contract').then((c) => c.NewUserBodySchema);

/** The add form: the server's own schema checks it first; an administrator is only made after a yes. */
export function AddUser({
  onAdded,
  onAskAdmin,
  pendingAdmin,
  onSettled,
}: {
  onAdded: (u: User) => void;
  onAskAdmin: (body: NewUserBody) => void;
  pendingAdmin: NewUserBody | null;
  onSettled: () => void;
}) {
  const form = useZodForm(newUserRule, {
    username: '',
    email: '',
    password: '',
    is_admin: false,
    member_of: [],
    manager_of: [],
    approver_of: [],
  });
  const [error, setError] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: (body: NewUserBody) =>
      // the form's schema is the route's own: its input leaves out the fields its defaults fill in, which the API's
      // document, describing the body the route reads, names as always there
      api.POST('/api/admin/users', { body: body as Schema<'NewUser'> }),
    onSuccess: (u) => {
      form.reset();
      onAdded(u);
    },
    onError: (err) => setError(showServerErrors(form, err)),
    onSettled,
  });
  const submit = form.handleSubmit((body) => {
    setError(null);
    if (body.is_admin) onAskAdmin(body);
    else create.mutate(body);
  });

  return (
    <>
      <h2 id="add-user">Add a user</h2>
      <form className="stack" onSubmit={submit} aria-labelledby="add-user" noValidate>
        <TextField form={form} name="username" label="Username" autoComplete="off" />
        <TextField
          form={form}
          name="email"
          label="Email"
          type="email"
          autoComplete="off"
          hint="Optional; where the broker writes to them."
        />
        <TextField form={form} name="password" label="Password (at least 8 characters)" type="password" autoComplete="new-password" />
        <ProjectRoles register={(field) => form.register(field)} />
        <ApproverTypes register={() => form.register('approver_of')} />
        <label className={styles.check}>
          <input type="checkbox" {...form.register('is_admin')} /> Administrator
        </label>
        <FormOutcome error={error} />
        <div>
          <SubmitButton busy={create.isPending} busyLabel="Adding…">
            Add user
          </SubmitButton>
        </div>
      </form>
      <ConfirmDialog
        open={pendingAdmin !== null}
        title={`Add ${pendingAdmin?.username ?? 'this user'} as an administrator?`}
        confirmLabel="Add administrator"
        busy={create.isPending}
        onCancel={onSettled}
        onConfirm={() => pendingAdmin && create.mutate(pendingAdmin)}
      >
        <p>Administrators manage every user, see every profile and sample, and retry failed jobs.</p>
      </ConfirmDialog>
    </>
  );
}
