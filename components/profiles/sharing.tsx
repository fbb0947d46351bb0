'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import type { z } from 'zod';
import { DataTable, type TableDefinition } from '@/components/ui/data-table';
import { FormOutcome, SelectField, SubmitButton, showServerErrors, TextField } from '@/components/ui/form';
import { MutationOutcome } from '@/components/ui/mutation-outcome';
import { Section } from '@/components/ui/section';
import { When } from '@/components/ui/when';
import { useZodForm } from '@/components/ui/zod-form';
import { api } from '@/lib/client/api';
import type { ProfileRole, ProfileShare } from '@/lib/profiles/contract';
import { PERSON } from './share-choice';
import type { ShareFormSchema } from './share-form';
import { TransferOwnership } from './transfer-ownership';

/** What each role lets a person do, in the words the sharing form offers them. */
export const ROLE_WORDS = {
  viewer: 'Viewer: sees the profile, its manifests, reports, samples, studies and submissions',
  contributor: 'Contributor: also uploads and confirms manifests, uploads studies and data files, submits studies',
} as const;

const shareRule = () => import('./share-form').then((m) => m.ShareFormSchema);

const grantee = (s: ProfileShare) => (s.group ? `the group ${s.group.name}` : (s.username ?? 'someone'));

/**
 * The Sharing section of a profile's page: who it is shared with and as what; its owner and admins share it with a
 * person or one of their groups, change a role by sharing again, end a share and give the profile away. A person it
 * is shared with may end their own share (leave).
 */
export function Sharing({ profileId, role, me }: { profileId: string; role: ProfileRole; me: string }) {
  const manages = role === 'owner' || role === 'admin';
  const client = useQueryClient();
  const router = useRouter();
  const shares = useQuery({
    queryKey: ['shares', profileId],
    queryFn: () => api.GET('/api/profiles/{profile_id}/shares', { params: { path: { profile_id: profileId } } }),
  });
  const groups = useQuery({ queryKey: ['groups'], queryFn: () => api.GET('/api/groups'), enabled: manages });
  const form = useZodForm(shareRule, { with: PERSON, username: '', role: 'viewer' });
  const [formError, setFormError] = useState<string | null>(null);
  const refresh = () => void client.invalidateQueries({ queryKey: ['shares', profileId] });

  const share = useMutation({
    mutationFn: (v: z.infer<typeof ShareFormSchema>) =>
      api.POST('/api/profiles/{profile_id}/shares', {
        params: { path: { profile_id: profileId } },
        body: v.with === PERSON ? { username: v.username, role: v.role } : { group_id: Number(v.with), role: v.role },
      }),
    onSuccess: () => {
      form.reset({ with: form.getValues('with'), username: '', role: form.getValues('role') });
      refresh();
    },
    onError: (err) => setFormError(showServerErrors(form, err)),
  });
  const unshare = useMutation({
    mutationFn: async (s: ProfileShare) => {
      await api.DELETE('/api/profiles/{profile_id}/shares/{share_id}', { params: { path: { profile_id: profileId, share_id: s.id } } });
      return s;
    },
    onSuccess: (s) => {
      // leaving a profile: it is no longer there to look at
      if (!manages && s.username === me) router.push('/profiles');
      else refresh();
    },
  });

  const table: TableDefinition<ProfileShare> = {
    noun: 'shares',
    rowKey: (s) => String(s.id),
    columns: [
      {
        id: 'with',
        header: 'Shared with',
        key: true,
        cell: (s) =>
          s.group ? (
            <>
              Group <strong>{s.group.name}</strong>{' '}
              <span className="muted">
                ({s.group.members} members, owner {s.group.owner})
              </span>
            </>
          ) : (
            <strong>{s.username}</strong>
          ),
      },
      { id: 'role', header: 'Role', cell: (s) => <span className="badge">{s.role === 'contributor' ? 'Contributor' : 'Viewer'}</span> },
      { id: 'by', header: 'Shared by', cell: (s) => s.shared_by ?? <span className="muted">—</span> },
      { id: 'when', header: 'Since', cell: (s) => <When value={s.date_created} /> },
      {
        id: 'end',
        header: 'End',
        cell: (s) =>
          manages || s.username === me ? (
            <button type="button" className="danger" disabled={unshare.isPending} onClick={() => unshare.mutate(s)}>
              {manages ? 'Stop sharing' : 'Leave'}
              <span className="visually-hidden"> with {grantee(s)}</span>
            </button>
          ) : null,
      },
    ],
  };

  const choices = [
    { name: PERSON, label: 'A person (by username)' },
    ...(groups.data ?? []).map((g) => ({ name: String(g.id), label: `The group ${g.name} (${g.members.length} members)` })),
  ];

  return (
    <Section id="sharing" title="Sharing" anchor>
      <p className="muted">
        {manages
          ? 'Share this profile with the people you work with, or with one of your groups (its members as they come and go). They also receive its emails.'
          : `The profile is shared with you as a ${role}.`}
      </p>
      <MutationOutcome
        mutation={unshare}
        done={(s) => <>Stopped sharing with {grantee(s)}: their access ended now.</>}
        failed={(why, s) => `Still shared with ${grantee(s)}: ${why}`}
      />
      <DataTable
        caption="Who the profile is shared with"
        table={table}
        rows={shares.data}
        query={shares}
        empty={<p>Not shared with anyone.</p>}
      />
      {manages && (
        <>
          <h3 id="share-heading">Share it</h3>
          <form
            aria-labelledby="share-heading"
            noValidate
            onSubmit={form.handleSubmit((v) => {
              setFormError(null);
              share.mutate(v);
            })}
          >
            <SelectField form={form} name="with" label="Share with" options={choices} hint={<a href="/groups">Make or fill a group</a>} />
            {form.watch('with') === PERSON && <TextField form={form} name="username" label="Username" autoComplete="off" />}
            <SelectField
              form={form}
              name="role"
              label="Role"
              options={[
                { name: 'viewer', label: ROLE_WORDS.viewer },
                { name: 'contributor', label: ROLE_WORDS.contributor },
              ]}
            />
            <SubmitButton busy={share.isPending} busyLabel="Sharing…">
              Share
            </SubmitButton>
          </form>
          <FormOutcome
            error={formError}
            success={share.isSuccess ? `Shared with ${grantee(share.data)} as ${share.data.role}.` : undefined}
          />
          <TransferOwnership profileId={profileId} />
        </>
      )}
    </Section>
  );
}
