import type { Metadata } from 'next';
import Link from 'next/link';

export const metadata: Metadata = { title: 'Page not found' };

/** Every notFound() of a portal page, and every unknown address once signed in: inside the portal, with a way on. */
export default function PortalNotFound() {
  return (
    <section className="not-found" aria-labelledby="not-found-title">
      <p className="code" aria-hidden="true">
        404
      </p>
      <h1 id="not-found-title">Page not found</h1>
      <p>There is no page at this address, or it is not one you may see. It may have been mistyped, or the thing it showed was removed.</p>
      <p>From here you can go to:</p>
      <ul>
        <li>
          <Link href="/">Home</Link>, which lists what waits for you
        </li>
        <li>
          <Link href="/profiles">Profiles</Link>, with their manifests, samples and studies
        </li>
        <li>
          <Link href="/samples">Samples</Link>, to search every sample
        </li>
      </ul>
    </section>
  );
}
