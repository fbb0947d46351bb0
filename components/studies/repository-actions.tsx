'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { accessionLink } from '@/components/submissions/links';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { api } from '@/lib/client/api';
import type { Repository } from '@/lib/submissions/contract';
import type { StudyPath } from './study-path';

interface Props {
  at: StudyPath;
  studyId: string;
  repository: Repository;
  label: string;
  status: string;
  accession: string;
  /** Zenodo: the DOI once published */
  doi: string;
  state: string;
}

/** Submit and publish buttons of one study at one repository, with the repository's answer next to them. */
export function RepositoryActions({ at, studyId, repository, label, status, accession, doi, state }: Props) {
  const qc = useQueryClient();
  // making a study public cannot be undone: it is asked first, saying so
  const [asking, setAsking] = useState(false);
  const act = useMutation({
    mutationFn: async (action: 'submit' | 'publish') => {
      const params = { path: at, query: { repository } };
      return action === 'submit'
        ? await api.POST('/api/profiles/{profile_id}/schema/{schema_name}/studies/{study_id}/action/submit', { params })
        : await api.POST('/api/profiles/{profile_id}/schema/{schema_name}/studies/{study_id}/action/publish', { params });
    },
    onSettled: () => {
      setAsking(false);
      void qc.invalidateQueries({ queryKey: ['studies'] });
    },
  });
  const publishWord = repository === 'ena' ? 'Release' : 'Publish';
  const link = accession ? accessionLink(accession) : null;
  const canSubmit = status === 'pending' || status === 'rejected';
  const canPublish = status === 'accepted' && !(repository === 'ena' && state === 'PUBLIC');
  return (
    <div>
      {accession && (
        <span className="mono">
          {repository === 'zenodo' ? 'deposition ' : ''}
          {link ? <a href={link}>{accession}</a> : accession}{' '}
        </span>
      )}
      {doi && (
        <span className="mono">
          DOI <a href={`https://doi.org/${doi}`}>{doi}</a>{' '}
        </span>
      )}
      <span className="inline" style={{ gap: '0.25rem', marginTop: '0.25rem' }}>
        {canSubmit && (
          <button type="button" disabled={act.isPending} onClick={() => act.mutate('submit')}>
            Submit<span className="visually-hidden"> {studyId}</span> to {label}
          </button>
        )}
        {canPublish && (
          <button type="button" disabled={act.isPending} onClick={() => setAsking(true)}>
            {publishWord}
            <span className="visually-hidden"> {studyId}</span> at {label}
          </button>
        )}
        {status === 'processing' && <span aria-busy="true">Sending…</span>}
      </span>
      {act.isError && (
        <p role="alert" className="field-error">
          {act.error.message}
        </p>
      )}
      {act.isSuccess && (
        <p role="status" className="muted">
          {act.data.message}
        </p>
      )}
      <ConfirmDialog
        open={asking}
        title={`${publishWord} ${studyId} at ${label}?`}
        confirmLabel={`${publishWord} it`}
        danger
        busy={act.isPending}
        onCancel={() => setAsking(false)}
        onConfirm={() => act.mutate('publish')}
      >
        <p>
          {repository === 'ena'
            ? `The study and its reads become public at ENA now, instead of at the end of their hold date. This cannot be undone.`
            : 'The deposition is published with a DOI: its files can no longer be changed, only a new version made. This cannot be undone.'}
        </p>
      </ConfirmDialog>
    </div>
  );
}
