import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** A person the server vouches for, by ORCID iD, with the names ORCID's id token carries. */
export interface OrcidPersonClaims {
  given_name?: string;
  family_name?: string;
  name?: string;
}

export interface OidcServer {
  /** the issuer: its discovery document is {issuer}/.well-known/openid-configuration */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** the people who can sign in, by iD; add to it at any time */
  people: Map<string, OrcidPersonClaims>;
  close(): Promise<void>;
}

/**
 * A real OpenID Connect server (oidc-provider) standing in for ORCID on a local port: one client registered for
 * the broker with its redirect URI, id tokens signed with a fresh RSA key and carrying the names (as ORCID's do),
 * PKCE required, and oidc-provider's development pages for login (any password) and consent. The people who can
 * sign in are those of `people`, and any login at all when `anyone` gives claims for it (the browser tests).
 */
export async function startOidcServer(
  redirectUri: string,
  opts: { anyone?: (orcidId: string) => OrcidPersonClaims } = {},
): Promise<OidcServer> {
  const people = new Map<string, OrcidPersonClaims>();
  const clientId = 'broker';
  const clientSecret = randomBytes(24).toString('base64url');
  const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [{ ...signingKey, kid: 'orcid-stand-in', use: 'sig', alg: 'RS256' }] },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    claims: { openid: ['sub', 'name', 'given_name', 'family_name'] },
    // ORCID puts the names in the id token itself
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    ttl: { Interaction: 600, Session: 600, Grant: 600, AccessToken: 600, IdToken: 600 },
    features: { devInteractions: { enabled: true } },
    findAccount: (_ctx, sub) => {
      const claims = people.get(sub) ?? opts.anyone?.(sub);
      return claims ? { accountId: sub, claims: () => ({ sub, ...claims }) } : undefined;
    },
  });
  server.on('request', provider.callback());

  return {
    issuer,
    clientId,
    clientSecret,
    people,
    close: () => new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
  };
}

/**
 * What a browser does at the server between the broker's redirect and the way back: follow the redirects with the
 * server's cookies, sign in as `orcidId` on the login page, continue on the consent page. Returns the URL the server
 * finally sends the browser to (the broker's callback, with a code, or with an error).
 */
export async function authorizeAt(authorizationUrl: string, orcidId: string): Promise<string> {
  const jar = new Map<string, string>();
  let url = authorizationUrl;
  let init: RequestInit = {};
  const issuer = new URL(authorizationUrl).origin;
  for (let hop = 0; hop < 20; hop++) {
    if (!url.startsWith(issuer)) return url;
    const headers = new Headers(init.headers);
    if (jar.size) headers.set('cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      const [name, value] = [pair.slice(0, eq).trim(), pair.slice(eq + 1).trim()];
      if (value && !/expires=Thu, 01 Jan 1970/i.test(line)) jar.set(name, value);
      else jar.delete(name);
    }
    const location = res.headers.get('location');
    if (location) {
      url = new URL(location, url).toString();
      init = {};
      continue;
    }
    const page = await res.text();
    if (!res.ok) throw new Error(`the OpenID server answered ${res.status}: ${page.slice(0, 500)}`);
    const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1];
    const form = new URLSearchParams(prompt === 'login' ? { prompt, login: orcidId, password: 'any' } : { prompt: prompt ?? 'consent' });
    init = { method: 'POST', body: form, headers: { 'content-type': 'application/x-www-form-urlencoded' } };
  }
  throw new Error('the OpenID server kept redirecting');
}
