'use client';

import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { FormOutcome, SubmitButton, showServerErrors, TextField } from '@/components/ui/form';
import { MutationOutcome } from '@/components/ui/mutation-outcome';
import { plural } from '@/components/ui/words';
import { useZodForm } from '@/components/ui/zod-form';
import { api } from '@/lib/client/api';
import type { Group, NewMember } from '@/lib/groups/contract';
import styles from './groups.module.css';

const newMemberRule = () => import('@/lib/groups/contract').then((c) => c.NewMemberSchema);

/**
 * One group: its members, with a form to add one and a button to remove each (its owner, an admin), or to leave
 * it (a member).
 */
export function GroupCard({ group, me, onChange, onDelete }: { group: Group; me: string; onChange: () => void; onDelete: () => void }) {
  const manages = group.role !== 'member';
  const form = useZodForm(newMemberRule, { username: '' });
  const [formError, setFormError] = useState<string | null>(null);
  const add = useMutation({
    mutationFn: (body: NewMember) => api.POST('/api/groups/{group_id}/members', { params: { path: { group_id: group.id } }, body }),
    onSuccess: () => {
      form.reset();
      onChange();
    },
    onError: (err) => setFormError(showServerErrors(form, err)),
  });
  const remove = useMutation({
    mutationFn: async (username: string) => {
      await api.DELETE('/api/groups/{group_id}/members/{username}', { params: { path: { group_id: group.id, username } } });
      return username;
    },
    onSuccess: onChange,
  });
  const headingId = `group-${group.id}`;
  return (
    <section className={styles.card} aria-labelledby={headingId}>
      <div className={styles.head}>
        <h3 id={headingId}>{group.name}</h3>
        <span className="muted">
          {plural(group.members.length, 'member')} · owner {group.owner === me ? 'you' : group.owner}
        </span>
        {manages && (
          <button type="button" className="danger" onClick={onDelete}>
            Delete<span className="visually-hidden"> the group {group.name}</span>
          </button>
        )}
      </div>
      <MutationOutcome
        mutation={remove}
        done={(u) => (u === me ? <>You left the group.</> : <>Removed {u} from the group.</>)}
        failed={(why, u) => `${u} is still in the group: ${why}`}
      />
      <ul className={styles.members}>
        {group.members.map((m) => (
          <li key={m}>
            <span>
              {m}
              {m === group.owner && <span className="muted"> (owner)</span>}
            </span>
            {m !== group.owner && (manages || m === me) && (
              <button type="button" disabled={remove.isPending} onClick={() => remove.mutate(m)}>
                {m === me ? 'Leave' : 'Remove'}
                <span className="visually-hidden"> {m === me ? `the group ${group.name}` : `${m} from ${group.name}`}</span>
              </button>
            )}
          </li>
        ))}
      </ul>
      {manages && (
        <>
          <form
            className={styles.add}
            aria-label={`Add a member to ${group.name}`}
            noValidate
            onSubmit={form.handleSubmit((body) => {
              setFormError(null);
              add.mutate(body);
            })}
          >
            <TextField form={form} name="username" label="Add a member (username)" autoComplete="off" />
            <SubmitButton busy={add.isPending} busyLabel="Adding…">
              Add
            </SubmitButton>
          </form>
          <FormOutcome error={formError} />
        </>
      )}
    </section>
  );
}
