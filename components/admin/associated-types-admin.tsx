'use client';

import { FormOutcome, SubmitButton, TextAreaField, TextField } from '@/components/ui/form';
import type { Said } from '@/components/ui/mutation-outcome';
import { useFormSend } from '@/components/ui/use-form-send';
import { useZodForm } from '@/components/ui/zod-form';
import { api, type Schema } from '@/lib/client/api';
import type { AssociatedTypeJson, AssociatedTypePatchBody } from '@/lib/reference/contract';
import { AcceptancePreview } from './acceptance-preview';
import { Flags, messageOf, useAddForm } from './reference-fields';
import { ASSOCIATED_TYPES_KEY } from './reference-query';
import { type Initial, muted, ReferenceTable, RowEditor, savedReference } from './reference-table';

const FLAGS = {
  approval_required: 'Samples wait for an approval of this type',
  approval_required_on_update: 'A changed re-upload asks for this approval again',
  selectable: 'Offered on ERGA profiles (untick to retire it)',
} as const;
const ACCEPTANCE_HINT = 'Optional. What the email telling an uploader their samples of this type were accepted says.';

const newTypeRule = () => import('@/lib/reference/contract').then((c) => c.NewAssociatedTypeBodySchema);
const typePatchRule = () => import('@/lib/reference/contract').then((c) => c.AssociatedTypePatchBodySchema);

/** The add form: the route's own schema checks it before it is sent. */
function AddAssociatedType({ onAdded }: { onAdded: () => void }) {
  const blank = { name: '', label: '', approval_required: true, approval_required_on_update: true, selectable: true, acceptance_text: '' };
  const form = useZodForm(newTypeRule, blank);
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
      <Flags flags={FLAGS} register={(f) => form.register(f)} errorOf={(f) => messageOf(form.formState.errors[f]?.message)} />
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
  const form = useZodForm(typePatchRule, {
    label: type.label,
    approval_required: type.approval_required,
    approval_required_on_update: type.approval_required_on_update,
    selectable: type.selectable,
    acceptance_text: type.acceptance_text,
  });
  const { error, busy, onSubmit } = useFormSend(
    form,
    (body: AssociatedTypePatchBody) => api.PATCH('/api/admin/associated-types/{name}', { params: { path: { name: type.name } }, body }),
    (saved) => onDone({ ok: true, text: savedReference(saved) }),
  );
  return (
    <RowEditor
      label={`Edit ${type.name}`}
      save={`Save ${type.name}`}
      error={error}
      busy={busy}
      onSubmit={onSubmit}
      onCancel={() => onDone(null)}
    >
      <TextField form={form} name="label" label={`Label of ${type.name}`} required autoComplete="off" />
      <Flags flags={FLAGS} register={(f) => form.register(f)} errorOf={(f) => messageOf(form.formState.errors[f]?.message)} />
      <TextAreaField form={form} name="acceptance_text" label={`Acceptance email text of ${type.name}`} rows={6} hint={ACCEPTANCE_HINT} />
      <AcceptancePreview name={type.name} text={form.watch('acceptance_text') ?? ''} />
    </RowEditor>
  );
}

/** The associated types: the table (an Edit button per row, its form under it) and the add form. */
export function AssociatedTypesAdmin({ initial }: { initial: Initial<AssociatedTypeJson> }) {
  return (
    <ReferenceTable
      queryKey={ASSOCIATED_TYPES_KEY}
      read={() => api.GET('/api/admin/associated-types')}
      caption="Associated project types, whether their samples need approval, and whether they are offered"
      initial={initial}
      noun="associated types"
      columns={[
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
      ]}
      edit={(type, onDone) => <EditAssociatedType type={type} onDone={onDone} />}
      add={(onAdded) => <AddAssociatedType onAdded={onAdded} />}
    />
  );
}
