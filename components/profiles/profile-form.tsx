'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import {
  CheckboxGroupField,
  FormOutcome,
  SelectField,
  SubmitButton,
  showServerErrors,
  TextAreaField,
  TextField,
} from '@/components/ui/form';
import { useZodForm } from '@/components/ui/zod-form';
import { api } from '@/lib/client/api';
import type { Profile, ProfileInput, ProfileOptions, ProfileTypeOption } from '@/lib/profiles/contract';

interface Props {
  options: { types: ProfileTypeOption[]; choices: ProfileOptions };
  /** present when editing: the type is then shown but fixed */
  profile?: Profile;
  /** the type a new profile starts with when the link that opened the form asked for one (e.g. ?type=biodata) */
  initialType?: string;
}

const profileRule = () => import('./profile-form-schema').then((m) => m.ProfileFormSchema);

// the API's messages are the reference system's ("Missing required field: … associated_type"); beside the field the
// form says what to do instead
const missing: Record<string, string> = {
  title: 'A title is required.',
  type: 'Choose a type.',
  associated_type: 'Choose at least one associated project.',
  sequencing_centre: 'Choose at least one sequencing centre.',
};
const inWords = (field: string, serverMessage: string) =>
  serverMessage.startsWith('Missing required field') ? (missing[field] ?? serverMessage) : serverMessage;

export function ProfileForm({ options, profile, initialType }: Props) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const usable = options.types.filter((t) => t.allowed);
  // a retired type or centre (not selectable) is offered only to a profile that has it already, which may keep it
  const offered = <T extends { name: string; selectable: boolean }>(list: T[], had: readonly string[] = []) =>
    list.filter((x) => x.selectable || had.includes(x.name));
  const centres = offered(options.choices.sequencing_centres, profile?.sequencing_centre);
  // a centre that needs its own approval brings the associated project of its name; the form shows it as added
  const addedBy = (picked: readonly string[]) => centres.filter((c) => c.approval_required && picked.includes(c.name));
  const form = useZodForm(profileRule, {
    title: profile?.title ?? '',
    description: profile?.description ?? '',
    type: profile?.type ?? usable.find((t) => t.type === initialType)?.type ?? usable[0]?.type ?? '',
    associated_type: (profile?.associated_type ?? []).filter((a) => !addedBy(profile?.sequencing_centre ?? []).some((c) => c.name === a)),
    sequencing_centre: profile?.sequencing_centre ?? [],
    ena_locus_tags: (profile?.ena_locus_tags ?? []).join(', '),
  });
  const [outcome, setOutcome] = useState<{ error?: string; success?: string }>({});
  const type = form.watch('type');
  const pickedCentres = form.watch('sequencing_centre');
  const info = options.types.find((t) => t.type === type);
  const added = addedBy(Array.isArray(pickedCentres) ? pickedCentres : []);
  const associated = options.choices.associated_types;
  const labelOf = (name: string) => associated.find((a) => a.name === name)?.label ?? name;

  const onSubmit = form.handleSubmit(async (v) => {
    setOutcome({});
    const body = {
      title: v.title,
      description: v.description,
      type: v.type,
      ...(info?.choose_associated_type && { associated_type: v.associated_type }),
      ...(info?.choose_sequencing_centre && { sequencing_centre: v.sequencing_centre }),
      ena_locus_tags: v.ena_locus_tags,
    } satisfies ProfileInput;
    try {
      const saved = profile
        ? await api.PUT('/api/profiles/{profile_id}', { params: { path: { profile_id: profile.id } }, body })
        : await api.POST('/api/profiles', { body });
      setOutcome({ success: profile ? 'Profile saved. Opening it…' : 'Profile created. Opening it…' });
      await queryClient.invalidateQueries({ queryKey: ['profiles'] });
      router.push(`/profiles/${saved.id}`);
      router.refresh();
    } catch (err) {
      setOutcome({ error: showServerErrors(form, err, inWords) });
    }
  });

  if (!profile && usable.length === 0) {
    return <p className="notice">You may not create profiles of any type yet; ask an admin for a project membership.</p>;
  }
  const busy = form.formState.isSubmitting;

  return (
    <form className="stack" onSubmit={onSubmit} aria-label={profile ? 'Edit profile' : 'Create profile'} noValidate>
      <TextField form={form} name="title" label="Title" required maxLength={255} hint="Unique among your profiles." />
      <TextAreaField form={form} name="description" label="Description" rows={3} maxLength={10_000} />
      {profile ? (
        <p>
          Type: <strong>{options.types.find((t) => t.type === profile.type)?.label ?? profile.type}</strong>{' '}
          <span className="muted">(fixed when the profile was created)</span>
        </p>
      ) : (
        <SelectField
          form={form}
          name="type"
          label="Type"
          required
          hint="Tree of Life types hold manifests and samples; biodata holds single-cell and imaging studies. It cannot be changed later."
          options={usable.map((t) => ({ name: t.type, label: t.label }))}
        />
      )}
      {info?.choose_sequencing_centre && (
        <>
          <CheckboxGroupField
            form={form}
            name="sequencing_centre"
            label="Sequencing centres"
            required
            hint="Tick every centre that sequences samples of this profile."
            options={centres}
          />
          {added.length > 0 && (
            <p role="status" className="notice warning">
              {added.map((c) => (
                <span key={c.name}>
                  Choosing {c.label} adds the associated project “{labelOf(c.name)}”: the samples of this profile then also wait for the
                  approval of that centre’s sample managers before they are registered.{' '}
                </span>
              ))}
            </p>
          )}
        </>
      )}
      {info?.choose_associated_type && (
        <CheckboxGroupField
          form={form}
          name="associated_type"
          label="Associated projects"
          required
          hint="At least one. Each project whose approval is needed must approve a sample before it is registered at ENA."
          options={offered(associated, profile?.associated_type)}
          fixed={added.map((c) => ({
            name: c.name,
            label: labelOf(c.name),
            note: `(added because ${c.label} is a sequencing centre of this profile)`,
          }))}
        />
      )}
      <TextField
        form={form}
        name="ena_locus_tags"
        label="ENA locus-tag prefixes"
        maxLength={500}
        hint="Optional. For annotated genomes: the prefixes ENA registers on your studies’ projects, comma separated (3 to 12 letters and digits, starting with a letter, e.g. BN123)."
      />
      <FormOutcome error={outcome.error} success={outcome.success} />
      <SubmitButton busy={busy} busyLabel="Saving…">
        {profile ? 'Save changes' : 'Create profile'}
      </SubmitButton>
    </form>
  );
}
