'use client';

import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import type { User, UserPatchBody } from '@/lib/users/contract';

/** A change to a user that needs a yes first: granting admin rights, or taking away a way to sign in. */
export type PendingChange = { kind: 'grant-admin' | 'deactivate' | 'unlink-orcid'; user: User };

/** The confirmations of the users table's changes; `change` makes the change once confirmed. */
export function UserChangeDialogs({
  pending,
  busy,
  onCancel,
  change,
}: {
  pending: PendingChange | null;
  busy: boolean;
  onCancel: () => void;
  change: (user: User, body: UserPatchBody, said: string) => void;
}) {
  const user = pending?.user;
  const name = user?.username ?? 'this user';
  return (
    <>
      <ConfirmDialog
        open={pending?.kind === 'grant-admin'}
        title={`Make ${name} an administrator?`}
        confirmLabel="Make administrator"
        busy={busy}
        onCancel={onCancel}
        onConfirm={() => user && change(user, { is_admin: true }, `${name} is now an administrator.`)}
      >
        <p>
          Administrators manage every user, see every profile and sample, and retry failed jobs. They can take these rights away from
          others, too.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={pending?.kind === 'deactivate'}
        title={`Deactivate ${name}?`}
        confirmLabel="Deactivate"
        danger
        busy={busy}
        onCancel={onCancel}
        onConfirm={() =>
          user && change(user, { is_active: false }, `${name} is deactivated: they can no longer sign in, and their API keys are refused.`)
        }
      >
        <p>
          They will be signed out, can no longer sign in, and their API keys stop working. Their profiles, manifests and samples stay. You
          can reactivate them later.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={pending?.kind === 'unlink-orcid'}
        title={`Unlink the ORCID iD of ${name}?`}
        confirmLabel="Unlink ORCID iD"
        danger
        busy={busy}
        onCancel={onCancel}
        onConfirm={() =>
          user && change(user, { orcid_id: null }, `The ORCID iD ${user.orcid_id} is no longer linked to ${name}; they can link one again.`)
        }
      >
        <p>
          {name} can no longer sign in with the ORCID iD {user?.orcid_id}. Someone who joined by signing in with ORCID has no password:
          without the iD they cannot sign in at all until they link it again from their account, signed in another way.
        </p>
      </ConfirmDialog>
    </>
  );
}
