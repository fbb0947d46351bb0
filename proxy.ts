import { type NextRequest, NextResponse } from 'next/server';
import { REQUEST_PAGE_HEADER } from '@/components/auth/callback-url';
import { config as settings } from '@/lib/config';
import { pagePolicy, securityHeaders, servedOverHttps } from '@/lib/security-headers';

/**
 * Every page request, before Next.js renders it: a fresh nonce for the page's Content-Security-Policy (Next.js reads
 * it from the request's own CSP header and puts it on the scripts it writes), the security headers on the answer
 * (lib/security-headers.ts), and the page asked for, for the redirect to sign-in to come back to. The API's answers
 * get theirs from the API (lib/api/app.ts); next-auth's, under /api/auth, from here.
 */
export function proxy(request: NextRequest) {
  const nonce = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
  const https = servedOverHttps(settings().baseUrl);
  const policy = pagePolicy(nonce, { https });
  const page = request.nextUrl.clone();
  page.searchParams.delete('_rsc');
  const forwarded = new Headers(request.headers);
  forwarded.set('content-security-policy', policy);
  forwarded.delete('content-security-policy-report-only');
  forwarded.set(REQUEST_PAGE_HEADER, `${page.pathname}${page.search}`);
  const response = NextResponse.next({ request: { headers: forwarded } });
  for (const [name, value] of securityHeaders(policy, { https })) response.headers.set(name, value);
  return response;
}

export const config = {
  // not the API (it sets its own), except next-auth's routes; not Next.js's static files
  matcher: ['/((?!api/(?!auth/)|_next/static/|_next/image).*)'],
};
