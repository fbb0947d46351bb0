'use client';

import { type ReactNode, useId } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import styles from './users-admin.module.css';

/** What a change of the reference data said: a success as a status, a failure as an alert. */
export interface Said {
  ok: boolean;
  text: string;
}

/** The outcome line of a section of the Reference data page, above its table, read out when it changes. */
export function SectionOutcome({ said }: { said: Said | null }) {
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

/** A form error's message, where react-hook-form's type allows nested errors a yes/no field never has. */
export const messageOf = (message: unknown): string | undefined => (typeof message === 'string' && message ? message : undefined);

/** A yes/no field: its checkbox inside its label, and the server's refusal of it (path = the field) under it. */
export function CheckField({ field, error, children }: { field: UseFormRegisterReturn; error?: string; children: ReactNode }) {
  const id = `${useId()}-error`;
  return (
    <span>
      <label className={styles.check}>
        <input type="checkbox" {...field} aria-describedby={error ? id : undefined} aria-invalid={error ? true : undefined} /> {children}
      </label>
      {error ? (
        <span className="field-error" id={id} role="alert">
          {error}
        </span>
      ) : null}
    </span>
  );
}
