'use client';

import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { useFormSend } from '@/components/ui/use-form-send';
import { useZodForm } from '@/components/ui/zod-form';
import { api } from '@/lib/client/api';
import type { TolProject } from '@/lib/projects/contract';
import { TOL_PROJECTS } from '@/lib/projects/lists';
import type { User } from '@/lib/users/contract';
import { ASSOCIATED_TYPES_KEY } from './reference-query';
import { RowEditor } from './reference-table';
import styles from './users-admin.module.css';

const PROJECT_ROLES = { member_of: 'Member of', manager_of: 'Sample manager of' } as const;

export const upper = (projects: readonly string[]) => projects.map((p) => p.toUpperCase()).join(', ');

const projectsRule = () =>
  import('@/lib/users/contract').then((c) => c.UserPatchBodySchema.pick({ member_of: true, manager_of: true, approver_of: true }));

/** A user's memberships, manager roles and approver types, changed under their row. */
export function ProjectsEditor({ user, onDone }: { user: User; onDone: (said: ReactNode | null) => void }) {
  const form = useZodForm(projectsRule, { member_of: user.member_of, manager_of: user.manager_of, approver_of: user.approver_of });
  const { error, busy, onSubmit } = useFormSend(
    form,
    (body: { member_of?: TolProject[]; manager_of?: TolProject[]; approver_of?: string[] }) =>
      api.PATCH('/api/admin/users/{id}', {
        params: { path: { id: user.id } },
        body: { member_of: body.member_of ?? [], manager_of: body.manager_of ?? [], approver_of: body.approver_of ?? [] },
      }),
    (u) =>
      onDone(
        `Saved the projects of ${u.username}: ${u.member_of.length ? `member of ${upper(u.member_of)}` : 'member of none'}; ${
          u.manager_of.length ? `sample manager of ${upper(u.manager_of)}` : 'sample manager of none'
        }; ${u.approver_of.length ? `approves ${u.approver_of.join(', ')}` : 'approves no associated type'}.`,
      ),
  );
  return (
    <RowEditor
      label={`Projects of ${user.username}`}
      save="Save projects"
      error={error}
      busy={busy}
      onSubmit={onSubmit}
      onCancel={() => onDone(null)}
      noValidate={false}
    >
      <ProjectRoles register={(field) => form.register(field)} />
      <ApproverTypes register={() => form.register('approver_of')} />
    </RowEditor>
  );
}

/** A checkbox per Tree of Life project, once for membership and once for managing its samples. */
export function ProjectRoles({ register }: { register: (field: 'member_of' | 'manager_of') => UseFormRegisterReturn }) {
  return (['member_of', 'manager_of'] as const).map((field) => (
    <fieldset key={field} className="choices">
      <legend>{PROJECT_ROLES[field]}</legend>
      {TOL_PROJECTS.map((p) => (
        <label key={p} className={styles.check}>
          <input type="checkbox" value={p} {...register(field)} /> {p.toUpperCase()}
        </label>
      ))}
    </fieldset>
  ));
}

/** The associated types that need approval now, retired ones too (their samples still wait): the Reference data page's. */
export const useApprovalTypes = () =>
  useQuery({
    queryKey: ASSOCIATED_TYPES_KEY,
    queryFn: () => api.GET('/api/admin/associated-types'),
    select: (types) => types.filter((t) => t.approval_required).map((t) => t.name),
  });

/**
 * A checkbox per associated type that needs approval: a sample of such a type waits for an approver of it. A
 * project's sample managers approve its own type (DTOL, ASG) without being named here.
 */
export function ApproverTypes({ register }: { register: () => UseFormRegisterReturn }) {
  const types = useApprovalTypes();
  return (
    <fieldset className="choices" aria-busy={types.isPending || undefined}>
      <legend>Approves samples of the associated types</legend>
      {types.error && <span role="alert">The associated types could not be read: {types.error.message}</span>}
      {(types.data ?? []).map((t) => (
        <label key={t} className={styles.check}>
          <input type="checkbox" value={t} {...register()} /> {t}
        </label>
      ))}
    </fieldset>
  );
}
