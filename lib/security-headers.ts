/**
 * The security headers of every answer: the portal's pages (proxy.ts) and the API's (lib/api/app.ts). One policy,
 * so that the two cannot drift. SECURITY.md says what each is for.
 */

/** What no answer may be used for: framed (clickjacking), sniffed as another type, or followed by a full referrer. */
const ALWAYS: readonly (readonly [string, string])[] = [
  ['x-content-type-options', 'nosniff'],
  ['x-frame-options', 'DENY'],
  ['referrer-policy', 'same-origin'],
  ['cross-origin-opener-policy', 'same-origin'],
  ['permissions-policy', 'camera=(), microphone=(), geolocation=(), payment=(), usb=()'],
];

/** HTTP Strict Transport Security, sent only when the service is served over HTTPS (NEXTAUTH_URL). */
const HSTS = ['strict-transport-security', 'max-age=31536000; includeSubDomains'] as const;

/**
 * A page's policy: its own scripts, and the inline ones Next.js writes carrying this request's nonce; styles of its
 * own and inline (React's `style` attributes, which a nonce cannot cover); images of its own, data and blob (charts,
 * thumbnails); nothing fetched elsewhere; never framed.
 */
export function pagePolicy(nonce: string, opts: { https: boolean }): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(opts.https ? ['upgrade-insecure-requests'] : []),
  ].join('; ');
}

/** An API answer's policy: it is data, never a document that runs anything or is framed. */
export const API_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** The API's documentation page (Swagger UI, served from node_modules): its own scripts and styles only. */
export const DOCS_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; " +
  "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** The headers of an answer under `policy`. */
export function securityHeaders(policy: string, opts: { https: boolean }): (readonly [string, string])[] {
  return [['content-security-policy', policy], ...ALWAYS, ...(opts.https ? [HSTS] : [])];
}

/** Whether the service is served over HTTPS, from its public URL. */
export const servedOverHttps = (baseUrl: string): boolean => baseUrl.startsWith('https:');
