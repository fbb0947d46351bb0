'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { ApiError, apiFetch } from '@/lib/client/api';
import type { ProfileFormOptions, ProfileJson } from './types';

interface Props {
  options: ProfileFormOptions;
  /** present when editing: the type is then shown but fixed */
  profile?: ProfileJson;
}

export function ProfileForm({ options, profile }: Props) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const usable = options.types.filter((t) => t.allowed);
  const [type, setType] = useState(profile?.type ?? usable[0]?.type ?? '');
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const info = options.types.find((t) => t.type === type);

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const d = new FormData(e.currentTarget);
    const body = {
      title: String(d.get('title') ?? '').trim(),
      description: String(d.get('description') ?? '').trim(),
      type,
      ...(info?.choosesAssociatedTypes && { associated_type: d.getAll('associated_type').map(String) }),
      ...(info?.choosesSequencingCentres && { sequencing_centre: d.getAll('sequencing_centre').map(String) }),
    };
    if (!body.title) {
      setError(new ApiError(400, 'A title is required.', [{ path: 'title', message: 'A title is required.' }]));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const saved = profile
        ? await apiFetch<ProfileJson>(`/api/profiles/${profile.id}`, { method: 'PUT', json: body })
        : await apiFetch<ProfileJson>('/api/profiles', { method: 'POST', json: body });
      await queryClient.invalidateQueries({ queryKey: ['profiles'] });
      router.push(`/profiles/${saved.id}`);
      router.refresh();
    } catch (err) {
      setError(err instanceof ApiError ? err : new ApiError(0, String(err)));
      setBusy(false);
    }
  }

  const fieldError = (path: string) => error?.forField(path);
  const otherError = error && !['title', 'description', 'type', 'associated_type', 'sequencing_centre'].some((p) => error.forField(p));

  if (!profile && usable.length === 0) {
    return <p className="notice">You may not create profiles of any type yet; ask an admin for a project membership.</p>;
  }

  return (
    <form className="stack" onSubmit={onSubmit} aria-label={profile ? 'Edit profile' : 'Create profile'} noValidate>
      <label>
        Title
        <input name="title" defaultValue={profile?.title} required maxLength={255} aria-invalid={!!fieldError('title')} />
        {fieldError('title') && <span className="field-error">{fieldError('title')}</span>}
      </label>
      <label>
        Description
        <textarea name="description" rows={3} defaultValue={profile?.description} maxLength={10000} />
        {fieldError('description') && <span className="field-error">{fieldError('description')}</span>}
      </label>
      {profile ? (
        <p>
          Type: <strong>{options.types.find((t) => t.type === profile.type)?.label ?? profile.type}</strong>{' '}
          <span className="muted">(fixed when the profile was created)</span>
        </p>
      ) : (
        <label>
          Type
          <select name="type" value={type} onChange={(e) => setType(e.target.value)}>
            {usable.map((t) => (
              <option key={t.type} value={t.type}>
                {t.label}
              </option>
            ))}
          </select>
          {fieldError('type') && <span className="field-error">{fieldError('type')}</span>}
        </label>
      )}
      {info?.choosesAssociatedTypes && (
        <fieldset>
          <legend>Associated projects</legend>
          {options.associatedTypes.map((a) => (
            <label key={a.name} className="inline">
              <input
                type="checkbox"
                name="associated_type"
                value={a.name}
                defaultChecked={profile?.associated_type.includes(a.name)}
              />
              {a.label}
            </label>
          ))}
          {fieldError('associated_type') && <span className="field-error">{fieldError('associated_type')}</span>}
        </fieldset>
      )}
      {info?.choosesSequencingCentres && (
        <label>
          Sequencing centres
          <select
            name="sequencing_centre"
            multiple
            size={6}
            defaultValue={profile?.sequencing_centre ?? []}
            aria-describedby="centre-help"
          >
            {options.sequencingCentres.map((c) => (
              <option key={c.name} value={c.name}>
                {c.label}
              </option>
            ))}
          </select>
          <span id="centre-help" className="muted">
            Hold Ctrl (⌘ on a Mac) to choose several.
          </span>
          {fieldError('sequencing_centre') && <span className="field-error">{fieldError('sequencing_centre')}</span>}
        </label>
      )}
      {otherError && (
        <p role="alert" className="field-error">
          {error.message}
        </p>
      )}
      <button className="primary" type="submit" disabled={busy}>
        {busy ? 'Saving…' : profile ? 'Save changes' : 'Create profile'}
      </button>
    </form>
  );
}
