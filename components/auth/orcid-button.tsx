'use client';

import { signIn } from 'next-auth/react';
import { useState } from 'react';
import styles from './orcid-button.module.css';

/**
 * Starts signing in at ORCID, coming back to `callbackUrl`. Signed in already, the same step links the iD to the
 * account (lib/auth/session.ts).
 */
export function OrcidButton({ callbackUrl, children }: { callbackUrl: string; children: string }) {
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      className={styles.button}
      disabled={busy}
      aria-busy={busy}
      onClick={() => {
        setBusy(true);
        void signIn('orcid', { callbackUrl });
      }}
    >
      <span aria-hidden="true" className={styles.mark}>
        iD
      </span>
      {busy ? 'Going to ORCID…' : children}
    </button>
  );
}
