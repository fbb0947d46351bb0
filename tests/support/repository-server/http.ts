import type { IncomingMessage, ServerResponse } from 'node:http';

/** Small request/response helpers for the test server's node:http handlers. */

export interface Incoming {
  method: string;
  url: URL;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export interface Outgoing {
  status: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export async function readIncoming(req: IncomingMessage, base: string): Promise<Incoming> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return { method: req.method ?? 'GET', url: new URL(req.url ?? '/', base), headers: req.headers, body: Buffer.concat(chunks) };
}

export function write(res: ServerResponse, out: Outgoing): void {
  if (res.destroyed || res.writableEnded) return;
  res.writeHead(out.status, out.headers);
  res.end(out.body);
}

export const json = (status: number, body: unknown, headers: Record<string, string> = {}): Outgoing => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body, null, 2),
});

export const xml = (status: number, body: string): Outgoing => ({
  status,
  headers: { 'content-type': 'application/xml;charset=UTF-8' },
  body,
});

export const text = (status: number, body: string): Outgoing => ({
  status,
  headers: { 'content-type': 'text/plain;charset=UTF-8' },
  body,
});

/** multipart/form-data parts as text, by name (the WHATWG parser that fetch itself uses). */
export async function formParts(incoming: Incoming): Promise<Map<string, string> | undefined> {
  const type = incoming.headers['content-type'] ?? '';
  if (!/^multipart\/form-data/i.test(type) && !/^application\/x-www-form-urlencoded/i.test(type)) return undefined;
  try {
    const form = await new Response(new Uint8Array(incoming.body), { headers: { 'content-type': type } }).formData();
    const parts = new Map<string, string>();
    for (const [name, value] of form.entries()) parts.set(name, typeof value === 'string' ? value : await value.text());
    return parts;
  } catch {
    return undefined;
  }
}

export function basicCredentials(incoming: Incoming): { username: string; password: string } | undefined {
  const header = incoming.headers.authorization ?? '';
  const m = /^Basic\s+(.+)$/i.exec(header);
  if (!m?.[1]) return undefined;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  return i < 0 ? undefined : { username: decoded.slice(0, i), password: decoded.slice(i + 1) };
}

export function bearerToken(incoming: Incoming): string | undefined {
  const m = /^Bearer\s+(\S+)$/i.exec(incoming.headers.authorization ?? '');
  return m?.[1] ?? incoming.url.searchParams.get('access_token') ?? undefined;
}
