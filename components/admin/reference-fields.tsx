'use client';

import { type BaseSyntheticEvent, type ReactNode, useId, useState } from 'react';
import type { DefaultValues, FieldValues, UseFormRegisterReturn, UseFormReturn } from 'react-hook-form';
import { useFormSend } from '@/components/ui/use-form-send';
import styles from './users-admin.module.css';

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
  const [added, setAdded] = useState<string | null>(null);
  const { error, busy, onSubmit } = useFormSend(form, send, (row) => {
    form.reset(blank);
    setAdded(`Added ${row.name} (${row.label})${row.selectable ? ': ERGA profiles may pick it now.' : '.'}`);
    onAdded();
  });
  const submit = (e?: BaseSyntheticEvent) => {
    setAdded(null);
    return onSubmit(e);
  };
  return { error, added, busy, onSubmit: submit };
}

/** The yes/no fields of a kind of reference data, each a checkbox with its own label and the server's refusal of it. */
export function Flags<Flag extends string>({
  flags,
  register,
  errorOf,
}: {
  flags: Record<Flag, string>;
  register: (flag: Flag) => UseFormRegisterReturn;
  errorOf: (flag: Flag) => string | undefined;
}) {
  return (
    <fieldset className="choices">
      <legend>Approval and use</legend>
      {(Object.keys(flags) as Flag[]).map((flag) => (
        <CheckField key={flag} field={register(flag)} error={errorOf(flag)}>
          {flags[flag]}
        </CheckField>
      ))}
    </fieldset>
  );
}
