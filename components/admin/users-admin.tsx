'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ApiError, apiFetch } from '@/lib/client/api';
import { TOL_PROJECTS } from '@/lib/projects';
import { NewUserSchema } from '@/lib/users/schemas';

const PROJECTS = TOL_PROJECTS;
type Project = (typeof PROJECTS)[number];

interface User {
  id: number;
  username: string;
  email: string;
  is_admin: boolean;
  is_active: boolean;
  member_of: Project[];
  manager_of: Project[];
}
type Patch = Partial<Pick<User, 'is_admin' | 'is_active' | 'member_of' | 'manager_of'>>;

const toggle = (list: Project[], p: Project, on: boolean) => (on ? [...new Set([...list, p])] : list.filter((x) => x !== p));

export function UsersAdmin({ selfId }: { selfId: number }) {
  const qc = useQueryClient();
  const users = useQuery({ queryKey: ['admin-users'], queryFn: () => apiFetch<User[]>('/api/admin/users') });
  const [formError, setFormError] = useState<ApiError | null>(null);
  const refresh = () => void qc.invalidateQueries({ queryKey: ['admin-users'] });

  const create = useMutation({
    mutationFn: (body: Record<string, unknown>) => apiFetch<User>('/api/admin/users', { method: 'POST', json: body }),
    onSuccess: refresh,
  });
  const patch = useMutation({
    mutationFn: ({ id, body }: { id: number; body: Patch }) =>
      apiFetch<User>(`/api/admin/users/${id}`, { method: 'PATCH', json: body }),
    onSuccess: refresh,
  });

  function onCreate(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const d = new FormData(form);
    setFormError(null);
    const input = {
      username: String(d.get('username') ?? ''),
      password: String(d.get('password') ?? ''),
      email: String(d.get('email') ?? ''),
      isAdmin: d.get('is_admin') === 'on',
      memberOf: PROJECTS.filter((p) => d.get(`member_${p}`) === 'on'),
      managerOf: PROJECTS.filter((p) => d.get(`manager_${p}`) === 'on'),
    };
    // the server's own schema: the same refusals, in the same words, before anything is sent
    const check = NewUserSchema.safeParse(input);
    if (!check.success) {
      const errors = check.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
      setFormError(new ApiError(400, errors.map((e) => e.message).join('; '), errors));
      return;
    }
    create.mutate(
      {
        username: input.username,
        password: input.password,
        email: input.email,
        is_admin: input.isAdmin,
        member_of: input.memberOf,
        manager_of: input.managerOf,
      },
      { onSuccess: () => form.reset(), onError: (err) => setFormError(err instanceof ApiError ? err : null) },
    );
  }
  const fieldError = (path: string) => formError?.forField(path);

  return (
    <>
      <h2>Add a user</h2>
      <form className="stack" onSubmit={onCreate} aria-label="Add a user" noValidate>
        <label>
          Username
          <input name="username" required autoComplete="off" aria-invalid={!!fieldError('username')} />
          {fieldError('username') && <span className="field-error">{fieldError('username')}</span>}
        </label>
        <label>
          Email
          <input name="email" type="email" autoComplete="off" />
          {fieldError('email') && <span className="field-error">{fieldError('email')}</span>}
        </label>
        <label>
          Password (at least 8 characters)
          <input name="password" type="password" required minLength={8} autoComplete="new-password" />
          {fieldError('password') && <span className="field-error">{fieldError('password')}</span>}
        </label>
        <fieldset>
          <legend>Projects</legend>
          <table>
            <thead>
              <tr>
                <th scope="col">Project</th>
                <th scope="col">Member</th>
                <th scope="col">Sample manager</th>
              </tr>
            </thead>
            <tbody>
              {PROJECTS.map((p) => (
                <tr key={p}>
                  <th scope="row">{p.toUpperCase()}</th>
                  <td>
                    <input type="checkbox" name={`member_${p}`} aria-label={`Member of ${p.toUpperCase()}`} />
                  </td>
                  <td>
                    <input type="checkbox" name={`manager_${p}`} aria-label={`Sample manager of ${p.toUpperCase()}`} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </fieldset>
        <label className="inline">
          <input type="checkbox" name="is_admin" /> Administrator
        </label>
        {formError && !formError.errors.length && (
          <p role="alert" className="field-error">
            {formError.message}
          </p>
        )}
        <button className="primary" type="submit" disabled={create.isPending}>
          {create.isPending ? 'Adding…' : 'Add user'}
        </button>
      </form>

      <h2>All users</h2>
      {users.isPending && <p aria-busy="true">Loading users…</p>}
      {users.isError && (
        <p role="alert" className="notice error">
          Could not load users: {users.error.message}
        </p>
      )}
      {patch.isError && (
        <p role="alert" className="notice error">
          The change was not saved: {patch.error.message}
        </p>
      )}
      {users.data && (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Users, their project memberships and roles</caption>
            <thead>
              <tr>
                <th scope="col">Username</th>
                <th scope="col">Email</th>
                {PROJECTS.map((p) => (
                  <th scope="col" key={p}>
                    {p.toUpperCase()}
                  </th>
                ))}
                <th scope="col">Admin</th>
                <th scope="col">Active</th>
              </tr>
            </thead>
            <tbody>
              {users.data.map((u) => (
                <tr key={u.id}>
                  <th scope="row">{u.username}</th>
                  <td>{u.email || <span className="muted">—</span>}</td>
                  {PROJECTS.map((p) => (
                    <td key={p}>
                      <label className="inline">
                        <input
                          type="checkbox"
                          checked={u.member_of.includes(p)}
                          onChange={(e) =>
                            patch.mutate({ id: u.id, body: { member_of: toggle(u.member_of, p, e.target.checked) } })
                          }
                        />
                        member<span className="visually-hidden"> of {p} ({u.username})</span>
                      </label>
                      <label className="inline">
                        <input
                          type="checkbox"
                          checked={u.manager_of.includes(p)}
                          onChange={(e) =>
                            patch.mutate({ id: u.id, body: { manager_of: toggle(u.manager_of, p, e.target.checked) } })
                          }
                        />
                        manager<span className="visually-hidden"> of {p} ({u.username})</span>
                      </label>
                    </td>
                  ))}
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`${u.username} is an administrator`}
                      checked={u.is_admin}
                      disabled={u.id === selfId}
                      onChange={(e) => patch.mutate({ id: u.id, body: { is_admin: e.target.checked } })}
                    />
                  </td>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`${u.username} may sign in`}
                      checked={u.is_active}
                      disabled={u.id === selfId}
                      onChange={(e) => patch.mutate({ id: u.id, body: { is_active: e.target.checked } })}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
