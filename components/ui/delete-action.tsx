'use client';

import { useMutation } from '@tanstack/react-query';
import { useRouter, useSearchParams } from 'next/navigation';
import { type ReactNode, useId, useState } from 'react';
import { type ApiPath, deleteAt, type FilledPath } from '@/lib/client/api';
import { ConfirmDialog } from './confirm-dialog';
import { Outcome } from './mutation-outcome';

/**
 * Deleting one thing: a button that opens a confirmation naming exactly what goes, and then the DELETE. When the
 * service would refuse (it reached a public archive, or is in use) the button is disabled and the reason is shown
 * beside it; a refusal that arrives anyway (the state changed since the page was read) is shown in the dialog.
 * Afterwards the page moves on (`redirectTo`, with the notice in the URL) or the caller refreshes (`onDeleted`).
 */
export function DeleteAction({
  noun,
  name,
  children,
  url,
  refusal,
  redirectTo,
  onDeleted,
}: {
  /** what it is: sample, validation report, file, study, profile */
  noun: string;
  /** how a person knows it: the tube, the file name, the study id, the title */
  name: string;
  /** what goes with it, in words, shown in the confirmation */
  children: ReactNode;
  /** what to DELETE: a path of the API's, filled in */
  url: FilledPath<ApiPath<'delete'>>;
  /** why it may not be deleted, when it may not */
  refusal: string | null;
  /** where to go once it is gone (the notice is added to the URL as `deleted`) */
  redirectTo?: string;
  onDeleted?: (what: string) => void;
}) {
  const [open, setOpen] = useState(false);
  const router = useRouter();
  const reasonId = useId();
  const what = `${noun.charAt(0).toUpperCase()}${noun.slice(1)} ${name}`;
  const remove = useMutation({
    mutationFn: () => deleteAt(url),
    onSuccess: () => {
      setOpen(false);
      onDeleted?.(what);
      if (redirectTo) router.push(`${redirectTo}${redirectTo.includes('?') ? '&' : '?'}${new URLSearchParams({ deleted: what })}`);
    },
  });
  if (refusal) {
    return (
      <span className="inline" style={{ gap: '0.5rem' }}>
        <button type="button" disabled aria-describedby={reasonId}>
          Delete<span className="visually-hidden"> {`${noun} ${name}`}</span>
        </button>
        <span id={reasonId} className="muted">
          {refusal}
        </span>
      </span>
    );
  }
  return (
    <>
      <button
        type="button"
        className="danger"
        onClick={() => {
          remove.reset();
          setOpen(true);
        }}
      >
        Delete<span className="visually-hidden"> {`${noun} ${name}`}</span>
      </button>
      <ConfirmDialog
        open={open}
        title={`Delete ${noun} ${name}?`}
        confirmLabel={`Delete ${noun}`}
        danger
        busy={remove.isPending}
        onConfirm={() => remove.mutate()}
        onCancel={() => setOpen(false)}
      >
        <p>{children}</p>
        <p>
          <strong>This cannot be undone.</strong>
        </p>
        {remove.isError && (
          <p role="alert" className="notice error">
            {what} was not deleted: {remove.error.message}
          </p>
        )}
      </ConfirmDialog>
    </>
  );
}

/** The notice a page shows after a deletion sent the reader to it (`?deleted=…`). */
export function DeletedNotice() {
  const deleted = useSearchParams().get('deleted');
  if (!deleted) return null;
  return (
    <p role="status" className="notice success">
      {deleted} was deleted.
    </p>
  );
}

/** Where a deletion made from a list says it is done: a live region, so screen readers hear it too. */
export function DeletedHere({ what }: { what: string | null }) {
  return <Outcome said={what ? { ok: true, text: `${what} was deleted.` } : null} />;
}
