import type { BarcodeStatus } from '@/lib/barcodes/contract';
import type { ArchiveFileStatus } from '@/lib/studies/contract';
import type { SequenceDataItem } from '@/lib/submissions/study/contract';

/**
 * Where something made from a profile's samples stands on its way to ENA (a read row, an assembly, an annotation, a
 * DNA barcode), in the words the studies table and the samples already use for the same moments, so that the page
 * says one thing one way. The API keeps the service's machine names (pending, waiting, processing, …).
 */

/** The service's submission states; reads, assemblies, annotations and barcodes share them. */
type SentState = SequenceDataItem['state'] & BarcodeStatus;

const WORDS: Record<SentState, string> = {
  // the studies table's "pending"
  pending: 'Not submitted yet',
  // a sample that cannot be sent until the service may reach ENA says the same
  waiting: 'Waiting for ENA',
  processing: 'Being sent to ENA',
  // what the samples and the submissions say once ENA gave an accession
  accepted: 'Registered at ENA',
  rejected: 'Rejected by ENA',
};

const TONE: Partial<Record<SentState, string>> = { accepted: 'ok', rejected: 'danger' };

/** The state as a badge, with why it waits or what ENA said when it refused it. */
export function SentStateWords({ state, detail }: { state: SentState; detail?: string | null }) {
  const why = state === 'waiting' || state === 'rejected' ? detail : null;
  return (
    <span>
      {/* a badge is read as one word: it does not break inside */}
      <span className={`badge ${TONE[state] ?? ''}`} style={{ whiteSpace: 'nowrap' }}>
        {WORDS[state]}
      </span>
      {why ? <span className={state === 'rejected' ? 'field-error' : undefined}>: {why}</span> : null}
    </span>
  );
}

/** ENA's processing of the files it was sent (its reports service's words, said as people read them). */
type ArchiveState = SequenceDataItem['archive'];

const ARCHIVE_WORDS: Record<ArchiveState, string> = {
  unknown: 'Not asked yet',
  received: 'Received by ENA',
  processing: 'Being processed by ENA',
  archived: 'Archived at ENA',
  failed: 'Processing failed at ENA',
};

const ARCHIVE_TONE: Partial<Record<ArchiveState, string>> = { archived: 'ok', failed: 'danger' };

const FILE_WORDS: Record<ArchiveFileStatus['state'], string> = {
  received: 'received',
  processing: 'being processed',
  archived: 'archived',
  failed: 'failed',
};

/** One file's state, said under its row's (which names ENA already). */
export const fileArchiveWords = (state: ArchiveFileStatus['state']): string => FILE_WORDS[state];

export function ArchiveStateWords({ state }: { state: ArchiveState }) {
  return (
    <span className={`badge ${ARCHIVE_TONE[state] ?? ''}`} style={{ whiteSpace: 'nowrap' }}>
      {ARCHIVE_WORDS[state]}
    </span>
  );
}
