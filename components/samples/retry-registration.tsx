'use client';

import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { samplesWord } from '@/components/ui/words';
import { api } from '@/lib/client/api';

/**
 * Sends samples whose registration failed on to ENA again (POST /api/sample/register), and says so. Without
 * `onDone` the page is refreshed, so a server-rendered page shows the new state.
 */
export function RetryRegistration({ svcIds, name, onDone }: { svcIds: string[]; name?: string; onDone?: () => void }) {
  const router = useRouter();
  const retry = useMutation({
    mutationFn: () => api.POST('/api/sample/register', { body: { svc_ids: svcIds } }),
    onSuccess: () => (onDone ? onDone() : router.refresh()),
  });
  const label = name ? `Retry registration of ${name}` : `Retry registration of ${samplesWord(svcIds.length)}`;
  return (
    <span className="retry">
      <button type="button" onClick={() => retry.mutate()} disabled={retry.isPending} aria-label={label}>
        {retry.isPending ? 'Sending…' : 'Retry registration'}
      </button>
      {retry.isSuccess && (
        <span role="status" className="muted">
          {' '}
          Sent on again: {samplesWord(svcIds.length)} queued for registration.
        </span>
      )}
      {retry.isError && (
        <span role="alert" className="field-error">
          {' '}
          {retry.error.message}
        </span>
      )}
    </span>
  );
}
