import type { SchemaName } from '@/lib/checklists/contract';
import { isSchemaName } from '@/lib/checklists/labels';
import type { ReportEntry, StudyUploadResult } from '@/lib/studies/contract';

const CHECKLIST_ID = /^[A-Za-z0-9_.-]{1,200}$/;

/**
 * A study upload's outcome kept in the page's URL, so that a reload (or the address sent to a colleague) shows the same
 * report: study uploads are answered in the request and stored nowhere (docs/architecture.md, departure 5). It lives
 * in the fragment, which never reaches the server (no header limit), deflated and base64url-encoded: a report of a few
 * hundred problems stays a few kilobytes.
 */

export type KeptUpload =
  | { state: 'saved'; file: string; result: StudyUploadResult }
  | { state: 'invalid'; file: string; errors: ReportEntry[]; warnings: ReportEntry[] };

export interface KeptReport {
  schema: SchemaName;
  /** the checklist it was checked against */
  checklist?: string;
  upload: KeptUpload;
}

const KEY = 'study-report=';

async function through(bytes: Uint8Array, stream: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const out = new Blob([bytes as BlobPart]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(out).arrayBuffer());
}

const toBase64Url = (bytes: Uint8Array) => {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return (
    btoa(s)
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      // base64 pads with at most two
      .replace(/={1,2}$/, '')
  );
};

const fromBase64Url = (text: string) => {
  const s = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
};

/** The fragment that holds this report (without '#'). */
export async function reportFragment(report: KeptReport): Promise<string> {
  const packed = await through(new TextEncoder().encode(JSON.stringify(report)), new CompressionStream('deflate-raw'));
  return `${KEY}${toBase64Url(packed)}`;
}

/** The report a fragment holds, or null when it holds none (or one that cannot be read: an edited or cut address). */
export async function reportFromFragment(hash: string): Promise<KeptReport | null> {
  const fragment = hash.replace(/^#/, '');
  if (!fragment.startsWith(KEY)) return null;
  try {
    const bytes = await through(fromBase64Url(fragment.slice(KEY.length)), new DecompressionStream('deflate-raw'));
    const report = JSON.parse(new TextDecoder().decode(bytes)) as KeptReport;
    // anyone can write an address: what it names is only trusted as far as the page uses it to build requests, so
    // its schema must be one of the service's and its checklist an identifier
    if (!isSchemaName(report.schema)) return null;
    if (report.checklist !== undefined && (typeof report.checklist !== 'string' || !CHECKLIST_ID.test(report.checklist))) return null;
    return report.upload && typeof report.upload.file === 'string' ? report : null;
  } catch {
    return null;
  }
}
