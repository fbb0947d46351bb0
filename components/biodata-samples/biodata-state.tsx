import { Accession, StatusWords } from '@/components/samples/sample-state';
import type { BiodataSample } from '@/lib/biodata-samples/contract';

/** Where a biodata sample stands, in one sentence: its state, its accession, or ENA's words when it refused it. */
export function BiodataState({ sample }: { sample: Pick<BiodataSample, 'status' | 'status_detail' | 'biosampleAccession'> }) {
  const { status, status_detail: detail, biosampleAccession: accession } = sample;
  return (
    <span>
      <StatusWords status={status} />
      {status === 'accepted' && accession ? (
        <>
          {' as '}
          <Accession value={accession} />
        </>
      ) : status === 'refused' || status === 'processing' ? (
        detail ? (
          <>: {detail}</>
        ) : null
      ) : null}
    </span>
  );
}

/** When ENA makes the sample public: the day it holds it until, or at once. */
export function releaseWords(releaseDate: string | null): string {
  return releaseDate ? `private at ENA until ${releaseDate}` : 'public once registered';
}
