'use client';

import { useState } from 'react';
import { signOutHere } from '@/components/layout/sign-out-button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { api } from '@/lib/client/api';

/**
 * Ends every portal session of the account (`DELETE /api/account/sessions`): a browser left signed in elsewhere, or
 * a stolen session, stops working at its next request. This browser is signed out too; API keys stay.
 */
export function SignOutEverywhere() {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  async function endAll() {
    setBusy(true);
    setFailure(null);
    try {
      await api.DELETE('/api/account/sessions');
      await signOutHere('/signin?signed_out=everywhere');
    } catch (err) {
      setBusy(false);
      setAsking(false);
      setFailure(err instanceof Error ? err.message : String(err));
    }
  }

  return (
    <>
      <p>
        Signed in on a computer you no longer use, or think someone else has your session? Sign out everywhere: every browser signed in to
        your account, this one too, must sign in again. Your API keys keep working.
      </p>
      <button type="button" onClick={() => setAsking(true)} disabled={busy}>
        Sign out everywhere
      </button>
      {failure && (
        <p role="alert" className="field-error">
          Nothing was changed: {failure}
        </p>
      )}
      <ConfirmDialog
        open={asking}
        title="Sign out everywhere?"
        confirmLabel="Sign out everywhere"
        busy={busy}
        onConfirm={() => void endAll()}
        onCancel={() => setAsking(false)}
      >
        Every browser signed in to your account will be signed out, this one too, and will have to sign in again.
      </ConfirmDialog>
    </>
  );
}
