'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { accessionLink } from '@/components/submissions/links';
import { apiFetch } from '@/lib/client/api';

interface Props {
  href: string;
  studyId: string;
  repository: 'ena' | 'zenodo';
  label: string;
  status: string;
  accession: string;
  state: string;
}

/** Submit and publish buttons of one study at one repository, with the repository's answer next to them. */
export function RepositoryActions({ href, studyId, repository, label, status, accession, state }: Props) {
  const qc = useQueryClient();
  const act = useMutation({
    mutationFn: (action: 'submit' | 'publish') =>
      apiFetch<{ message: string; doi?: string }>(`${href}/action/${action}?repository=${repository}`, { method: 'POST' }),
    onSettled: () => void qc.invalidateQueries({ queryKey: ['studies'] }),
  });
  const link = accession ? accessionLink(accession) : null;
  const canSubmit = status === 'pending' || status === 'rejected';
  const canPublish = status === 'accepted' && !(repository === 'ena' && state === 'PUBLIC');
  return (
    <div>
      {accession && (
        <span className="mono">{link ? <a href={link}>{accession}</a> : accession} </span>
      )}
      {repository === 'ena' && state && <span className="muted">({state.toLowerCase()}) </span>}
      <span className="inline" style={{ gap: '0.25rem', marginTop: '0.25rem' }}>
        {canSubmit && (
          <button type="button" disabled={act.isPending} onClick={() => act.mutate('submit')}>
            Submit<span className="visually-hidden"> {studyId}</span> to {label}
          </button>
        )}
        {canPublish && (
          <button type="button" disabled={act.isPending} onClick={() => act.mutate('publish')}>
            {repository === 'ena' ? 'Release' : 'Publish'}
            <span className="visually-hidden"> {studyId}</span> at {label}
          </button>
        )}
        {status === 'processing' && <span aria-busy="true">sending…</span>}
      </span>
      {act.isError && <p className="field-error">{act.error.message}</p>}
      {act.isSuccess && <p className="muted">{act.data.message}</p>}
    </div>
  );
}
