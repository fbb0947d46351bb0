'use client';

import { type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes, useId } from 'react';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { ApiError } from '@/lib/client/api';
import styles from './form.module.css';

/**
 * Puts the server's field problems (problem+json `errors[].path`) on the form's fields, in the form's own words where
 * `inWords` has some for that problem (the API's messages stay the reference system's), and moves focus to the first
 * of them when it is a single control (a group of checkboxes keeps focus on the button, by the summary); returns the
 * message for the form as a whole, which is all a problem that names no field has. Every form shows that next to its
 * submit button (FormOutcome, an alert), below the fields it points at.
 */
export function showServerErrors<Values extends FieldValues, Out extends FieldValues = Values>(
  form: UseFormReturn<Values, unknown, Out>,
  err: unknown,
  inWords?: (field: string, serverMessage: string) => string,
): string {
  if (!(err instanceof ApiError)) return err instanceof Error ? err.message : String(err);
  const known = new Set(Object.keys(form.getValues()));
  let placed = 0;
  for (const e of err.errors) {
    const field = e.path.split('.')[0] ?? '';
    if (known.has(field)) {
      const message = inWords ? inWords(field, e.message) : e.message;
      form.setError(field as Path<Values>, { type: 'server', message }, { shouldFocus: placed === 0 });
      placed += 1;
    }
  }
  return placed === err.errors.length && placed > 0 ? 'Please correct the fields marked above.' : err.message;
}

/**
 * The ids of a field's control, hint and error: made unique on the page (useId), since two forms of one page may
 * each have a field of the same name (a profile's sharing and its change of owner both ask for a username).
 */
interface FieldIds {
  control: string;
  hint: string;
  error: string;
}

function useFieldIds(name: string): FieldIds {
  const base = `${useId()}${name}`;
  return { control: `${base}-field`, hint: `${base}-hint`, error: `${base}-error` };
}

interface FieldShell<Values extends FieldValues, Out extends FieldValues = Values> {
  form: UseFormReturn<Values, unknown, Out>;
  name: Path<Values>;
  label: ReactNode;
  /** a line under the label saying what to enter */
  hint?: ReactNode;
  /** the form cannot be sent without it: the label says "(required)" and the control is aria-required */
  required?: boolean;
}

/** The words after a required field's label; hidden from screen readers where the control itself says aria-required. */
function RequiredMark({ spoken = false }: { spoken?: boolean }) {
  return (
    <span className={styles.required} aria-hidden={spoken ? undefined : true}>
      {' '}
      (required)
    </span>
  );
}

function Shell<Values extends FieldValues, Out extends FieldValues = Values>({
  form,
  name,
  label,
  hint,
  required,
  ids,
  children,
}: FieldShell<Values, Out> & { ids: FieldIds; children: ReactNode }) {
  const error = form.formState.errors[name]?.message;
  return (
    <div className="field">
      <label htmlFor={ids.control}>
        {/* one grid cell, so the mark stays on the label's line (labels are grids: app/globals.css) */}
        <span>
          {label}
          {required ? <RequiredMark /> : null}
        </span>
      </label>
      {hint ? (
        <span className="muted hint" id={ids.hint}>
          {hint}
        </span>
      ) : null}
      {children}
      {typeof error === 'string' && error ? (
        <span className="field-error" id={ids.error} role="alert">
          {error}
        </span>
      ) : null}
    </div>
  );
}

/** What every control of a field says to assistive technology: which text describes it, and whether it is wrong. */
function described<Values extends FieldValues, Out extends FieldValues = Values>(
  form: UseFormReturn<Values, unknown, Out>,
  name: Path<Values>,
  hint: unknown,
  required: boolean | undefined,
  ids: FieldIds,
) {
  const invalid = Boolean(form.formState.errors[name]);
  const describedBy = [hint ? ids.hint : '', invalid ? ids.error : ''].filter(Boolean).join(' ');
  return {
    id: ids.control,
    'aria-invalid': invalid || undefined,
    'aria-describedby': describedBy || undefined,
    'aria-required': required || undefined,
  };
}

/** A field whose one control is registered with the form by its name: its attributes come from `control`. */
function Registered<Values extends FieldValues, Out extends FieldValues = Values>({
  control,
  ...field
}: FieldShell<Values, Out> & {
  control: (attributes: ReturnType<UseFormReturn<Values>['register']> & ReturnType<typeof described>) => ReactNode;
}) {
  const { form, name, hint, required } = field;
  const ids = useFieldIds(name);
  return (
    <Shell {...field} ids={ids}>
      {control({ ...form.register(name), ...described(form, name, hint, required, ids) })}
    </Shell>
  );
}

