'use client';

import { OrcidLink } from '@/components/account/orcid-link';
import type { Column } from '@/components/ui/data-table';
import { When } from '@/components/ui/when';
import type { AdminUser, User, UserPatchBody } from '@/lib/users/contract';
import type { PendingChange } from './user-dialogs';
import { upper } from './user-projects';
import styles from './users-admin.module.css';

/** What the columns need from the page: who is looking, which row is open or busy, and how to change a user. */
export interface UserColumnsContext {
  selfId: number;
  editing: number | null;
  busyId: number | null;
  onEdit: (id: number | null) => void;
  /** a change made at once, and what to say when it is done */
  change: (user: User, body: UserPatchBody, said: string) => void;
  /** a change that needs a yes first */
  ask: (pending: PendingChange) => void;
  /** opens the "Set password" dialog */
  setPassword: (user: User) => void;
  /** lifts the sign-in locks of a locked account */
  unlock: (user: User) => void;
}

/** The users table, one column per fact about a user; a new fact about users is one more entry here. */
export function userColumns(ctx: UserColumnsContext): Column<AdminUser>[] {
  return [
    {
      id: 'username',
      header: 'User',
      key: true,
      cell: (u) => (
        <>
          {u.username}
          {u.id === ctx.selfId && <span className="muted"> (you)</span>}
          {u.full_name ? <div className={styles.email}>{u.full_name}</div> : null}
          {u.email ? <div className={`muted ${styles.email}`}>{u.email}</div> : null}
        </>
      ),
    },
    {
      id: 'orcid',
      header: 'ORCID iD',
      nowrap: true,
      cell: (u) => (u.orcid_id ? <OrcidLink orcidId={u.orcid_id} compact /> : <span className="muted">None</span>),
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
      id: 'together',
      header: 'Groups and shared profiles',
      cell: (u) =>
        u.groups.length || u.shared_profiles.length ? (
          <>
            {u.groups.length > 0 && <div>In {u.groups.join(', ')}</div>}
            {u.shared_profiles.map((p) => (
              <div key={`${p.id}-${p.via ?? ''}`}>
                <a href={`/profiles/${p.id}`}>{p.title}</a>{' '}
                <span className="muted">
                  ({p.role}
                  {p.via ? `, through ${p.via}` : ''})
                </span>
              </div>
            ))}
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
          {u.locked_until && (
            <div>
              <span className="badge danger">Locked</span>{' '}
              <span className="muted">
                by failed sign-ins, until <When value={u.locked_until} />
              </span>
            </div>
          )}
        </>
      ),
    },
    { id: 'created', header: 'Added', cell: (u) => <When value={u.created} day /> },
    { id: 'actions', header: 'Change', cell: (u) => <UserActions user={u} ctx={ctx} /> },
  ];
}

/** The buttons of a user's row: projects, admin rights, sign-in (password, locks, activity), the ORCID iD. */
function UserActions({ user: u, ctx }: { user: AdminUser; ctx: UserColumnsContext }) {
  const self = u.id === ctx.selfId;
  const busy = ctx.busyId === u.id;
  return (
    <div className={styles.actions}>
      <button type="button" aria-expanded={ctx.editing === u.id} onClick={() => ctx.onEdit(ctx.editing === u.id ? null : u.id)}>
        Projects<span className="visually-hidden"> of {u.username}</span>
      </button>
      {u.is_admin ? (
        <button
          type="button"
          disabled={self || busy}
          title={self ? 'You cannot take away your own rights' : undefined}
          onClick={() => ctx.change(u, { is_admin: false }, `${u.username} is no longer an administrator.`)}
        >
          Remove admin<span className="visually-hidden"> rights of {u.username}</span>
        </button>
      ) : (
        <button type="button" disabled={busy} onClick={() => ctx.ask({ kind: 'grant-admin', user: u })}>
          Make admin<span className="visually-hidden"> {u.username}</span>
        </button>
      )}
      <button type="button" disabled={busy} onClick={() => ctx.setPassword(u)}>
        Set password<span className="visually-hidden"> of {u.username}</span>
      </button>
      {u.locked_until && (
        <button type="button" disabled={busy} onClick={() => ctx.unlock(u)}>
          Unlock<span className="visually-hidden"> {u.username}</span>
        </button>
      )}
      {u.is_active ? (
        <button
          type="button"
          className="danger"
          disabled={self || busy}
          title={self ? 'You cannot deactivate yourself' : undefined}
          onClick={() => ctx.ask({ kind: 'deactivate', user: u })}
        >
          Deactivate<span className="visually-hidden"> {u.username}</span>
        </button>
      ) : (
        <button
          type="button"
          disabled={busy}
          onClick={() => ctx.change(u, { is_active: true }, `${u.username} may sign in again; their API keys work again.`)}
        >
          Reactivate<span className="visually-hidden"> {u.username}</span>
        </button>
      )}
      {u.orcid_id && (
        <button type="button" disabled={busy} onClick={() => ctx.ask({ kind: 'unlink-orcid', user: u })}>
          Unlink ORCID iD<span className="visually-hidden"> of {u.username}</span>
        </button>
      )}
    </div>
  );
}
