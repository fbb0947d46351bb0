'use client';

import { useMutation } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { api } from '@/lib/client/api';

/**
 * An unfinished report on the home page with its Discard button: no confirmation (an unconfirmed report is only a
 * check of a file the researcher still has), and what came of it said in its place, where the button was.
 */
export function DiscardableReport({ reportId, fileName, children }: { reportId: string; fileName: string; children: ReactNode }) {
  const discard = useMutation({
    mutationFn: () => api.DELETE('/api/manifest/validate/report/{report_id}', { params: { path: { report_id: reportId } } }),
  });
  return (
    <>
      {/* once gone, its link would lead to a 404: only the outcome stays */}
      {!discard.isSuccess && children}{' '}
      {!discard.isSuccess && (
        <button type="button" disabled={discard.isPending} onClick={() => discard.mutate()}>
          {discard.isPending ? 'Discarding…' : 'Discard'}
          <span className="visually-hidden"> the report of {fileName}</span>
        </button>
      )}{' '}
      <span role="status">{discard.isSuccess ? `Discarded the report of ${fileName}.` : ''}</span>
      {discard.isError && (
        <span role="alert" className="field-error">
          {' '}
          Could not discard it: {discard.error.message}
        </span>
      )}
    </>
  );
}
