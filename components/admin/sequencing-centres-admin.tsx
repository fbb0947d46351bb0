'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { z } from 'zod';
import { DataTable, type TableDefinition } from '@/components/ui/data-table';
import { FormOutcome, SubmitButton, showServerErrors, TextAreaField, TextField, useZodForm } from '@/components/ui/form';
import { api, type Schema } from '@/lib/client/api';
import {
  type CentreContact,
  CentreContactSchema,
  NewSequencingCentreBodySchema,
  type SequencingCentreJson,
} from '@/lib/reference/contract';
import { CheckField, messageOf, type Said, SectionOutcome, useAddForm } from './reference-fields';
import styles from './users-admin.module.css';

const CENTRES_KEY = ['admin-sequencing-centres'];

const CONTACTS_HINT =
  'Optional. One a line: name; email; role (the role may be left out), e.g. Jane Doe; jane@example.org; sample manager.';
const APPROVAL = 'Needs approval: picking it adds the associated type of the same name, whose approvers approve its samples';
const OFFERED = 'Offered on ERGA profiles (untick to retire it)';

const contactsText = (contacts: readonly CentreContact[]) =>
  contacts.map((c) => [c.name, c.email, c.role].filter(Boolean).join('; ')).join('\n');

/** The contacts' lines as the API's list, checked by the API's own rules; a refusal names its line. */
const ContactsText = z.string().transform((text, ctx) => {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((line) => {
      const [name = '', email = '', ...role] = line.split(';').map((p) => p.trim());
      return { name, email, role: role.join('; ') };
    });
  const checked = z.array(CentreContactSchema).max(50, 'at most 50 contacts').safeParse(lines);
  if (checked.success) return checked.data;
  const issue = checked.error.issues[0];
  const line = typeof issue?.path[0] === 'number' ? `Line ${issue.path[0] + 1}: ` : '';
  ctx.addIssue({ code: 'custom', message: `${line}${issue?.message ?? 'not a list of contacts'}` });
  return z.NEVER;
});

const AddCentreSchema = NewSequencingCentreBodySchema.omit({ contacts: true }).extend({ contacts: ContactsText });
const EditCentreSchema = NewSequencingCentreBodySchema.pick({ label: true, approval_required: true, selectable: true }).extend({
  contacts: ContactsText,
});

function AddSequencingCentre({ onAdded }: { onAdded: () => void }) {
  const blank = { name: '', label: '', approval_required: false, selectable: true, contacts: '' };
  const form = useZodForm(AddCentreSchema, blank);
  const { error, added, busy, onSubmit } = useAddForm(
    form,
    blank,
    (body: z.output<typeof AddCentreSchema>) => api.POST('/api/admin/sequencing-centres', { body }),
    onAdded,
  );
  return (
    <form className="stack" aria-labelledby="add-sequencing-centre" noValidate onSubmit={onSubmit}>
      <h3 id="add-sequencing-centre">Add a sequencing centre</h3>
      <TextField
        form={form}
        name="name"
        label="Short name"
        required
        autoComplete="off"
        hint="Capital letters, digits and _, e.g. EI. It never changes."
      />
      <TextField
        form={form}
        name="label"
        label="Label"
        required
        autoComplete="off"
        hint="As samples name it in GAL, e.g. EARLHAM INSTITUTE."
      />
      <CheckField field={form.register('approval_required')} error={messageOf(form.formState.errors.approval_required?.message)}>
        {APPROVAL}
      </CheckField>
      <CheckField field={form.register('selectable')} error={messageOf(form.formState.errors.selectable?.message)}>
        {OFFERED}
      </CheckField>
      <TextAreaField form={form} name="contacts" label="Contacts" rows={3} hint={CONTACTS_HINT} />
      <FormOutcome error={error} success={added} />
      <div>
        <SubmitButton busy={busy} busyLabel="Adding…">
          Add sequencing centre
        </SubmitButton>
      </div>
    </form>
  );
}

