import type { Db } from '@/db/client';
import { crashPoint } from '@/lib/crash-points';
import type { EnaClient, EnaReceipt, SampleSpec } from '@/lib/repositories/ena';
import type { SubmissionProgress } from './contract';
import { addReceipt, recordProgress } from './submissions';

/**
 * ENA's exactly-once protocol for Tree of Life samples and specimens. A document is sent at most once per object
 * and action, whatever crashes in between:
 *
 * - the aliases are written to the submission's progress before the document is sent, so a run that finds them
 *   there knows an earlier run may have sent it;
 * - such a run asks ENA with RECEIPT what became of each alias instead of sending again. For an ADD the object's
 *   existence is the answer; for a MODIFY, a receipt naming a submission other than the one that last acted on the
 *   object before (recorded with the alias) shows the MODIFY was applied;
 * - an "already exists" answer to an ADD is resolved through RECEIPT the same way.
 *
 * ENA's refusal is an `EnaRejected`: the caller rejects the samples with its message; anything else is thrown for
 * the caller's outage handling or the queue's retry.
 */

export interface Registered {
  accession: string;
  biosampleAccession?: string;
  /** the ENA submission that created or last modified the object */
  submissionAccession?: string;
}

/** ENA refused the document, or answered without the accessions it should carry. */
export class EnaRejected extends Error {}

type AddKey = 'specimens' | 'samples';
type ModifyKey = 'specimens_modified' | 'samples_modified';

export type SampleBatch =
  | { action: 'ADD'; progressKey: AddKey; specs: SampleSpec[] }
  | {
      action: 'MODIFY';
      progressKey: ModifyKey;
      specs: SampleSpec[];
      /** per alias, the ENA submission that last acted on the object (its stored submissionAccession) */
      lastSubmission: Map<string, string | null>;
    };

interface Context {
  db: Db;
  client: EnaClient;
  submissionId: string;
  /** the submission's progress as the run found it */
  progress: SubmissionProgress;
}

function accessionsIn(receipt: EnaReceipt, alias: string): Registered | undefined {
  const obj = receipt.byAlias.SAMPLE?.[alias];
  if (!obj?.accession) return undefined;
  return { accession: obj.accession, biosampleAccession: obj.biosampleAccession, submissionAccession: receipt.submission?.accession };
}

async function askReceipt(ctx: Context, alias: string): Promise<EnaReceipt> {
  const receipt = await ctx.client.fetchReceipt(alias);
  await recordProgress(ctx.db, ctx.submissionId, {
    receipt: { kind: 'RECEIPT', alias, success: receipt.success, errors: receipt.errors, xml: receipt.xml },
  });
  return receipt;
}

/** Sends one batch of samples (or specimens) exactly once; returns what ENA holds for each alias. */
export async function sendSamplesOnce(ctx: Context, batch: SampleBatch): Promise<Map<string, Registered>> {
  const found = new Map<string, Registered>();
  if (!batch.specs.length) return found;

  // 1. what an earlier run may have sent
  if (batch.action === 'ADD') {
    const sentBefore = new Set(ctx.progress[batch.progressKey] ?? []);
    for (const s of batch.specs) {
      if (!sentBefore.has(s.alias)) continue;
      const reg = accessionsIn(await askReceipt(ctx, s.alias), s.alias);
      if (reg) found.set(s.alias, reg);
    }
  } else {
    const sentBefore = ctx.progress[batch.progressKey] ?? {};
    for (const s of batch.specs) {
      const before = sentBefore[s.alias];
      // without the submission that acted before there is nothing to tell an applied MODIFY by: send it again
      if (!before) continue;
      const reg = accessionsIn(await askReceipt(ctx, s.alias), s.alias);
      if (reg?.submissionAccession && reg.submissionAccession !== before) found.set(s.alias, reg);
    }
  }
  const toSend = batch.specs.filter((s) => !found.has(s.alias));
  if (!toSend.length) return found;

  // 2. written before sending: a crash after this point resumes through RECEIPT, never a second document
  const progress: SubmissionProgress =
    batch.action === 'ADD'
      ? { [batch.progressKey]: [...new Set([...(ctx.progress[batch.progressKey] ?? []), ...toSend.map((s) => s.alias)])] }
      : {
          [batch.progressKey]: {
            ...ctx.progress[batch.progressKey],
            ...Object.fromEntries(toSend.map((s) => [s.alias, batch.lastSubmission.get(s.alias) ?? ''])),
          },
        };
  await recordProgress(ctx.db, ctx.submissionId, { progress });
  Object.assign(ctx.progress, progress);

  // 3. send; ADD releases at once (Tree of Life samples are public), MODIFY keeps the object's release state
  const actions = batch.action === 'ADD' ? [{ type: 'ADD' as const }, { type: 'RELEASE' as const }] : [{ type: 'MODIFY' as const }];
  const receipt = await ctx.client.submit({ submission: { actions }, samples: toSend });
  await crashPoint('registration:ena-answered');
  await recordProgress(ctx.db, ctx.submissionId, { receipt: addReceipt(receipt, {}, batch.action) });
  if (receipt.outcome === 'rejected') throw new EnaRejected(receipt.errors.join(' ') || 'ENA rejected the submission.');
  for (const s of toSend) {
    const reg = accessionsIn(receipt, s.alias);
    if (reg) found.set(s.alias, reg);
  }
  if (batch.action === 'ADD') {
    for (const e of receipt.existing) {
      if (e.type !== 'SAMPLE' || found.has(e.alias)) continue;
      const reg = accessionsIn(await askReceipt(ctx, e.alias), e.alias);
      if (reg) found.set(e.alias, reg);
    }
  } else if (receipt.outcome === 'alias_exists') {
    throw new EnaRejected(receipt.errors.join(' '));
  }
  const unresolved = toSend.filter((s) => !found.has(s.alias));
  if (unresolved.length) throw new EnaRejected(`ENA returned no accession for ${unresolved.map((s) => s.alias).join(', ')}.`);
  return found;
}
