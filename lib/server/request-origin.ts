import { headers } from 'next/headers';
import { config } from '@/lib/config';

// a host name, IPv4 or [IPv6] address and an optional port: anything else in a header is not an address to show
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$/;

const first = (value: string | null) => value?.split(',')[0]?.trim() || undefined;

/**
 * The address a person reached the portal at, from a request's headers: a proxy's X-Forwarded-Host and
 * X-Forwarded-Proto, else the Host header, else `fallback` (the configured NEXTAUTH_URL). Only for what a page shows
 * the same person (a curl example), so a client naming another host only misleads itself; that is also why this does
 * not wait for TRUST_PROXY, which decides whose address the limits on guessing count. Without a forwarded protocol,
 * the configured one is kept when the host is the configured host, and plain http (what the server itself speaks)
 * otherwise.
 */
export function originOf(h: Pick<Headers, 'get'>, fallback: string): string {
  const configured = new URL(fallback);
  const forwardedHost = first(h.get('x-forwarded-host'));
  const host = [forwardedHost, first(h.get('host'))].find((v) => v !== undefined && HOST.test(v));
  if (!host) return configured.origin;
  const proto = first(h.get('x-forwarded-proto'))?.toLowerCase();
  const scheme = proto === 'https' || proto === 'http' ? proto : host === configured.host ? configured.protocol.slice(0, -1) : 'http';
  return `${scheme}://${host}`;
}

/** originOf for the request a server component is rendering. */
export async function requestOrigin(): Promise<string> {
  return originOf(await headers(), config().baseUrl);
}
