'use client';

import type { z } from 'zod';
import { FormOutcome, SubmitButton, TextAreaField, TextField } from '@/components/ui/form';
import type { Said } from '@/components/ui/mutation-outcome';
import { useFormSend } from '@/components/ui/use-form-send';
import { useZodForm } from '@/components/ui/zod-form';
import { api, type Schema } from '@/lib/client/api';
import type { CentreContact, SequencingCentreJson } from '@/lib/reference/contract';
import { Flags, messageOf, useAddForm } from './reference-fields';
import { type Initial, muted, ReferenceTable, RowEditor, savedReference } from './reference-table';
import type { AddCentreSchema } from './sequencing-centre-forms';

const CENTRES_KEY = ['admin-sequencing-centres'];

const CONTACTS_HINT =
  'Optional. One a line: name; email; role (the role may be left out), e.g. Jane Doe; jane@example.org; sample manager.';
const FLAGS = {
  approval_required: 'Needs approval: picking it adds the associated type of the same name, whose approvers approve its samples',
  selectable: 'Offered on ERGA profiles (untick to retire it)',
} as const;

const contactsText = (contacts: readonly CentreContact[]) =>
  contacts.map((c) => [c.name, c.email, c.role].filter(Boolean).join('; ')).join('\n');

const addCentreRule = () => import('./sequencing-centre-forms').then((m) => m.AddCentreSchema);
const editCentreRule = () => import('./sequencing-centre-forms').then((m) => m.EditCentreSchema);

function AddSequencingCentre({ onAdded }: { onAdded: () => void }) {
  const blank = { name: '', label: '', approval_required: false, selectable: true, contacts: '' };
  const form = useZodForm(addCentreRule, blank);
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
      <Flags flags={FLAGS} register={(f) => form.register(f)} errorOf={(f) => messageOf(form.formState.errors[f]?.message)} />
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
  const form = useZodForm(editCentreRule, {
    label: centre.label,
    approval_required: centre.approval_required,
    selectable: centre.selectable,
    contacts: contactsText(centre.contacts),
  });
  const { error, busy, onSubmit } = useFormSend(
    form,
    (body: Schema<'SequencingCentrePatch'>) =>
      api.PATCH('/api/admin/sequencing-centres/{name}', { params: { path: { name: centre.name } }, body }),
    (saved) => onDone({ ok: true, text: savedReference(saved) }),
  );
  return (
    <RowEditor
      label={`Edit ${centre.name}`}
      save={`Save ${centre.name}`}
      error={error}
      busy={busy}
      onSubmit={onSubmit}
      onCancel={() => onDone(null)}
    >
      <TextField form={form} name="label" label={`Label of ${centre.name}`} required autoComplete="off" />
      <Flags flags={FLAGS} register={(f) => form.register(f)} errorOf={(f) => messageOf(form.formState.errors[f]?.message)} />
      <TextAreaField form={form} name="contacts" label={`Contacts of ${centre.name}`} rows={3} hint={CONTACTS_HINT} />
    </RowEditor>
  );
}

/** The sequencing centres: the table (an Edit button per row, its form under it) and the add form. */
export function SequencingCentresAdmin({ initial }: { initial: Initial<SequencingCentreJson> }) {
  return (
    <ReferenceTable
      queryKey={CENTRES_KEY}
      read={() => api.GET('/api/admin/sequencing-centres')}
      caption="Sequencing centres, whether they need approval, whether they are offered, and their contacts"
      initial={initial}
      noun="sequencing centres"
      columns={[
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
      ]}
      edit={(centre, onDone) => <EditSequencingCentre centre={centre} onDone={onDone} />}
      add={(onAdded) => <AddSequencingCentre onAdded={onAdded} />}
    />
  );
}
