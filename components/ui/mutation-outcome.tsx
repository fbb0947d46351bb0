'use client';

import type { UseMutationResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';

/** What an action came to: a success is said as a status, a failure as an alert. */
export interface Said {
  ok: boolean;
  text: ReactNode;
}

/**
 * Where an action says what it came to, in a live region so that screen readers hear it: a success notice, or an
 * alert that says what was not done and why. Nothing before anything was said.
 */
export function Outcome({ said }: { said: Said | null | undefined }) {
  return (
    <div aria-live="polite">
      {said &&
        (said.ok ? (
          <p role="status" className="notice success">
            {said.text}
          </p>
        ) : (
          <p role="alert" className="notice error">
            {said.text}
          </p>
        ))}
    </div>
  );
}

/** What the last click of a mutation came to, said in an `Outcome`. */
export function MutationOutcome<Data, Vars>({
  mutation,
  done,
  failed,
}: {
  mutation: UseMutationResult<Data, Error, Vars>;
  done: (data: Data) => ReactNode;
  failed: (message: string, vars: Vars) => ReactNode;
}) {
  const said = mutation.isSuccess
    ? { ok: true, text: done(mutation.data) }
    : mutation.isError
      ? { ok: false, text: failed(mutation.error.message, mutation.variables) }
      : null;
  return <Outcome said={said} />;
}
