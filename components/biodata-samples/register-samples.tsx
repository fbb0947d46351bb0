'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { plural } from '@/components/ui/words';
import { api } from '@/lib/client/api';
import styles from './biodata-samples.module.css';

/** Today and the last day ENA holds a sample private (two years ahead), as the date input's bounds. */
function releaseBounds(now = new Date()): { min: string; max: string } {
  const tomorrow = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
  const latest = new Date(Date.UTC(now.getUTCFullYear() + 2, now.getUTCMonth(), now.getUTCDate()));
  return { min: tomorrow.toISOString().slice(0, 10), max: latest.toISOString().slice(0, 10) };
}

/**
 * Sends samples of a checklist to ENA (POST /api/sample/register): public once registered, or held private until
 * the day the researcher picks. `svcIds` are the samples ticked (or the one of a sample's page).
 */
export function RegisterSamples({
  svcIds,
  onDone,
  what,
}: {
  svcIds: readonly string[];
  /** what was sent, in words: the caller shows it where the samples are (this form may go with them) */
  onDone: (sent: string) => void;
  what?: string;
}) {
  const id = useId();
  const [hold, setHold] = useState(false);
  const [release, setRelease] = useState('');
  const bounds = releaseBounds();
  const qc = useQueryClient();
  const register = useMutation({
    mutationFn: (input: { svc_ids: string[]; release_date?: string }) => api.POST('/api/sample/register', { body: input }),
    onSuccess: (answer) => {
      // every list of the samples moves on with them
      void qc.invalidateQueries({ queryKey: ['biodata-samples'] });
      onDone(
        `Sent to ENA: ${plural(
          answer.reduce((n, r) => n + r.samples, 0),
          'sample',
        )} on the way. Their accessions appear once ENA has answered.`,
      );
    },
  });
  const count = svcIds.length;
  const label = what ?? plural(count, 'sample');
  const missingDate = hold && !release;
  return (
    <form
      className={styles.register}
      onSubmit={(e) => {
        e.preventDefault();
        if (!count || missingDate) return;
        register.mutate({ svc_ids: [...svcIds], ...(hold && release ? { release_date: release } : {}) });
      }}
    >
      <fieldset className="choices">
        <legend>When ENA makes {count === 1 ? 'it' : 'them'} public</legend>
        <label>
          <input type="radio" name={`${id}-when`} checked={!hold} onChange={() => setHold(false)} /> As soon as{' '}
          {count === 1 ? 'it is' : 'they are'} registered
        </label>
        <label>
          <input type="radio" name={`${id}-when`} checked={hold} onChange={() => setHold(true)} /> Keep private until
        </label>
        {hold && (
          <label>
            Release date
            <input
              type="date"
              required
              min={bounds.min}
              max={bounds.max}
              value={release}
              onChange={(e) => setRelease(e.target.value)}
              aria-describedby={`${id}-hint`}
            />
          </label>
        )}
        {hold && (
          <p id={`${id}-hint`} className="muted">
            ENA holds samples private for at most two years; the day can be brought forward at ENA later, not here.
          </p>
        )}
      </fieldset>
      <p>
        <button className="primary" type="submit" disabled={!count || missingDate || register.isPending}>
          {register.isPending ? 'Sending…' : count ? `Register ${label} at ENA` : 'Tick the samples to register'}
        </button>
      </p>
      {register.isError && (
        <p role="alert" className="notice error">
          Nothing was sent: {register.error.message}
        </p>
      )}
    </form>
  );
}
