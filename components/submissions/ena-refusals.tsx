'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { RetryRegistration } from '@/components/samples/retry-registration';
import { When } from '@/components/ui/when';
import { samplesWord } from '@/components/ui/words';
import { api } from '@/lib/client/api';
import type { EnaRefusal } from '@/lib/submissions/contract';
import styles from './ena-refusals.module.css';
import { REFUSALS_KEY, REFUSALS_PAGE } from './refusals-query';

/** Samples named in a refusal before "and N more": the rest are on the Submissions page and in the queue. */
const NAMED = 10;

/** Who can act on a refusal, in words: a sample manager retries; nobody uploads the manifest again. */
function YourPart({ refusal, onRetried }: { refusal: EnaRefusal; onRetried?: () => void }) {
  const project = refusal.tol_project.toUpperCase();
  const n = refusal.samples.length;
  switch (refusal.your_part) {
    case 'retry':
      return (
        <p>
          {refusal.outcome === 'refused'
            ? 'Fix the cause ENA gives below (often a value of the manifest ENA’s checklist does not take, or the Webin account), then send '
            : 'Once ENA answers again (its status page, or a try of the Webin portal, tells), send '}
          {n === 1 ? 'it' : 'them'} again.{' '}
          <RetryRegistration
            svcIds={refusal.samples.map((s) => s.svc_id)}
            name={`the ${samplesWord(n)} ${refusal.outcome === 'refused' ? 'ENA refused' : 'whose registration failed'} in ${refusal.profile_title}`}
            onDone={onRetried}
          />
        </p>
      );
    case 'uploader':
      return (
        <p>
          There is nothing for you to upload again: the manifest was accepted. A sample manager of {project} sends {n === 1 ? 'it' : 'them'}{' '}
          again once the cause is fixed, and asks you should a value of yours need correcting.
        </p>
      );
    case 'viewer':
      return (
        <p>
          Nothing for you to do: a sample manager of {project} sends {n === 1 ? 'it' : 'them'} again once the cause is fixed.
        </p>
      );
  }
}

/** One registration ENA refused, or that failed: said once for its samples, the message folded underneath. */
export function EnaRefusalNotice({ refusal, onRetried }: { refusal: EnaRefusal; onRetried?: () => void }) {
  const named = refusal.samples.slice(0, NAMED);
  const refused = refusal.outcome === 'refused';
  return (
    <>
      <p>
        <strong>
          {refused ? 'ENA refused the registration of ' : 'The registration could not be completed for '}
          {samplesWord(refusal.samples.length)}
        </strong>{' '}
        of <Link href={`/profiles/${refusal.profile_id}`}>{refusal.profile_title}</Link>, <When value={refusal.refused_at} />:{' '}
        {named.map((s, i) => (
          <span key={s.svc_id}>
            {i > 0 && ', '}
            <Link href={`/samples/${s.svc_id}`}>{s.tube || s.specimen || s.svc_id}</Link>
          </span>
        ))}
        {refusal.samples.length > named.length && ` and ${refusal.samples.length - named.length} more`}.
      </p>
      <YourPart refusal={refusal} onRetried={onRetried} />
      <details className={styles.message}>
        <summary>{refused ? 'ENA’s message' : 'What went wrong'}</summary>
        <p>{refusal.message}</p>
      </details>
    </>
  );
}

/** Refused or failed registrations, each once, as notices. */
export function EnaRefusalList({ refusals, onRetried }: { refusals: EnaRefusal[]; onRetried?: () => void }) {
  return (
    <ul className={styles.list}>
      {refusals.map((r) => (
        <li key={r.submission_id} className="notice error">
          <EnaRefusalNotice refusal={r} onRetried={onRetried} />
        </li>
      ))}
    </ul>
  );
}

/** The refused registrations the reader may see, read from the API (GET /api/registrations/refused). */
export function useEnaRefusals() {
  return useQuery({
    queryKey: REFUSALS_KEY,
    queryFn: () => api.GET('/api/registrations/refused', { params: { query: REFUSALS_PAGE } }),
  });
}

/** A titled section of the refused registrations, shown only when there are some (the review queue, the Jobs page). */
export function EnaRefusals({ heading = 'Registrations ENA refused or that failed' }: { heading?: string }) {
  const refusals = useEnaRefusals();
  const client = useQueryClient();
  const data = refusals.data?.data ?? [];
  if (!data.length) return null;
  // a retry moves the samples on: the review queue beside this list shows them registering
  const onRetried = () => {
    void refusals.refetch();
    void client.invalidateQueries({ queryKey: ['review'] });
  };
  return (
    <section aria-labelledby="ena-refusals">
      <h2 id="ena-refusals">{heading}</h2>
      <p className="muted">
        {refusals.data?.number_found === 1 ? 'One registration waits' : `${refusals.data?.number_found} registrations wait`} for a retry;
        each is said once for its samples.
      </p>
      <EnaRefusalList refusals={data} onRetried={onRetried} />
    </section>
  );
}
