'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { DataTable, type TableDefinition } from '@/components/ui/data-table';
import { FormOutcome, SubmitButton, showServerErrors, TextAreaField, TextField, useZodForm } from '@/components/ui/form';
import { api, type Schema } from '@/lib/client/api';
import {
  type AssociatedTypeJson,
  type AssociatedTypePatchBody,
  AssociatedTypePatchBodySchema,
  NewAssociatedTypeBodySchema,
} from '@/lib/reference/contract';
import { AcceptancePreview } from './acceptance-preview';
import { CheckField, messageOf, type Said, SectionOutcome, useAddForm } from './reference-fields';
import styles from './users-admin.module.css';

/** The key every list of the associated types is cached under (the Users page's approver choices read it too). */
export const ASSOCIATED_TYPES_KEY = ['admin-associated-types'];

const FLAGS = {
  approval_required: 'Samples wait for an approval of this type',
  approval_required_on_update: 'A changed re-upload asks for this approval again',
  selectable: 'Offered on ERGA profiles (untick to retire it)',
} as const;
type Flag = keyof typeof FLAGS;

/** The three yes/no fields, each a checkbox with its own label and the server's refusal of it. */
function Flags({ register, errorOf }: { register: (flag: Flag) => UseFormRegisterReturn; errorOf: (flag: Flag) => string | undefined }) {
  return (
    <fieldset className={styles.projects}>
      <legend>Approval and use</legend>
      {(Object.keys(FLAGS) as Flag[]).map((flag) => (
        <CheckField key={flag} field={register(flag)} error={errorOf(flag)}>
          {FLAGS[flag]}
        </CheckField>
      ))}
    </fieldset>
  );
}

const ACCEPTANCE_HINT = 'Optional. What the email telling an uploader their samples of this type were accepted says.';

/** The add form: the route's own schema checks it before it is sent. */
function AddAssociatedType({ onAdded }: { onAdded: () => void }) {
  const blank = { name: '', label: '', approval_required: true, approval_required_on_update: true, selectable: true, acceptance_text: '' };
  const form = useZodForm(NewAssociatedTypeBodySchema, blank);
  const { error, added, busy, onSubmit } = useAddForm(
    form,
    blank,
    (body: Schema<'NewAssociatedType'>) => api.POST('/api/admin/associated-types', { body }),
    onAdded,
  );
  return (
    <form className="stack" aria-labelledby="add-associated-type" noValidate onSubmit={onSubmit}>
      <h3 id="add-associated-type">Add an associated type</h3>
      <TextField
        form={form}
        name="name"
        label="Name"
        required
        autoComplete="off"
        hint="Capital letters, digits and _, e.g. BGE. It never changes."
      />
      <TextField form={form} name="label" label="Label" required autoComplete="off" />
      <Flags register={(f) => form.register(f)} errorOf={(f) => messageOf(form.formState.errors[f]?.message)} />
      <TextAreaField form={form} name="acceptance_text" label="Acceptance email text" rows={4} hint={ACCEPTANCE_HINT} />
      <FormOutcome error={error} success={added} />
      <div>
        <SubmitButton busy={busy} busyLabel="Adding…">
          Add associated type
        </SubmitButton>
      </div>
    </form>
  );
}

/** The edit form under a type's row: every field but the name. */
function EditAssociatedType({ type, onDone }: { type: AssociatedTypeJson; onDone: (said: Said | null) => void }) {
  const form = useZodForm(AssociatedTypePatchBodySchema, {
    label: type.label,
    approval_required: type.approval_required,
    approval_required_on_update: type.approval_required_on_update,
    selectable: type.selectable,
    acceptance_text: type.acceptance_text,
  });
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (body: AssociatedTypePatchBody) =>
      api.PATCH('/api/admin/associated-types/{name}', { params: { path: { name: type.name } }, body }),
    onSuccess: (t) =>
      onDone({ ok: true, text: `Saved ${t.name}: ${t.selectable ? 'offered on ERGA profiles' : 'retired, no longer offered'}.` }),
    onError: (err) => setError(showServerErrors(form, err)),
  });
  return (
    <form
      className={styles.editor}
      aria-label={`Edit ${type.name}`}
      noValidate
      onSubmit={form.handleSubmit((body) => {
        setError(null);
        save.mutate(body);
      })}
    >
      <TextField form={form} name="label" label={`Label of ${type.name}`} required autoComplete="off" />
      <Flags register={(f) => form.register(f)} errorOf={(f) => messageOf(form.formState.errors[f]?.message)} />
      <TextAreaField form={form} name="acceptance_text" label={`Acceptance email text of ${type.name}`} rows={6} hint={ACCEPTANCE_HINT} />
      <AcceptancePreview name={type.name} text={form.watch('acceptance_text') ?? ''} />
      <FormOutcome error={error} />
      <div className={styles.actions}>
        <SubmitButton busy={save.isPending} busyLabel="Saving…">
          Save {type.name}
        </SubmitButton>
        <button type="button" onClick={() => onDone(null)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

const muted = (text: string) => <span className="muted">{text}</span>;

/** The associated types: the table (an Edit button per row, its form under it) and the add form. */
export function AssociatedTypesAdmin() {
  const queryClient = useQueryClient();
  const types = useQuery({ queryKey: ASSOCIATED_TYPES_KEY, queryFn: () => api.GET('/api/admin/associated-types') });
  const [editing, setEditing] = useState<string | null>(null);
  const [said, setSaid] = useState<Said | null>(null);
  const changed = (s: Said) => {
    setSaid(s);
    void queryClient.invalidateQueries({ queryKey: ASSOCIATED_TYPES_KEY });
  };
  const table: TableDefinition<AssociatedTypeJson> = {
    noun: 'associated types',
    rowKey: (t) => t.name,
    columns: [
      { id: 'name', header: 'Name', key: true, nowrap: true, cell: (t) => <span className="mono">{t.name}</span> },
      { id: 'label', header: 'Label', cell: (t) => t.label },
      {
        id: 'approval',
        header: 'Approval',
        cell: (t) =>
          t.approval_required ? (t.approval_required_on_update ? 'Needed, again on update' : 'Needed, kept on update') : muted('None'),
      },
      { id: 'selectable', header: 'Offered', cell: (t) => (t.selectable ? 'Yes' : muted('Retired')) },
      { id: 'acceptance', header: 'Acceptance text', cell: (t) => (t.acceptance_text ? 'Set' : muted('None')) },
      {
        id: 'actions',
        header: 'Actions',
        cell: (t) => (
          <button type="button" aria-label={`Edit ${t.name}`} aria-expanded={editing === t.name} onClick={() => setEditing(t.name)}>
            Edit
          </button>
        ),
      },
    ],
  };
  return (
    <>
      <SectionOutcome said={said} />
      <DataTable
        caption="Associated project types, whether their samples need approval, and whether they are offered"
        table={table}
        rows={types.data}
        query={types}
        detail={(t) =>
          editing === t.name ? (
            <EditAssociatedType
              type={t}
              onDone={(s) => {
                setEditing(null);
                if (s) changed(s);
              }}
            />
          ) : null
        }
      />
      <AddAssociatedType onAdded={() => void queryClient.invalidateQueries({ queryKey: ASSOCIATED_TYPES_KEY })} />
    </>
  );
}
