/**
 * The page to open after signing in, when it is on this site: the address is resolved as a browser would resolve it
 * against the site's `origin` (so `/\evil.example` and `/<tab>/evil.example`, which a browser reads as another host,
 * are seen as such) and anything on another origin is refused for the home page.
 */
export function safeCallback(value: string | null | undefined, origin: string): string {
  if (!value) return '/';
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return '/';
  }
  if (url.origin !== new URL(origin).origin) return '/';
  // a path that begins `//` (from `/.//evil.example`) is another host's address to a browser
  return `${url.pathname.replace(/^\/+/, '/')}${url.search}${url.hash}`;
}

/** The sign-in page, coming back to `page` (a path on this site) once signed in. */
export const signInPath = (page: string | null | undefined): string =>
  page && page !== '/' ? `/signin?callbackUrl=${encodeURIComponent(page)}` : '/signin';

/** The page a request asked for, as proxy.ts passes it on to the page: where to come back to after signing in. */
export const REQUEST_PAGE_HEADER = 'x-broker-page';
