import type { ReactNode } from 'react';
import { accessionLink } from '@/components/submissions/links';
import { awaitingWords } from '@/lib/approvals/words';
import type { BiodataSampleStatus } from '@/lib/biodata-samples/contract';
import type { SampleStatus } from '@/lib/samples/contract';
import type { ReviewSample } from '@/lib/samples/review-contract';

/**
 * Where a sample stands, in words: the review queue, the sample page and the samples browser say the same thing for
 * the same status (the API keeps the reference's machine names).
 */

/** A Tree of Life sample's status or, for a biodata profile's sample, its own (lib/biodata-samples/contract.ts). */
type AnyStatus = SampleStatus | BiodataSampleStatus;

const WORDS: Record<AnyStatus, string> = {
  pending: 'Awaiting review',
  private: 'Private (traditional-knowledge rights)',
  processing: 'Registering at ENA',
  awaiting_ena: 'Waiting for ENA',
  awaiting_tolid: 'Waiting for a ToLID',
  sending: 'Being sent to ENA',
  accepted: 'Registered at ENA',
  rejected: 'Rejected',
  confirmed: 'Confirmed, not registered',
  refused: 'Refused by ENA',
  failed: 'Registration failed',
};

const TONE: Partial<Record<AnyStatus, string>> = { accepted: 'ok', rejected: 'danger', refused: 'danger', failed: 'danger' };

/** States that end by themselves: a page showing one refreshes until it has moved on. */
export const UNSETTLED: ReadonlySet<string> = new Set<AnyStatus>(['processing', 'sending', 'awaiting_tolid']);

export const statusWords = (status: string): string => WORDS[status as AnyStatus] ?? status;

/** A status as a short badge (tables, lists); `failed`: a rejection after approval, which is no manager's rejection. */
export function StatusWords({ status, failed = false }: { status: string; failed?: boolean }) {
  const text = failed && status === 'rejected' ? 'Registration failed' : statusWords(status);
  return <span className={`badge ${TONE[status as AnyStatus] ?? ''}`}>{text}</span>;
}

/** An accession as a link to its page at the repository, or as text when it is not one we know. */
export function Accession({ value }: { value: string }) {
  const href = accessionLink(value);
  return href ? (
    <a className="mono accession-id" href={href} target="_blank" rel="noreferrer">
      {value}
    </a>
  ) : (
    <span className="mono accession-id">{value}</span>
  );
}

/** Where one sample stands, in the API's names (ReviewSample); a manifest's sample list selects the same. */
export type SampleStanding = Pick<
  ReviewSample,
  'status' | 'status_detail' | 'rejection_reason' | 'registration_failed' | 'biosampleAccession'
>;

/**
 * The whole sentence: the status with what it waits for (`waitingFor`: associated projects whose approval a pending
 * sample still needs; `yours`: those of them the reader approves), its accession, or the reason it stopped.
 */
export function SampleState({
  sample,
  waitingFor = [],
  yours = [],
}: {
  sample: SampleStanding;
  waitingFor?: readonly string[];
  yours?: readonly string[];
}) {
  const {
    status,
    status_detail: detail,
    rejection_reason: reason,
    registration_failed: registrationFailed,
    biosampleAccession: biosample,
  } = sample;
  let tail: ReactNode = null;
  switch (status) {
    case 'accepted':
      tail = biosample ? (
        <>
          {' as '}
          <Accession value={biosample} />
        </>
      ) : null;
      break;
    case 'rejected':
      tail = `: ${(registrationFailed ? reason || detail : reason) || 'no reason given'}`;
      break;
    case 'failed':
      tail = detail ? `: ${detail}` : null;
      break;
    // nothing beside the badge: ENA's message names every sample of the document, so it is said once per
    // registration (components/submissions/ena-refusals.tsx) and kept in the sample's history
    case 'refused':
      break;
    case 'pending': {
      const words = awaitingWords(waitingFor, yours);
      tail = words ? ` (${words})` : null;
      break;
    }
    case 'awaiting_tolid':
      tail = ' from the ToLID service';
      break;
    case 'awaiting_ena':
    case 'processing':
      tail = detail ? ` (${detail})` : null;
      break;
  }
  return (
    <span>
      <StatusWords status={status} failed={registrationFailed} />
      {tail}
    </span>
  );
}
