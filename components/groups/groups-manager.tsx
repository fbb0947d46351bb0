'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { FormOutcome, SubmitButton, TextField } from '@/components/ui/form';
import { MutationOutcome } from '@/components/ui/mutation-outcome';
import { QueryState } from '@/components/ui/query-state';
import { useFormSend } from '@/components/ui/use-form-send';
import { useZodForm } from '@/components/ui/zod-form';
import { api } from '@/lib/client/api';
import type { Group, NewGroup } from '@/lib/groups/contract';
import { GroupCard } from './group-card';

const newGroupRule = () => import('@/lib/groups/contract').then((c) => c.NewGroupSchema);

/**
 * The Groups page: the caller's groups (those they own or are in), a form to make one, and for each its members.
 * A profile shared with a group is shared with whoever is its member at the time (the profile's Sharing section).
 */
export function GroupsManager({ me }: { me: string }) {
  const client = useQueryClient();
  const groups = useQuery({ queryKey: ['groups'], queryFn: () => api.GET('/api/groups') });
  const refresh = () => void client.invalidateQueries({ queryKey: ['groups'] });
  const form = useZodForm(newGroupRule, { name: '' });
  const [deleting, setDeleting] = useState<Group | null>(null);

  const {
    error: formError,
    onSubmit,
    mutation: create,
  } = useFormSend(
    form,
    (body: NewGroup) => api.POST('/api/groups', { body }),
    () => {
      form.reset();
      refresh();
    },
  );
  const remove = useMutation({
    mutationFn: async (g: Group) => {
      await api.DELETE('/api/groups/{group_id}', { params: { path: { group_id: g.id } } });
      return g;
    },
    onSuccess: refresh,
    onSettled: () => setDeleting(null),
  });

  return (
    <>
      <h2 id="new-group">Make a group</h2>
      <form aria-labelledby="new-group" noValidate onSubmit={onSubmit}>
        <TextField form={form} name="name" label="Name" placeholder="e.g. Darwin lab" maxLength={100} />
        <SubmitButton busy={create.isPending} busyLabel="Making…">
          Make group
        </SubmitButton>
      </form>
      <FormOutcome
        error={formError}
        success={create.isSuccess ? `Made the group ${create.data.name}: add its members below.` : undefined}
      />

      <h2>Your groups</h2>
      <MutationOutcome
        mutation={remove}
        done={(g) => <>Deleted the group {g.name}: what was shared with it is no longer shared with its members.</>}
        failed={(why, g) => `The group ${g.name} was not deleted: ${why}`}
      />
      <QueryState query={groups} what="your groups" isEmpty={(list) => list.length === 0} empty="You are in no group yet.">
        {(list) => list.map((g) => <GroupCard key={g.id} group={g} me={me} onChange={refresh} onDelete={() => setDeleting(g)} />)}
      </QueryState>

      <ConfirmDialog
        open={deleting !== null}
        title={`Delete the group ${deleting?.name ?? ''}?`}
        confirmLabel="Delete group"
        danger
        busy={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting)}
      >
        <p>Profiles shared with the group stop being shared with its members at once. The people and profiles themselves stay.</p>
      </ConfirmDialog>
    </>
  );
}
