import { eq, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { samples, sampleUpdates, submissions } from '@/db/schema';
import { byUploader, tellApprovers, tellUploaders } from '@/lib/mail/messages';
import type { MailContext } from '@/lib/mail/outbox';
import { ENA_MODIFY_FIELD } from '@/lib/samples/contract';
import { setStatus } from '@/lib/samples/registration';
import type { SampleAccessions } from '../contract';
import { finishSubmission } from '../submissions';
import type { RegistrationDeps } from './deps';
import { type Registered, relationsOf } from './send';

type Sample = typeof samples.$inferSelect;
/** Samples of one document ENA refused, and its message. */
export interface Refusal {
  rows: Sample[];
  message: string;
}

export async function recordAccessions(
  deps: Pick<RegistrationDeps, 'db' | 'mail'>,
  submissionId: string,
  rows: Sample[],
  registered: Map<string, Registered>,
  specimenAccessions: Map<string, string>,
  refused: Refusal[],
): Promise<void> {
  const refusedIds = new Set(refused.flatMap((f) => f.rows.map((r) => r.id)));
  const accepted = rows.filter((r) => !refusedIds.has(r.id));
  const summary: Record<string, SampleAccessions> = {};
  await deps.db.transaction(async (tx) => {
    for (const r of accepted) {
      const reg = registered.get(r.id);
      const next = {
        biosampleAccession: reg ? (reg.biosampleAccession ?? r.biosampleAccession ?? null) : r.biosampleAccession,
        sraAccession: reg ? reg.accession : r.sraAccession,
        submissionAccession: reg?.submissionAccession ?? r.submissionAccession,
        sampleDerivedFrom: null as string | null,
        sampleSameAs: null as string | null,
        sampleSymbiontOf: null as string | null,
        ...relationsOf(r, specimenAccessions),
        status: 'accepted' as const,
      };
      const audit: { field: string; oldValue: string; newValue: string }[] = (Object.keys(next) as (keyof typeof next)[])
        .map((field) => ({ field, oldValue: (r[field] as string | null) ?? '', newValue: (next[field] as string | null) ?? '' }))
        .filter((a) => a.oldValue !== a.newValue);
      // an accessioned sample sent again was sent with MODIFY: its history names the receipt ENA answered with
      if (r.biosampleAccession && reg) {
        audit.push({ field: ENA_MODIFY_FIELD, oldValue: r.submissionAccession ?? '', newValue: reg.submissionAccession ?? '' });
      }
      await tx
        .update(samples)
        .set({ ...next, rejectionReason: null, statusDetail: null, nextAttemptAt: null, timeUpdated: sql`now()` })
        .where(eq(samples.id, r.id));
      if (audit.length) {
        await tx
          .insert(sampleUpdates)
          .values(
            audit.map((a) => ({ sampleId: r.id, manifestId: r.manifestId, project: r.project, updateType: 'system' as const, ...a })),
          );
      }
      // with the labels people know the sample by, so that the receipt names it by its tube and specimen
      summary[r.id] = {
        biosampleAccession: next.biosampleAccession ?? '',
        sraAccession: next.sraAccession ?? '',
        tube: r.tubeOrWellId ?? '',
        specimen: r.specimenId ?? '',
      };
    }
    for (const f of refused) await rejectRows(tx, deps.mail, f.rows, f.message);
    const error = refused.length
      ? `ENA refused ${refusedIds.size} of ${rows.length} samples: ${refused.map((f) => f.message).join(' ')}`
      : null;
    await tx
      .update(submissions)
      .set({
        status: refused.length ? 'rejected' : 'accepted',
        accessions: { samples: summary, specimens: Object.fromEntries(specimenAccessions) },
        error,
        finishedAt: sql`now()`,
        updatedAt: sql`now()`,
      })
      .where(eq(submissions.id, submissionId));
    if (accepted.length) {
      const accessions = new Map(Object.entries(summary).map(([id, a]) => [id, a.biosampleAccession]));
      await tellUploaders(tx, deps.mail, byUploader(accepted), { kind: 'samples_registered', accessions });
    }
  });
}

/**
 * Samples ENA refused, or whose registration gave up: rejected with the reason (an accessioned sample keeps its
 * accessions: ENA still holds the record as it was before the refused change), and their uploaders told.
 */
async function rejectRows(tx: Db, mail: MailContext, rows: Sample[], message: string) {
  await setStatus(tx, rows, 'rejected', message, null, message);
  await tellUploaders(tx, mail, byUploader(rows), { kind: 'registration_failed', reason: message });
  await tellApprovers(tx, mail, rows, message);
}

/**
 * ENA refused the samples (the submission `rejected`), or registration gave up (`failed`): the samples are rejected
 * with the reason, in one transaction with the submission.
 */
export async function rejectSamples(
  deps: Pick<RegistrationDeps, 'db' | 'mail'>,
  submissionId: string,
  rows: Sample[],
  message: string,
  outcome: 'rejected' | 'failed',
) {
  await deps.db.transaction(async (tx) => {
    await rejectRows(tx, deps.mail, rows, message);
    await finishSubmission(tx, submissionId, { status: outcome, error: message });
  });
}
