'use client';

import { useMutation } from '@tanstack/react-query';
import Link from 'next/link';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { type FormEvent, useState } from 'react';
import { DataTable, type TableDefinition } from '@/components/ui/data-table';
import { Outcome, type Said } from '@/components/ui/mutation-outcome';
import { usePagedList } from '@/components/ui/use-paged-list';
import { api, apiPage, type Schema } from '@/lib/client/api';
import { withParams } from '@/lib/client/search';
import type { AdminUser, NewUserBody, User, UserPatchBody } from '@/lib/users/contract';
import { AddUser } from './add-user';
import { SetPasswordDialog } from './set-password';
import { userColumns } from './user-columns';
import { type PendingChange, UserChangeDialogs } from './user-dialogs';
import { ProjectsEditor } from './user-projects';
import styles from './users-admin.module.css';
import { USERS_PAGE, usersKey, usersSearch } from './users-query';

/**
 * The admin's Users page: the add form, the search (its `q` kept in the page's URL), the users table (its columns in
 * user-columns.tsx), the projects editor under a row, the confirmations of the changes that need a yes
 * (user-dialogs.tsx) and the "Set password" dialog (set-password.tsx), with one outcome line.
 */
export function UsersAdmin({ selfId }: { selfId: number }) {
  const q = usersSearch(useSearchParams());
  const users = usePagedList({
    key: usersKey(q),
    limit: USERS_PAGE,
    fetch: (offset, limit) => apiPage('/api/admin/users', { offset, limit }, { params: { query: q ? { q } : {} } }),
  });
  const { refresh } = users;
  const [outcome, setOutcome] = useState<Said | null>(null);
  const [pending, setPending] = useState<PendingChange | null>(null);
  const [pendingAdmin, setPendingAdmin] = useState<NewUserBody | null>(null);
  const [editing, setEditing] = useState<number | null>(null);
  const [settingPassword, setSettingPassword] = useState<User | null>(null);

  const unlock = useMutation({
    mutationFn: (user: User) => api.POST('/api/admin/users/{id}/unlock', { params: { path: { id: user.id } } }),
    onSuccess: (user) => {
      setOutcome({ ok: true, text: `${user.username} is unlocked: they may sign in again from everywhere, with the same password.` });
      refresh();
    },
    onError: (err, user) => setOutcome({ ok: false, text: `${user.username} was not unlocked: ${err.message}` }),
  });

  const patch = useMutation({
    mutationFn: ({ user, body }: { user: User; body: UserPatchBody; said: string }) =>
      // the form's schema is the route's own. An `orcid_id: null` (unlinking) goes as it is: openapi-fetch types a field
      // whose one value is null as one never sent
      api.PATCH('/api/admin/users/{id}', { params: { path: { id: user.id } }, body: body as Omit<Schema<'UserPatch'>, 'orcid_id'> }),
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
      busyId: patch.isPending ? (patch.variables?.user.id ?? null) : unlock.isPending ? (unlock.variables?.id ?? null) : null,
      onEdit: setEditing,
      change,
      ask: setPending,
      setPassword: setSettingPassword,
      unlock: (user) => {
        setOutcome(null);
        unlock.mutate(user);
      },
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
      <UserSearch q={q} />
      <Outcome said={outcome} />
      <DataTable
        caption="Users, their ORCID iDs, projects and rights"
        table={table}
        {...users}
        empty={
          q ? (
            <p role="status" className="notice">
              No user matches “{q}”. <Link href="/admin/users">Show every user</Link>
            </p>
          ) : undefined
        }
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
      <SetPasswordDialog user={settingPassword} onClose={() => setSettingPassword(null)} onSet={refresh} />
    </>
  );
}

/**
 * The search of the users: a GET form on this page, so that the search is in the URL (a reload or a shared link
 * keeps it) and works without script too; with script it goes there without a reload, back at the first page.
 */
function UserSearch({ q }: { q: string }) {
  const router = useRouter();
  const pathname = usePathname();
  const search = useSearchParams();
  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const wanted = String(new FormData(e.currentTarget).get('q') ?? '').trim();
    router.push(withParams(pathname, search, { q: wanted, offset: undefined }));
  }
  return (
    <search>
      <form action={pathname} method="get" onSubmit={onSubmit} className={styles.search} key={q}>
        <label htmlFor="user-search">Search users</label>
        <span id="user-search-hint" className="muted">
          Part of a username, email address, name or ORCID iD
        </span>
        <div className={styles.searchRow}>
          <input id="user-search" name="q" type="search" defaultValue={q} maxLength={200} aria-describedby="user-search-hint" />
          <button type="submit">Search</button>
          {q && <Link href={pathname}>Show every user</Link>}
        </div>
      </form>
    </search>
  );
}
