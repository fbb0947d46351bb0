import { orcidUrl } from '@/lib/users/orcid-words';

/**
 * An ORCID iD as a link to its page at ORCID (nothing is fetched from it): the whole address, as ORCID asks iDs to
 * be shown, or in a table the iD alone, kept on one line, the link still naming the address.
 */
export function OrcidLink({ orcidId, compact = false }: { orcidId: string; compact?: boolean }) {
  return (
    <a href={orcidUrl(orcidId)} rel="noopener noreferrer" className="mono" title={compact ? orcidUrl(orcidId) : undefined}>
      {compact ? orcidId : orcidUrl(orcidId)}
    </a>
  );
}
