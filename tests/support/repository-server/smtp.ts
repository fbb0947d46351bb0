import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** An SMTP server that keeps what it receives, for the tests to read: the envelope and the message's headers and text. */

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  /** the Cc header's addresses (the envelope's `to` holds them too) */
  cc: string[];
  /** the plain body, or a multipart message's text/plain part */
  text: string;
  /** a multipart message's text/html part; empty without one */
  html: string;
  raw: string;
}

export interface MailServer {
  /** as SMTP_URL */
  url: string;
  received: ReceivedMail[];
  /** the next `count` messages are refused with this SMTP code (4xx: try later; 5xx: never) */
  refuse(count: number, code: number): void;
  close(): Promise<void>;
}

/** A part's body decoded by its Content-Transfer-Encoding. */
function decodeBody(headers: string, body: string): string {
  let text = body;
  if (/content-transfer-encoding:\s*quoted-printable/i.test(headers)) {
    text = Buffer.from(
      text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
      'latin1',
    ).toString('utf8');
  } else if (/content-transfer-encoding:\s*base64/i.test(headers)) {
    text = Buffer.from(text.replace(/\s+/g, ''), 'base64').toString('utf8');
  }
  return text.replace(/\r\n/g, '\n').trim();
}

/** The text/plain and text/html parts of a multipart/alternative body, as nodemailer writes one. */
function parts(boundary: string, body: string): { text: string; html: string } {
  const found = { text: '', html: '' };
  for (const part of body.split(`--${boundary}`).slice(1)) {
    if (part.startsWith('--')) break;
    const [head = '', ...rest] = part.replace(/^\r?\n/, '').split(/\r?\n\r?\n/);
    const headers = head.replace(/\r?\n[ \t]+/g, ' ');
    const decoded = decodeBody(headers, rest.join('\n\n'));
    if (/content-type:\s*text\/html/i.test(headers)) found.html = decoded;
    else if (/content-type:\s*text\/plain/i.test(headers)) found.text = decoded;
  }
  return found;
}

/** Unfolds and decodes the little of RFC 5322 the tests read: Subject, Cc and the plain (and HTML) body. */
function parse(raw: string): { subject: string; cc: string[]; text: string; html: string } {
  const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
  const headers = head.replace(/\r?\n[ \t]+/g, ' ');
  const cc = (/^cc:\s*(.*)$/im.exec(headers)?.[1] ?? '')
    .split(',')
    .map((a) => (/<([^>]*)>/.exec(a)?.[1] ?? a).trim())
    .filter(Boolean);
  const subjectLine = /^subject:\s*(.*)$/im.exec(headers)?.[1] ?? '';
  // nodemailer encodes non-ASCII subjects as =?UTF-8?Q?…?= words
  const subject = subjectLine.replace(/=\?utf-8\?([qb])\?([^?]*)\?=\s*/gi, (_m, enc: string, data: string) =>
    enc.toLowerCase() === 'b'
      ? Buffer.from(data, 'base64').toString('utf8')
      : Buffer.from(
          data.replace(/_/g, ' ').replace(/=([0-9a-f]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))),
          'latin1',
        ).toString('utf8'),
  );
  const boundary = /content-type:\s*multipart\/[a-z]+;[^\r\n]*boundary="?([^";\r\n]+)"?/i.exec(headers)?.[1];
  if (boundary) return { subject, cc, ...parts(boundary, rest.join('\n\n')) };
  return { subject, cc, text: decodeBody(headers, rest.join('\n\n')), html: '' };
}

export async function startMailServer(): Promise<MailServer> {
  const received: ReceivedMail[] = [];
  const refusals = { count: 0, code: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (refusals.count > 0) {
          refusals.count -= 1;
          const err = Object.assign(new Error(refusals.code >= 500 ? 'Mailbox unavailable' : 'Try again later'), {
            responseCode: refusals.code,
          });
          callback(err);
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          ...parse(raw),
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    refuse(count, code) {
      refusals.count = count;
      refusals.code = code;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
