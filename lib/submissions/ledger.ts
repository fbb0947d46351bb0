import type { Db } from '@/db/client';
import type { OnceLedger } from '@/lib/repositories/ena';
import type { SubmissionProgress } from './contract';
import { addReceipt, recordProgress } from './submissions';

export type EnaLedgerName = keyof NonNullable<SubmissionProgress['ena_sent']>;

/**
 * The last write of each run's progress, by the object the run keeps it in: documents sent at the same time each
 * write the whole ledger, everything sent so far, so each write waits for the one before it and none overtakes it.
 */
const lastWrite = new WeakMap<SubmissionProgress, Promise<void>>();

/**
 * A ledger of ENA's exactly-once protocol (lib/repositories/ena/once.ts) kept in a submission: what was sent in
 * `progress.ena_sent[name]`, ENA's answers as rows of its history (submission_receipts). `progress` is the
 * submission's progress as the run read it, kept current as the ledger writes (one run holds a submission at a time).
 */
export function enaLedger(
  db: Db,
  submissionId: string,
  progress: SubmissionProgress,
  name: EnaLedgerName,
  /** what the answers are about, in the submission's history, when not its main objects (`reads`) */
  objects?: string,
): OnceLedger {
  const entry = () => progress.ena_sent?.[name] ?? {};
  return {
    added: () => new Set(entry().added ?? []),
    modified: () => entry().modified ?? {},
    async recordSent(sent) {
      const now = entry();
      const next =
        'added' in sent
          ? { ...now, added: [...new Set([...(now.added ?? []), ...sent.added])] }
          : { ...now, modified: { ...now.modified, ...sent.modified } };
      progress.ena_sent = { ...progress.ena_sent, [name]: next };
      const written = { ena_sent: progress.ena_sent };
      const write = (lastWrite.get(progress) ?? Promise.resolve())
        .catch(() => undefined)
        .then(() => recordProgress(db, submissionId, { progress: written }));
      lastWrite.set(progress, write);
      await write;
    },
    recordAnswer: (kind, receipt, alias) =>
      recordProgress(db, submissionId, {
        receipt:
          kind === 'RECEIPT'
            ? { kind, alias, success: receipt.success, errors: receipt.errors, xml: receipt.xml }
            : addReceipt(receipt, objects ? { objects } : {}, kind),
      }),
  };
}
