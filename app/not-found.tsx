import type { Metadata } from 'next';
import Link from 'next/link';

export const metadata: Metadata = { title: 'Page not found' };

/** A 404 outside the portal's layout (the portal's own is app/(portal)/not-found.tsx). */
export default function NotFound() {
  return (
    <main className="center-card not-found">
      <p className="code" aria-hidden="true">
        404
      </p>
      <h1>Page not found</h1>
      <p>There is no page at this address.</p>
      <p>
        <Link href="/">Go to the Research Metadata Broker</Link>
      </p>
    </main>
  );
}
