import { orcidUrl } from '@/lib/users/contract';

/** An ORCID iD as a link to its page at ORCID, as ORCID asks iDs to be shown (nothing is fetched from it). */
export function OrcidLink({ orcidId }: { orcidId: string }) {
  return (
    <a href={orcidUrl(orcidId)} rel="noopener noreferrer" className="mono">
      {orcidUrl(orcidId)}
    </a>
  );
}
