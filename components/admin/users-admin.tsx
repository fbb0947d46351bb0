'use client';

import { useMutation } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { arrayPages } from '@/components/ui/api-pages';
import { DataTable, type TableDefinition } from '@/components/ui/data-table';
import { usePagedList } from '@/components/ui/use-paged-list';
import { apiFetch } from '@/lib/client/api';
import type { AdminUser, NewUserBody, User, UserPatchBody } from '@/lib/users/contract';
import { AddUser } from './add-user';
import { userColumns } from './user-columns';
import { type PendingChange, UserChangeDialogs } from './user-dialogs';
import { ProjectsEditor } from './user-projects';

const PAGE = 50;

/**
 * The admin's Users page: the add form, the users table (its columns in user-columns.tsx), the projects editor
 * under a row, and the confirmations of the changes that need a yes (user-dialogs.tsx), with one outcome line.
 */
export function UsersAdmin({ selfId }: { selfId: number }) {
  const users = usePagedList({
    key: ['admin-users'],
    limit: PAGE,
    fetch: arrayPages<AdminUser>('/api/admin/users'),
  });
  const { refresh } = users;
  const [outcome, setOutcome] = useState<{ ok: boolean; text: ReactNode } | null>(null);
  const [pending, setPending] = useState<PendingChange | null>(null);
  const [pendingAdmin, setPendingAdmin] = useState<NewUserBody | null>(null);
  const [editing, setEditing] = useState<number | null>(null);

  const patch = useMutation({
    mutationFn: ({ user, body }: { user: User; body: UserPatchBody; said: string }) =>
      apiFetch<User>(`/api/admin/users/${user.id}`, { method: 'PATCH', json: body }),
    onSuccess: (_user, { said }) => {
      setOutcome({ ok: true, text: said });
      refresh();
    },
    onError: (err, { user }) => setOutcome({ ok: false, text: `${user.username} was not changed: ${err.message}` }),
    onSettled: () => setPending(null),
  });

  const change = (user: User, body: UserPatchBody, said: string) => {
    setOutcome(null);
    patch.mutate({ user, body, said });
  };

  const table: TableDefinition<AdminUser> = {
    noun: 'users',
    rowKey: (u) => String(u.id),
    columns: userColumns({
      selfId,
      editing,
      busyId: patch.isPending ? (patch.variables?.user.id ?? null) : null,
      onEdit: setEditing,
      change,
      ask: setPending,
    }),
  };

  return (
    <>
      <AddUser
        onAdded={(u) => {
          setOutcome({ ok: true, text: `Added ${u.username}${u.is_admin ? ' as an administrator' : ''}. They can sign in now.` });
          refresh();
        }}
        onAskAdmin={setPendingAdmin}
        pendingAdmin={pendingAdmin}
        onSettled={() => setPendingAdmin(null)}
      />

      <h2 id="all-users">All users</h2>
      <div aria-live="polite">
        {outcome &&
          (outcome.ok ? (
            <p role="status" className="notice success">
              {outcome.text}
            </p>
          ) : (
            <p role="alert" className="notice error">
              {outcome.text}
            </p>
          ))}
      </div>
      <DataTable
        caption="Users, their ORCID iDs, projects and rights"
        table={table}
        {...users}
        detail={(u) =>
          editing === u.id ? (
            <ProjectsEditor
              user={u}
              onDone={(said) => {
                setEditing(null);
                if (said) {
                  setOutcome({ ok: true, text: said });
                  refresh();
                }
              }}
            />
          ) : null
        }
      />

      <UserChangeDialogs pending={pending} busy={patch.isPending} onCancel={() => setPending(null)} change={change} />
    </>
  );
}
