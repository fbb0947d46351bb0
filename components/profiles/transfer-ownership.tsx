'use client';

import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { FormOutcome, SelectField, SubmitButton, showServerErrors, TextField } from '@/components/ui/form';
import { useZodForm } from '@/components/ui/zod-form';
import { api } from '@/lib/client/api';
import type { Transfer } from '@/lib/profiles/contract';

const KEEPS = [
  { name: 'contributor', label: 'stays a contributor' },
  { name: 'viewer', label: 'stays a viewer' },
  { name: 'none', label: 'keeps no access' },
] as const;

const transferRule = () => import('@/lib/profiles/contract').then((c) => c.TransferSchema);

/**
 * Giving the profile to another owner (its owner, an admin): asked twice, since only the new owner may undo it. The
 * page reloads after, to show the new owner and the caller's new role.
 */
export function TransferOwnership({ profileId }: { profileId: string }) {
  const router = useRouter();
  const form = useZodForm(transferRule, { username: '', former_owner_role: 'contributor' });
  const [asking, setAsking] = useState<Transfer | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const transfer = useMutation({
    mutationFn: (body: Transfer) => api.PUT('/api/profiles/{profile_id}/owner', { params: { path: { profile_id: profileId } }, body }),
    onSuccess: () => {
      form.reset();
      router.refresh();
    },
    onError: (err) => setFormError(showServerErrors(form, err)),
    onSettled: () => setAsking(null),
  });
  return (
    <>
      <h3 id="transfer-heading">Change its owner</h3>
      <form
        aria-labelledby="transfer-heading"
        noValidate
        onSubmit={form.handleSubmit((body) => {
          setFormError(null);
          setAsking(body);
        })}
      >
        <TextField form={form} name="username" label="New owner (username)" autoComplete="off" />
        <SelectField form={form} name="former_owner_role" label="The present owner then" options={KEEPS} />
        <SubmitButton busy={transfer.isPending} busyLabel="Changing…">
          Change the owner
        </SubmitButton>
      </form>
      <FormOutcome
        error={formError}
        success={
          transfer.isSuccess
            ? `${transfer.data.owner} owns the profile now; ${transfer.data.former_owner} ${KEEPS.find((k) => k.name === transfer.data.former_owner_role)?.label}.`
            : undefined
        }
      />
      <ConfirmDialog
        open={asking !== null}
        title={`Make ${asking?.username ?? ''} its owner?`}
        confirmLabel="Change the owner"
        danger
        busy={transfer.isPending}
        onCancel={() => setAsking(null)}
        onConfirm={() => asking && transfer.mutate(asking)}
      >
        <p>
          {asking?.username} becomes its owner: only they (or an administrator) can then share, rename, delete or give it away. The present
          owner {KEEPS.find((k) => k.name === asking?.former_owner_role)?.label}.
        </p>
      </ConfirmDialog>
    </>
  );
}
