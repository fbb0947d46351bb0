import { open, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { WebinCliContext } from './manifest';

/**
 * What Webin-CLI says of a run: the errors its report files and console give, where a validation leaves its reports,
 * and the analysis accession a submission was given.
 */

/** a report of a large, badly formed FASTA holds an error per line; its beginning says enough */
const REPORT_READ_LIMIT = 1024 * 1024;
/** A report or console line Webin-CLI gives an error in: `ERROR: …`, in its log after a timestamp. */
const ERROR_LINE = /^(?:\d{4}-\d\d-\d\dT\S*\s+)?ERROR\s*:(.*)$/;
const ANALYSIS_ACCESSION = /\bERZ\d+\b/;

/** Webin-CLI's name for a submission's folder: the name's spaces and other unsafe characters become single `_`. */
function safeDirName(name: string): string {
  let safe = name
    .trim()
    .replace(/[^a-zA-Z0-9_.-]/g, '_')
    .replace(/_+/g, '_');
  if (safe.length > 1 && safe.startsWith('_')) safe = safe.slice(1);
  if (safe.length > 1 && safe.endsWith('_')) safe = safe.slice(0, -1);
  return safe;
}

export const validationDir = (outputDir: string, context: WebinCliContext, name: string) =>
  path.join(outputDir, context, safeDirName(name), 'validate');

/** The `<file>.report` files of a validation, in name order. */
export async function reportsIn(dir: string): Promise<string[]> {
  try {
    const names = await readdir(dir);
    return names
      .filter((n) => n.endsWith('.report'))
      .sort()
      .map((n) => path.join(dir, n));
  } catch {
    return [];
  }
}

/** The errors a report gives, or none when it cannot be read (it is read only to explain a failure already known). */
export async function errorsInFile(file: string): Promise<string[]> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(file, 'r');
    const buffer = Buffer.alloc(REPORT_READ_LIMIT);
    const { bytesRead } = await handle.read(buffer, 0, REPORT_READ_LIMIT, 0);
    return errorsIn(buffer.subarray(0, bytesRead).toString('utf8'));
  } catch {
    return [];
  } finally {
    await handle?.close();
  }
}

export function errorsIn(text: string): string[] {
  const errors: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const message = ERROR_LINE.exec(line.trim())?.[1]?.trim();
    if (message) errors.push(message);
  }
  return errors;
}

/**
 * The analysis accession of Webin-CLI's closing line, "… The following analysis accession was assigned to the
 * submission: ERZ…" (a test submission's says so first); any ERZ it printed when the wording changes.
 */
export function accessionIn(output: string): string | null {
  const lines = output.split(/\r?\n/).reverse();
  const closing = lines.find((l) => l.includes('accession was assigned') && ANALYSIS_ACCESSION.test(l));
  for (const line of closing ? [closing] : lines) {
    const found = ANALYSIS_ACCESSION.exec(line);
    if (found) return found[0];
  }
  return null;
}
