'use client';

import type { UseMutationResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';

/**
 * What the last click of an action came to, in a live region so that screen readers hear it: a success notice, or
 * an alert that says what was not done and why. Nothing while the action has not run.
 */
export function MutationOutcome<Data, Vars>({
  mutation,
  done,
  failed,
}: {
  mutation: UseMutationResult<Data, Error, Vars>;
  done: (data: Data) => ReactNode;
  failed: (message: string, vars: Vars) => ReactNode;
}) {
  return (
    <div aria-live="polite">
      {mutation.isSuccess && (
        <p role="status" className="notice success">
          {done(mutation.data)}
        </p>
      )}
      {mutation.isError && (
        <p role="alert" className="notice error">
          {failed(mutation.error.message, mutation.variables)}
        </p>
      )}
    </div>
  );
}