function EditSequencingCentre({ centre, onDone }: { centre: SequencingCentreJson; onDone: (said: Said | null) => void }) {
  const form = useZodForm(EditCentreSchema, {
    label: centre.label,
    approval_required: centre.approval_required,
    selectable: centre.selectable,
    contacts: contactsText(centre.contacts),
  });
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (body: Schema<'SequencingCentrePatch'>) =>
      api.PATCH('/api/admin/sequencing-centres/{name}', { params: { path: { name: centre.name } }, body }),
    onSuccess: (c) =>
      onDone({ ok: true, text: `Saved ${c.name}: ${c.selectable ? 'offered on ERGA profiles' : 'retired, no longer offered'}.` }),
    onError: (err) => setError(showServerErrors(form, err)),
  });
  return (
    <form
      className={styles.editor}
      aria-label={`Edit ${centre.name}`}
      noValidate
      onSubmit={form.handleSubmit((body) => {
        setError(null);
        save.mutate(body);
      })}
    >
      <TextField form={form} name="label" label={`Label of ${centre.name}`} required autoComplete="off" />
      <CheckField field={form.register('approval_required')} error={messageOf(form.formState.errors.approval_required?.message)}>
        {APPROVAL}
      </CheckField>
      <CheckField field={form.register('selectable')} error={messageOf(form.formState.errors.selectable?.message)}>
        {OFFERED}
      </CheckField>
      <TextAreaField form={form} name="contacts" label={`Contacts of ${centre.name}`} rows={3} hint={CONTACTS_HINT} />
      <FormOutcome error={error} />
      <div className={styles.actions}>
        <SubmitButton busy={save.isPending} busyLabel="Saving…">
          Save {centre.name}
        </SubmitButton>
        <button type="button" onClick={() => onDone(null)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

const muted = (text: string) => <span className="muted">{text}</span>;

/** The sequencing centres: the table (an Edit button per row, its form under it) and the add form. */
export function SequencingCentresAdmin() {
  const queryClient = useQueryClient();
  const centres = useQuery({ queryKey: CENTRES_KEY, queryFn: () => api.GET('/api/admin/sequencing-centres') });
  const [editing, setEditing] = useState<string | null>(null);
  const [said, setSaid] = useState<Said | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: CENTRES_KEY });
  const table: TableDefinition<SequencingCentreJson> = {
    noun: 'sequencing centres',
    rowKey: (c) => c.name,
    columns: [
      { id: 'name', header: 'Short name', key: true, nowrap: true, cell: (c) => <span className="mono">{c.name}</span> },
      { id: 'label', header: 'Label', cell: (c) => c.label },
      { id: 'approval', header: 'Approval', cell: (c) => (c.approval_required ? 'Needed' : muted('None')) },
      { id: 'selectable', header: 'Offered', cell: (c) => (c.selectable ? 'Yes' : muted('Retired')) },
      {
        id: 'contacts',
        header: 'Contacts',
        cell: (c) =>
          c.contacts.length
            ? c.contacts.map((p) => <div key={`${p.email} ${p.name}`}>{[p.name, p.email, p.role].filter(Boolean).join(', ')}</div>)
            : muted('None'),
      },
      {
        id: 'actions',
        header: 'Actions',
        cell: (c) => (
          <button type="button" aria-label={`Edit ${c.name}`} aria-expanded={editing === c.name} onClick={() => setEditing(c.name)}>
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
        caption="Sequencing centres, whether they need approval, whether they are offered, and their contacts"
        table={table}
        rows={centres.data}
        query={centres}
        detail={(c) =>
          editing === c.name ? (
            <EditSequencingCentre
              centre={c}
              onDone={(s) => {
                setEditing(null);
                if (s) {
                  setSaid(s);
                  refresh();
                }
              }}
            />
          ) : null
        }
      />
      <AddSequencingCentre onAdded={refresh} />
    </>
  );
}
