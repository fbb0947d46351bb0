import type { NextApiRequest, NextApiResponse } from 'next';
import NextAuth, { type AuthOptions } from 'next-auth';
import { authorizeAt } from './oidc-server';

interface AuthAnswer {
  status: number;
  body?: unknown;
  redirect?: string;
}

/** What next-auth's handler writes to a Node response: status, headers (Set-Cookie among them), a body or a redirect. */
class RecordedResponse {
  statusCode = 200;
  readonly headers = new Map<string, string | string[]>();
  body: unknown;
  status(code: number) {
    this.statusCode = code;
    return this;
  }
  setHeader(name: string, value: string | string[]) {
    this.headers.set(name.toLowerCase(), value);
    return this;
  }
  getHeader(name: string) {
    return this.headers.get(name.toLowerCase());
  }
  end() {}
  json(body: unknown) {
    this.body = body;
  }
  send(body: unknown) {
    this.body = body;
  }
}

/**
 * A browser without a screen at the broker's auth route: it keeps the cookies next-auth sets and sends each request
 * to next-auth's own handler (its Node form, which runs outside Next.js) with the options the route builds for that
 * request (`optionsFor`, given the request's cookie header, as app/api/auth/[...nextauth]/route.ts does).
 */
export class AuthBrowser {
  readonly cookies = new Map<string, string>();

  constructor(
    private readonly baseUrl: string,
    private readonly optionsFor: (cookieHeader: string | undefined) => AuthOptions,
  ) {}

  cookieHeader(): string | undefined {
    return this.cookies.size ? [...this.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ') : undefined;
  }

  /** One request to /api/auth/<path> (a path, or a whole URL under it), its cookies kept. */
  async call(path: string, init: { method?: 'GET' | 'POST'; body?: Record<string, string> } = {}): Promise<AuthAnswer> {
    const url = new URL(path.startsWith('http') ? path : `${this.baseUrl}/api/auth/${path}`);
    const cookie = this.cookieHeader();
    const req = {
      method: init.method ?? 'GET',
      query: { ...Object.fromEntries(url.searchParams), nextauth: url.pathname.replace(/^\/api\/auth\//, '').split('/') },
      body: init.body ?? {},
      cookies: Object.fromEntries(this.cookies),
      headers: { host: url.host, ...(cookie && { cookie }) },
    };
    const res = new RecordedResponse();
    await NextAuth(req as unknown as NextApiRequest, res as unknown as NextApiResponse, this.optionsFor(cookie));
    const setCookies = res.getHeader('set-cookie') ?? [];
    for (const line of Array.isArray(setCookies) ? setCookies : [setCookies]) this.keep(line);
    const location = res.getHeader('location');
    return { status: res.statusCode, body: res.body, redirect: typeof location === 'string' ? location : undefined };
  }

  private keep(setCookie: string) {
    const [pair = '', ...attributes] = setCookie.split(';').map((part) => part.trim());
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq);
    const value = decodeURIComponent(pair.slice(eq + 1));
    const expires = attributes.find((a) => /^expires=/i.test(a));
    const gone =
      !value ||
      attributes.some((a) => /^max-age=0$/i.test(a)) ||
      (expires !== undefined && new Date(expires.slice(8)).getTime() <= Date.now());
    if (gone) this.cookies.delete(name);
    else this.cookies.set(name, value);
  }

  private async csrfToken(): Promise<string> {
    const { body } = await this.call('csrf');
    return (body as { csrfToken: string }).csrfToken;
  }

  /** The password form's sign-in; returns where next-auth sends the browser. */
  async signInWithPassword(username: string, password: string): Promise<string | undefined> {
    const csrfToken = await this.csrfToken();
    const answer = await this.call('callback/credentials', {
      method: 'POST',
      body: { csrfToken, username, password, callbackUrl: `${this.baseUrl}/` },
    });
    return answer.redirect;
  }

  /**
   * The "Sign in with ORCID" button, the person signing in at the OpenID server as `orcidId`, and the way back to
   * the broker's callback; returns where the broker finally sends the browser.
   */
  async signInWithOrcid(orcidId: string, callbackPath = '/'): Promise<string | undefined> {
    const csrfToken = await this.csrfToken();
    const start = await this.call('signin/orcid', { method: 'POST', body: { csrfToken, callbackUrl: `${this.baseUrl}${callbackPath}` } });
    if (!start.redirect) throw new Error(`signing in with ORCID did not start: ${JSON.stringify(start)}`);
    const back = await authorizeAt(start.redirect, orcidId);
    if (!back.startsWith(`${this.baseUrl}/api/auth/`)) return back;
    return (await this.call(back)).redirect;
  }

  /** The Sign out button: next-auth's sign-out, which clears the cookie here. */
  async signOut(): Promise<void> {
    const csrfToken = await this.csrfToken();
    await this.call('signout', { method: 'POST', body: { csrfToken, callbackUrl: `${this.baseUrl}/signin` } });
  }

  /** What the portal's pages read: next-auth's session answer (lib/server/auth-options.ts currentUser asks the same). */
  async session(): Promise<{ userId?: string } | null> {
    const { body } = await this.call('session');
    return body && typeof body === 'object' && Object.keys(body).length ? (body as { userId?: string }) : null;
  }
}