export function TextField<Values extends FieldValues, Out extends FieldValues = Values>(
  props: FieldShell<Values, Out> & Omit<InputHTMLAttributes<HTMLInputElement>, 'name' | 'form'>,
) {
  const { form, name, label, hint, required, ...input } = props;
  const field = { form, name, label, hint, required };
  return <Registered {...field} control={(attributes) => <input {...input} {...attributes} />} />;
}

export function TextAreaField<Values extends FieldValues, Out extends FieldValues = Values>(
  props: FieldShell<Values, Out> & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'name' | 'form'>,
) {
  const { form, name, label, hint, required, ...area } = props;
  const field = { form, name, label, hint, required };
  return <Registered {...field} control={(attributes) => <textarea {...area} {...attributes} />} />;
}

/** One choice of a select or a checkbox group: the value sent (the project's, the centre's name) and its label. */
export interface Choice {
  name: string;
  label: string;
}

export function SelectField<Values extends FieldValues, Out extends FieldValues = Values>(
  props: FieldShell<Values, Out> & { options: readonly Choice[] } & Omit<SelectHTMLAttributes<HTMLSelectElement>, 'name' | 'form'>,
) {
  const { form, name, label, hint, required, options, ...select } = props;
  const field = { form, name, label, hint, required };
  return (
    <Registered
      {...field}
      control={(attributes) => (
        <select {...select} {...attributes}>
          {options.map((o) => (
            <option key={o.name} value={o.name}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    />
  );
}

/**
 * Several checkboxes sending one list (`name` holds the ticked values). `fixed` options are shown ticked and cannot
 * be unticked — something else adds them — with a note saying what; they are not part of the form's value.
 */
export function CheckboxGroupField<Values extends FieldValues, Out extends FieldValues = Values>({
  form,
  name,
  label,
  hint,
  required,
  options,
  fixed = [],
}: FieldShell<Values, Out> & {
  options: readonly Choice[];
  fixed?: (Choice & { note: ReactNode })[];
}) {
  const error = form.formState.errors[name]?.message;
  const invalid = typeof error === 'string' && error !== '';
  const ids = useFieldIds(name);
  const describedBy = [hint ? ids.hint : '', invalid ? ids.error : ''].filter(Boolean).join(' ');
  const fixedValues = new Set(fixed.map((f) => f.name));
  return (
    <fieldset className="field" aria-describedby={describedBy || undefined} aria-invalid={invalid || undefined}>
      {/* a group of checkboxes cannot be aria-required, so its legend says it in words a screen reader reads */}
      <legend>
        {label}
        {required ? <RequiredMark spoken /> : null}
      </legend>
      {hint ? (
        <span className="muted hint" id={ids.hint}>
          {hint}
        </span>
      ) : null}
      {fixed.map((f) => (
        <label key={f.name} className={styles.option}>
          <input type="checkbox" checked disabled readOnly aria-describedby={`${ids.control}-${f.name}-note`} />
          <span>
            {f.label}{' '}
            <span className="muted" id={`${ids.control}-${f.name}-note`}>
              {f.note}
            </span>
          </span>
        </label>
      ))}
      {options
        .filter((o) => !fixedValues.has(o.name))
        .map((o) => (
          <label key={o.name} className={styles.option}>
            <input type="checkbox" value={o.name} {...form.register(name)} />
            <span>{o.label}</span>
          </label>
        ))}
      {invalid ? (
        <span className="field-error" id={ids.error} role="alert">
          {error}
        </span>
      ) : null}
    </fieldset>
  );
}

/** The outcome of a form's submit: an error as an alert, a success as a status message. */
export function FormOutcome({ error, success }: { error?: string | null; success?: ReactNode }) {
  if (error) {
    return (
      <p role="alert" className="notice error">
        {error}
      </p>
    );
  }
  if (success) {
    return (
      <p role="status" className="notice success">
        {success}
      </p>
    );
  }
  return null;
}

/** A form's submit button: it cannot be pressed twice while its work runs, and says what is happening meanwhile. */
export function SubmitButton({
  busy,
  busyLabel,
  tone = 'primary',
  children,
}: {
  busy: boolean;
  /** e.g. "Saving…" */
  busyLabel: string;
  tone?: 'primary' | 'danger';
  children: ReactNode;
}) {
  return (
    <button className={tone} type="submit" disabled={busy}>
      {busy ? busyLabel : children}
    </button>
  );
}
