'use client';

import { useMutation } from '@tanstack/react-query';
import { type ReactNode, useId, useState } from 'react';
import type { DefaultValues, FieldValues, UseFormRegisterReturn, UseFormReturn } from 'react-hook-form';
import { showServerErrors } from '@/components/ui/form';
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

/** What an add form needs to say of the row the server made. */
interface Added {
  name: string;
  label: string;
  selectable: boolean;
}

/**
 * An add form's sending: the server's refusals beside their fields (or above the button), the new row said and the
 * form emptied for the next one.
 */
export function useAddForm<Input extends FieldValues, Output extends FieldValues>(
  form: UseFormReturn<Input, unknown, Output>,
  blank: DefaultValues<Input>,
  send: (body: Output) => Promise<Added>,
  onAdded: () => void,
) {
  const [error, setError] = useState<string | null>(null);
  const [added, setAdded] = useState<string | null>(null);
  const add = useMutation({
    mutationFn: send,
    onSuccess: (row) => {
      form.reset(blank);
      setAdded(`Added ${row.name} (${row.label})${row.selectable ? ': ERGA profiles may pick it now.' : '.'}`);
      onAdded();
    },
    onError: (err) => setError(showServerErrors(form, err)),
  });
  const onSubmit = form.handleSubmit((body) => {
    setError(null);
    setAdded(null);
    add.mutate(body);
  });
  return { error, added, busy: add.isPending, onSubmit };
}
