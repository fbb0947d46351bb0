'use client';

import { useMutation } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { arrayPages } from '@/components/ui/api-pages';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { DataTable, type TableDefinition } from '@/components/ui/data-table';
import { FormOutcome, SubmitButton, showServerErrors, TextField, useZodForm } from '@/components/ui/form';
import { usePagedList } from '@/components/ui/use-paged-list';
import { When } from '@/components/ui/when';
import { apiFetch } from '@/lib/client/api';
import { TOL_PROJECTS, type TolProject } from '@/lib/projects/contract';
import {
  APPROVAL_TYPES,
  type NewUserBody,
  NewUserBodySchema,
  type User,
  type UserPatchBody,
  UserPatchBodySchema,
} from '@/lib/users/contract';
import styles from './users-admin.module.css';

const PAGE = 50;
const upper = (projects: readonly string[]) => projects.map((p) => p.toUpperCase()).join(', ');
const PROJECT_ROLES = { member_of: 'Member of', manager_of: 'Sample manager of' } as const;

/** A change that needs a yes first: granting admin rights, or taking away someone's sign-in. */
type Pending = { kind: 'grant-admin'; user: User } | { kind: 'deactivate'; user: User } | { kind: 'create-admin'; body: NewUserBody };

export function UsersAdmin({ selfId }: { selfId: number }) {
  const users = usePagedList({
    key: ['admin-users'],
    limit: PAGE,
    fetch: arrayPages<User>('/api/admin/users'),
  });
  const { refresh } = users;
  const [outcome, setOutcome] = useState<{ ok: boolean; text: ReactNode } | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
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

  const table: TableDefinition<User> = {
    noun: 'users',
    rowKey: (u) => String(u.id),
    columns: [
      {
        id: 'username',
        header: 'User',
        key: true,
        cell: (u) => (
          <>
            {u.username}
            {u.id === selfId && <span className="muted"> (you)</span>}
            {u.email ? <div className={`muted ${styles.email}`}>{u.email}</div> : null}
          </>
        ),
      },
      {
        id: 'projects',
        header: 'Projects',
        cell: (u) =>
          u.member_of.length || u.manager_of.length || u.approver_of.length ? (
            <>
              {u.member_of.length > 0 && <div>Member of {upper(u.member_of)}</div>}
              {u.manager_of.length > 0 && <div>Sample manager of {upper(u.manager_of)}</div>}
              {u.approver_of.length > 0 && <div>Approves {u.approver_of.join(', ')}</div>}
            </>
          ) : (
            <span className="muted">None</span>
          ),
      },
      {
        id: 'role',
        header: 'Rights',
        nowrap: true,
        cell: (u) => (
          <>
            {u.is_admin ? <span className="badge">Administrator</span> : 'User'}
            <div>{u.is_active ? <span className="badge ok">May sign in</span> : <span className="badge danger">Deactivated</span>}</div>
          </>
        ),
      },
      { id: 'created', header: 'Added', cell: (u) => <When value={u.created} day /> },
      {
        id: 'actions',
        header: 'Change',
        cell: (u) => {
          const self = u.id === selfId;
          const busy = patch.isPending && patch.variables?.user.id === u.id;
          return (
            <div className={styles.actions}>
              <button type="button" aria-expanded={editing === u.id} onClick={() => setEditing(editing === u.id ? null : u.id)}>
                Projects<span className="visually-hidden"> of {u.username}</span>
              </button>
              {u.is_admin ? (
                <button
                  type="button"
                  disabled={self || busy}
                  title={self ? 'You cannot take away your own rights' : undefined}
                  onClick={() => change(u, { is_admin: false }, `${u.username} is no longer an administrator.`)}
                >
                  Remove admin<span className="visually-hidden"> rights of {u.username}</span>
                </button>
              ) : (
                <button type="button" disabled={busy} onClick={() => setPending({ kind: 'grant-admin', user: u })}>
                  Make admin<span className="visually-hidden"> {u.username}</span>
                </button>
              )}
              {u.is_active ? (
                <button
                  type="button"
                  className="danger"
                  disabled={self || busy}
                  title={self ? 'You cannot deactivate yourself' : undefined}
                  onClick={() => setPending({ kind: 'deactivate', user: u })}
                >
                  Deactivate<span className="visually-hidden"> {u.username}</span>
                </button>
              ) : (
                <button
                  type="button"
                  disabled={busy}
                  onClick={() => change(u, { is_active: true }, `${u.username} may sign in again; their API keys work again.`)}
                >
                  Reactivate<span className="visually-hidden"> {u.username}</span>
                </button>
              )}
            </div>
          );
        },
      },
    ],
  };

  return (
    <>
      <AddUser
        onAdded={(u) => {
          setOutcome({ ok: true, text: `Added ${u.username}${u.is_admin ? ' as an administrator' : ''}. They can sign in now.` });
          refresh();
        }}
        onAskAdmin={(body) => setPending({ kind: 'create-admin', body })}
        pendingAdmin={pending?.kind === 'create-admin' ? pending.body : null}
        onSettled={() => setPending(null)}
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
        caption="Users, their projects and rights"
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

      <ConfirmDialog
        open={pending?.kind === 'grant-admin'}
        title={pending?.kind === 'grant-admin' ? `Make ${pending.user.username} an administrator?` : 'Make an administrator?'}
        confirmLabel="Make administrator"
        busy={patch.isPending}
        onCancel={() => setPending(null)}
        onConfirm={() => {
          if (pending?.kind === 'grant-admin')
            change(pending.user, { is_admin: true }, `${pending.user.username} is now an administrator.`);
        }}
      >
        <p>
          Administrators manage every user, see every profile and sample, and retry failed jobs. They can take these rights away from
          others, too.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={pending?.kind === 'deactivate'}
        title={pending?.kind === 'deactivate' ? `Deactivate ${pending.user.username}?` : 'Deactivate?'}
        confirmLabel="Deactivate"
        danger
        busy={patch.isPending}
        onCancel={() => setPending(null)}
        onConfirm={() => {
          if (pending?.kind === 'deactivate')
            change(
              pending.user,
              { is_active: false },
              `${pending.user.username} is deactivated: they can no longer sign in, and their API keys are refused.`,
            );
        }}
      >
        <p>
          They will be signed out, can no longer sign in, and their API keys stop working. Their profiles, manifests and samples stay. You
          can reactivate them later.
        </p>
      </ConfirmDialog>
    </>
  );
}

