import { type CrashPoint, crashPoint } from '@/lib/crash-points';
import { RepositoryRefused } from '../errors';
import { type EnaClient, SAMPLE_REPORT_LOT } from './client';
import type { EnaReceipt, ReceiptObject, ReceiptObjectType } from './receipt';
import type { SubmissionAction, WebinDocument } from './types';

/**
 * ENA's exactly-once protocol, for every document the broker sends (samples and specimens, a study's project, its
 * reads): an object is created at most once per action, whatever crashes in between.
 *
 * 1. Before sending, the aliases go into a ledger the caller keeps with its work (a submission's progress): for an
 *    ADD the aliases, for a MODIFY each alias with the ENA submission that last acted on the object.
 * 2. A run that finds aliases in the ledger may follow one that sent them and died before keeping ENA's answer.
 *    - Samples (an ADD whose objects are all SAMPLEs) are simply sent again, in one document: Webin applies a
 *      document whole or not at all, and refuses an ADD of an alias the account holds, naming each such object with
 *      its accession. The refused document created nothing; the objects it named are read back from Webin's reports
 *      service, SAMPLE_REPORT_LOT accessions a call, for their BioSample accessions (docs/repositories.md §2.1). A
 *      resume of n samples costs one ADD and ⌈n / 100⌉ reports, not one RECEIPT per sample.
 *    - Other objects (a project, a study's runs), and a MODIFY, are asked about one by one with RECEIPT: for an ADD
 *      the object's existence is the answer; for a MODIFY, a receipt naming a submission other than the one recorded
 *      shows the MODIFY was applied. Without a recorded submission there is nothing to tell an applied MODIFY by, so
 *      it is sent again (a MODIFY sent twice leaves the same record).
 * 3. An ADD answered "already exists" (an answer lost on the way, then a retry) is resolved the same way.
 *
 * ENA's refusal is a `RepositoryRefused` with ENA's messages; an outage is the client's `RepositoryError`, for the
 * caller's back-off (lib/submissions/deferral.ts).
 */

/** One thing the caller sends: a sample, a specimen, a project, a read row (an EXPERIMENT and its RUN). */
export interface OnceItem {
  /** the caller's name for it (a sample's svc_id, a read row's id) */
  key: string;
  /** the ENA objects it is made of, each by its alias */
  objects: { type: ReceiptObjectType; alias: string }[];
  /** MODIFY: the ENA submission that last acted on the item (its stored submission accession), when known */
  lastSubmission?: string | null;
}

/** What ENA holds for an item: each of its objects as the receipt shows it, and the submission that acted. */
export interface OnceResult {
  objects: Record<string, ReceiptObject>;
  /** the ENA submission that created or last modified the item */
  submissionAccession?: string;
}

/** Where the caller keeps what was sent, and ENA's answers (both survive the process). */
export interface OnceLedger {
  /** aliases an earlier run sent with ADD */
  added(): ReadonlySet<string>;
  /** aliases an earlier run sent with MODIFY, with the submission that last acted on each before */
  modified(): Readonly<Record<string, string>>;
  /** written before sending */
  recordSent(sent: { added: string[] } | { modified: Record<string, string> }): Promise<void>;
  /** every answer ENA gave, RECEIPTs included, as the work's history keeps it */
  recordAnswer(kind: 'ADD' | 'MODIFY' | 'RECEIPT', receipt: EnaReceipt, alias?: string): Promise<void>;
}

export interface OnceBatch<Item extends OnceItem> {
  action: 'ADD' | 'MODIFY';
  items: Item[];
  /** the objects of these items, as the document's sets */
  document(items: Item[]): Omit<WebinDocument, 'submission'>;
  /** actions sent with the ADD or MODIFY (RELEASE for Tree of Life samples) */
  alsoActions?: SubmissionAction[];
  /** where the crash tests stop a process right after ENA answered */
  crashPoint?: CrashPoint;
}

function resultOf(receipt: EnaReceipt, item: OnceItem): OnceResult | undefined {
  const objects: Record<string, ReceiptObject> = {};
  for (const o of item.objects) {
    const found = receipt.byAlias[o.type]?.[o.alias];
    if (!found?.accession) return undefined;
    objects[o.alias] = found;
  }
  return { objects, submissionAccession: receipt.submission?.accession };
}

async function askReceipt(client: EnaClient, ledger: OnceLedger, item: OnceItem): Promise<OnceResult | undefined> {
  const objects: Record<string, ReceiptObject> = {};
  let submissionAccession: string | undefined;
  for (const o of item.objects) {
    const receipt = await client.fetchReceipt(o.alias);
    await ledger.recordAnswer('RECEIPT', receipt, o.alias);
    const found = receipt.byAlias[o.type]?.[o.alias];
    if (!found?.accession) return undefined;
    objects[o.alias] = found;
    submissionAccession ??= receipt.submission?.accession;
  }
  return { objects, submissionAccession };
}

