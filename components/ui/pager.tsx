import Link from 'next/link';
import { formatNumber } from './words';

/** Previous / next links for a server-paged list; links, so that every page has its own URL. */
export function Pager({
  offset,
  limit,
  total,
  shown,
  noun,
  hrefFor,
}: {
  offset: number;
  limit: number;
  total: number;
  /** rows on this page */
  shown: number;
  noun: string;
  hrefFor: (offset: number) => string;
}) {
  const hasPrevious = offset > 0;
  const hasNext = offset + shown < total;
  return (
    <nav aria-label="Pages" className="inline" style={{ marginTop: '0.5rem', alignItems: 'center' }}>
      {hasPrevious ? (
        <Link className="button" href={hrefFor(Math.max(0, offset - limit))} rel="prev">
          Previous
        </Link>
      ) : (
        <span className="button" aria-disabled="true" style={{ opacity: 0.6 }}>
          Previous
        </span>
      )}
      <span>
        {shown ? `${formatNumber(offset + 1)}–${formatNumber(offset + shown)}` : '0'} of {formatNumber(total)} {noun}
      </span>
      {hasNext ? (
        <Link className="button" href={hrefFor(offset + limit)} rel="next">
          Next
        </Link>
      ) : (
        <span className="button" aria-disabled="true" style={{ opacity: 0.6 }}>
          Next
        </span>
      )}
    </nav>
  );
}
