'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ApiError, apiFetch } from '@/lib/client/api';

interface KeyInfo {
  id: number;
  name: string;
  prefix: string;
  created: string;
  last_used: string | null;
  revoked: string | null;
}

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

export function ApiKeysManager({ baseUrl }: { baseUrl: string }) {
  const qc = useQueryClient();
  const keys = useQuery({ queryKey: ['account-keys'], queryFn: () => apiFetch<KeyInfo[]>('/api/account/keys') });
  const [fresh, setFresh] = useState<{ key: string; name: string } | null>(null);
  const [copied, setCopied] = useState(false);

  const create = useMutation({
    mutationFn: (name: string) =>
      apiFetch<KeyInfo & { key: string }>('/api/account/keys', { method: 'POST', json: { name } }),
    onSuccess: (k) => {
      setFresh({ key: k.key, name: k.name });
      setCopied(false);
      void qc.invalidateQueries({ queryKey: ['account-keys'] });
    },
  });
  const revoke = useMutation({
    mutationFn: (id: number) => apiFetch<KeyInfo>(`/api/account/keys/${id}`, { method: 'DELETE' }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['account-keys'] }),
  });

  function onCreate(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    create.mutate(String(new FormData(form).get('name') ?? ''), { onSuccess: () => form.reset() });
  }

  const example = `curl -H "Authorization: token ${fresh?.key ?? '<your key>'}" ${baseUrl}/api/profiles`;
  const nameError = create.error instanceof ApiError ? create.error.forField('name') ?? create.error.message : null;

  return (
    <>
      <form className="inline" onSubmit={onCreate} aria-label="Create an API key">
        <label>
          Name (what the key is for)
          <input name="name" maxLength={100} placeholder="e.g. sequencing pipeline" />
        </label>
        <button className="primary" type="submit" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create key'}
        </button>
      </form>
      {nameError && (
        <p role="alert" className="field-error">
          {nameError}
        </p>
      )}

      {fresh && (
        <div className="notice success" role="status">
          <p>
            <strong>New key{fresh.name ? ` “${fresh.name}”` : ''}.</strong> Copy it now: it will not be shown again.
          </p>
          <pre data-testid="new-api-key">{fresh.key}</pre>
          <button
            type="button"
            onClick={() => void navigator.clipboard?.writeText(fresh.key).then(() => setCopied(true))}
          >
            {copied ? 'Copied' : 'Copy key'}
          </button>
        </div>
      )}

      <h2>Calling the API</h2>
      <p>Send the key in the Authorization header, for example to list your profiles:</p>
      <pre>{example}</pre>
      <p className="muted">
        A key can also be obtained without the portal: <code>curl -X POST -d username=… -d password=… {baseUrl}/api/apiKey</code>.
        Every endpoint is described in the <a href="/api/docs">API documentation</a>.
      </p>

      <h2>Your keys</h2>
      {keys.isPending && <p aria-busy="true">Loading keys…</p>}
      {keys.isError && (
        <p role="alert" className="notice error">
          Could not load your keys: {keys.error.message}
        </p>
      )}
      {keys.data && keys.data.length === 0 && <p className="muted">You have no API keys yet.</p>}
      {keys.data && keys.data.length > 0 && (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Your API keys</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Key</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">State</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.data.map((k) => (
                <tr key={k.id}>
                  <td>{k.name || <span className="muted">(no name)</span>}</td>
                  <td className="mono">{k.prefix}…</td>
                  <td>{when(k.created)}</td>
                  <td>{when(k.last_used)}</td>
                  <td>
                    {k.revoked ? (
                      <span className="badge danger">revoked {when(k.revoked)}</span>
                    ) : (
                      <span className="badge ok">active</span>
                    )}
                  </td>
                  <td>
                    {!k.revoked && (
                      <button
                        type="button"
                        className="danger"
                        disabled={revoke.isPending}
                        onClick={() => {
                          if (window.confirm(`Revoke key ${k.prefix}…? Scripts using it will stop working.`)) revoke.mutate(k.id);
                        }}
                      >
                        Revoke<span className="visually-hidden"> key {k.prefix}</span>
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
