'use client';

import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { DataTable, type TableDefinition } from '@/components/ui/data-table';
import { FormOutcome, SubmitButton, showServerErrors, TextField } from '@/components/ui/form';
import { MutationOutcome } from '@/components/ui/mutation-outcome';
import { usePagedList } from '@/components/ui/use-paged-list';
import { When } from '@/components/ui/when';
import { useZodForm } from '@/components/ui/zod-form';
import { api, apiPage } from '@/lib/client/api';
import type { ApiKeyInfo, NewApiKey } from '@/lib/users/contract';
import styles from './api-keys-manager.module.css';

const newKeyRule = () => import('@/lib/users/contract').then((c) => c.NewApiKeyBodySchema);
const PAGE = 50;

const keyName = (k: { name: string; prefix: string }) => (k.name ? `“${k.name}” (${k.prefix}…)` : `${k.prefix}…`);

export function ApiKeysManager({ baseUrl }: { baseUrl: string }) {
  const keys = usePagedList({
    key: ['account-keys'],
    limit: PAGE,
    fetch: (offset, limit) => apiPage('/api/account/keys', { offset, limit }),
  });
  const [fresh, setFresh] = useState<NewApiKey | null>(null);
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const [asking, setAsking] = useState<ApiKeyInfo | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useZodForm(newKeyRule, { name: '' });

  const create = useMutation({
    mutationFn: (name: string) => api.POST('/api/account/keys', { body: { name } }),
    onSuccess: (k) => {
      setFresh(k);
      setCopied(null);
      revoke.reset();
      form.reset();
      keys.refresh();
    },
    onError: (err) => setFormError(showServerErrors(form, err)),
  });
  const revoke = useMutation({
    mutationFn: (k: ApiKeyInfo) => api.DELETE('/api/account/keys/{id}', { params: { path: { id: k.id } } }),
    onSuccess: keys.refresh,
    onSettled: () => setAsking(null),
  });

  async function copy(key: string) {
    try {
      await navigator.clipboard.writeText(key);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  }

  const table: TableDefinition<ApiKeyInfo> = {
    noun: 'keys',
    rowKey: (k) => String(k.id),
    columns: [
      { id: 'name', header: 'Name', key: true, cell: (k) => k.name || <span className="muted">(no name)</span> },
      { id: 'prefix', header: 'Key', nowrap: true, cell: (k) => <span className="mono">{k.prefix}…</span> },
      { id: 'created', header: 'Created', cell: (k) => <When value={k.created} /> },
      {
        id: 'last_used',
        header: 'Last used',
        cell: (k) => <When value={k.last_used} none="Never" />,
      },
      {
        id: 'state',
        header: 'State',
        cell: (k) =>
          k.revoked ? <When what="Revoked" value={k.revoked} className="badge danger" /> : <span className="badge ok">Active</span>,
      },
      {
        id: 'actions',
        header: 'Revoke',
        cell: (k) =>
          k.revoked ? null : (
            <button type="button" className="danger" disabled={revoke.isPending} onClick={() => setAsking(k)}>
              Revoke<span className="visually-hidden"> key {keyName(k)}</span>
            </button>
          ),
      },
    ],
  };

  const example = `curl -H "Authorization: token ${fresh?.key ?? '<your key>'}" ${baseUrl}/api/profiles`;

  return (
    <>
      <h2 id="create-key">Create a key</h2>
      <form
        className={styles.create}
        aria-labelledby="create-key"
        noValidate
        onSubmit={form.handleSubmit((body) => {
          setFormError(null);
          create.mutate(body.name);
        })}
      >
        <TextField form={form} name="name" label="Name (what the key is for)" placeholder="e.g. sequencing pipeline" maxLength={100} />
        <div>
          <SubmitButton busy={create.isPending} busyLabel="Creating…">
            Create key
          </SubmitButton>
        </div>
      </form>
      <FormOutcome error={formError} />

      {fresh && (
        <div className="notice success" role="status">
          <p>
            <strong>Created the key {fresh.name ? `“${fresh.name}”` : 'with no name'}.</strong> Copy it now: it is shown this once and
            cannot be read again.
          </p>
          <pre data-testid="new-api-key">{fresh.key}</pre>
          <div className={styles.copy}>
            <button type="button" onClick={() => void copy(fresh.key)}>
              Copy the key
            </button>
            <span aria-live="polite">
              {copied === 'yes' && 'Copied to the clipboard.'}
              {copied === 'failed' && 'This browser did not allow copying: select the key and copy it by hand.'}
            </span>
          </div>
        </div>
      )}

      <h2>Your keys</h2>
      <MutationOutcome
        mutation={revoke}
        done={(k) => <>Revoked the key {keyName(k)}: calls with it are refused from now on.</>}
        failed={(why) => `The key was not revoked: ${why}`}
      />
      <DataTable caption="Your API keys" table={table} {...keys} empty={<p className="muted">You have no API keys yet.</p>} />

      <h2>Calling the API</h2>
      <p>Send the key in the Authorization header, for example to list your profiles:</p>
      <pre>{example}</pre>
      <p className="muted">
        A key can also be obtained without the portal: <code>curl -X POST -d username=… -d password=… {baseUrl}/api/apiKey</code>. Every
        endpoint is described in the <a href="/api/docs">API documentation</a>.
      </p>

      <ConfirmDialog
        open={asking !== null}
        title={asking ? `Revoke the key ${keyName(asking)}?` : 'Revoke the key?'}
        confirmLabel="Revoke key"
        danger
        busy={revoke.isPending}
        onCancel={() => setAsking(null)}
        onConfirm={() => asking && revoke.mutate(asking)}
      >
        <p>Scripts and pipelines using it are refused from then on. A revoked key cannot be used again; create a new one if needed.</p>
      </ConfirmDialog>
    </>
  );
}