/** The add form: the server's own schema checks it first; an administrator is only made after a yes. */
function AddUser({
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
  const form = useZodForm(NewUserBodySchema, {
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
    mutationFn: (body: NewUserBody) => apiFetch<User>('/api/admin/users', { method: 'POST', json: body }),
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

const ProjectsSchema = UserPatchBodySchema.pick({ member_of: true, manager_of: true, approver_of: true });

/** A user's memberships, manager roles and approver types, changed under their row. */
function ProjectsEditor({ user, onDone }: { user: User; onDone: (said: string | null) => void }) {
  const form = useZodForm(ProjectsSchema, { member_of: user.member_of, manager_of: user.manager_of, approver_of: user.approver_of });
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (body: { member_of?: TolProject[]; manager_of?: TolProject[]; approver_of?: string[] }) =>
      apiFetch<User>(`/api/admin/users/${user.id}`, { method: 'PATCH', json: body }),
    onSuccess: (u) =>
      onDone(
        `Saved the projects of ${u.username}: ${u.member_of.length ? `member of ${upper(u.member_of)}` : 'member of none'}; ${
          u.manager_of.length ? `sample manager of ${upper(u.manager_of)}` : 'sample manager of none'
        }; ${u.approver_of.length ? `approves ${u.approver_of.join(', ')}` : 'approves no associated type'}.`,
      ),
    onError: (err) => setError(showServerErrors(form, err)),
  });
  return (
    <form
      className={styles.editor}
      aria-label={`Projects of ${user.username}`}
      onSubmit={form.handleSubmit((body) => {
        setError(null);
        save.mutate({ member_of: body.member_of ?? [], manager_of: body.manager_of ?? [], approver_of: body.approver_of ?? [] });
      })}
    >
      <ProjectRoles register={(field) => form.register(field)} />
      <ApproverTypes register={() => form.register('approver_of')} />
      <FormOutcome error={error} />
      <div className={styles.actions}>
        <SubmitButton busy={save.isPending} busyLabel="Saving…">
          Save projects
        </SubmitButton>
        <button type="button" onClick={() => onDone(null)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** A checkbox per Tree of Life project, once for membership and once for managing its samples. */
function ProjectRoles({ register }: { register: (field: 'member_of' | 'manager_of') => UseFormRegisterReturn }) {
  return (['member_of', 'manager_of'] as const).map((field) => (
    <fieldset key={field} className={styles.projects}>
      <legend>{PROJECT_ROLES[field]}</legend>
      {TOL_PROJECTS.map((p) => (
        <label key={p} className={styles.check}>
          <input type="checkbox" value={p} {...register(field)} /> {p.toUpperCase()}
        </label>
      ))}
    </fieldset>
  ));
}

/**
 * A checkbox per associated type that needs approval: a sample of such a type waits for an approver of it. A
 * project's sample managers approve its own type (DTOL, ASG) without being named here.
 */
function ApproverTypes({ register }: { register: () => UseFormRegisterReturn }) {
  return (
    <fieldset className={styles.projects}>
      <legend>Approves samples of the associated types</legend>
      {APPROVAL_TYPES.map((t) => (
        <label key={t} className={styles.check}>
          <input type="checkbox" value={t} {...register()} /> {t}
        </label>
      ))}
    </fieldset>
  );
}