/** Items made of samples only: what Webin's reports service can find again in lots. */
const samplesOnly = (items: OnceItem[]) => items.every((i) => i.objects.every((o) => o.type === 'SAMPLE'));

/**
 * The items of a refused ADD that Webin named as existing, found again: samples named with their accession in lots
 * from the reports service, anything else (or an old "already exists" wording without the accession) by RECEIPT.
 * The submission that created a sample is not in the report; its result has none.
 */
async function findExisting(
  client: EnaClient,
  ledger: OnceLedger,
  receipt: EnaReceipt,
  items: OnceItem[],
): Promise<Map<string, OnceResult>> {
  const named = new Map(receipt.existing.filter((e) => e.type === 'SAMPLE' && e.accession).map((e) => [e.alias, e.accession as string]));
  const reported = new Map<string, ReceiptObject>();
  const accessions = [...new Set(items.flatMap((i) => i.objects.flatMap((o) => (o.type === 'SAMPLE' ? (named.get(o.alias) ?? []) : []))))];
  for (let i = 0; i < accessions.length; i += SAMPLE_REPORT_LOT) {
    for (const o of await client.samplesByAccession(accessions.slice(i, i + SAMPLE_REPORT_LOT))) {
      if (o.accession && named.get(o.alias) === o.accession) reported.set(o.alias, o);
    }
  }
  const existing = new Set(receipt.existing.map((e) => e.alias));
  const found = new Map<string, OnceResult>();
  for (const item of items) {
    if (!item.objects.some((o) => existing.has(o.alias))) continue;
    const objects = item.objects.flatMap((o) => reported.get(o.alias) ?? []);
    const result =
      objects.length === item.objects.length
        ? { objects: Object.fromEntries(objects.map((o) => [o.alias, o])) }
        : await askReceipt(client, ledger, item);
    if (result) found.set(item.key, result);
  }
  return found;
}

/** Sends one batch exactly once; returns what ENA holds for each item, by its key. */
export async function sendOnce<Item extends OnceItem>(
  client: EnaClient,
  ledger: OnceLedger,
  batch: OnceBatch<Item>,
): Promise<Map<string, OnceResult>> {
  const found = new Map<string, OnceResult>();
  if (!batch.items.length) return found;

  // 1. what an earlier run may have sent: samples are sent again (and refused by name if they exist), the rest asked
  if (batch.action === 'ADD' && !samplesOnly(batch.items)) {
    const added = ledger.added();
    for (const item of batch.items) {
      if (!item.objects.some((o) => added.has(o.alias))) continue;
      const result = await askReceipt(client, ledger, item);
      if (result) found.set(item.key, result);
    }
  } else if (batch.action === 'MODIFY') {
    const modified = ledger.modified();
    for (const item of batch.items) {
      const before = modified[item.objects[0]?.alias ?? ''];
      if (!before) continue;
      const result = await askReceipt(client, ledger, item);
      if (result?.submissionAccession && result.submissionAccession !== before) found.set(item.key, result);
    }
  }
  const toSend = batch.items.filter((i) => !found.has(i.key));
  if (!toSend.length) return found;

  // 2. written before sending: a crash after this point resumes through step 1, never a second object
  if (batch.action === 'ADD') await ledger.recordSent({ added: toSend.flatMap((i) => i.objects.map((o) => o.alias)) });
  else await ledger.recordSent({ modified: Object.fromEntries(toSend.map((i) => [i.objects[0]?.alias ?? i.key, i.lastSubmission ?? ''])) });

  // 3. send; an ADD refused only because some objects exist already (an earlier run's, or an answer lost, then a
  // retry) had nothing applied: those are found again and the rest sent once more
  let pending = toSend;
  for (let round = 0; pending.length; round++) {
    const receipt = await client.submit({
      submission: { actions: [{ type: batch.action }, ...(batch.alsoActions ?? [])] },
      ...batch.document(pending),
    });
    if (batch.crashPoint) await crashPoint(batch.crashPoint);
    await ledger.recordAnswer(batch.action, receipt);
    const conflict = batch.action === 'ADD' && receipt.outcome === 'alias_exists' && round === 0;
    if (!receipt.success && !conflict) {
      throw new RepositoryRefused(
        'ena',
        receipt.errors.join(' ') || 'ENA refused the submission.',
        receipt.errors.length ? receipt.errors : undefined,
      );
    }
    const results = conflict ? await findExisting(client, ledger, receipt, pending) : undefined;
    for (const item of pending) {
      const result = results ? results.get(item.key) : resultOf(receipt, item);
      if (result) found.set(item.key, result);
    }
    if (!conflict) break;
    pending = pending.filter((i) => !found.has(i.key));
  }
  const unresolved = toSend.filter((i) => !found.has(i.key));
  if (unresolved.length) {
    throw new RepositoryRefused('ena', `ENA returned no accession for ${unresolved.map((i) => i.key).join(', ')}.`);
  }
  return found;
}
