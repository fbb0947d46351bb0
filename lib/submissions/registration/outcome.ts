import { eq, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { lotsOf } from '@/db/rows';
import { samples, sampleUpdates, submissions } from '@/db/schema';
import { byUploader, tellUploaders } from '@/lib/mail/messages';
import type { MailContext } from '@/lib/mail/outbox';
import { tellApprovers } from '@/lib/mail/registration-stops';
import { changeOf } from '@/lib/samples/columns';
import { ENA_MODIFY_FIELD, ENA_REFUSAL_FIELD, REGISTRATION_FAILURE_FIELD } from '@/lib/samples/contract';
import { REFUSED_BY_ENA, recordSystemChange, setStatus } from '@/lib/samples/registration';
import type { SampleAccessions } from '../contract';
import { finishSubmission } from '../submissions';
import type { RegistrationDeps } from './deps';
import { type Registered, relationsOf } from './send';

type Sample = typeof samples.$inferSelect;

/** What an accepted sample's row holds after its registration. */
type AcceptedColumns = Pick<
  Sample,
  'biosampleAccession' | 'sraAccession' | 'submissionAccession' | 'sampleDerivedFrom' | 'sampleSameAs' | 'sampleSymbiontOf'
> & { status: 'accepted' };

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
  const changes: { r: Sample; next: AcceptedColumns; audit: { field: string; oldValue: string; newValue: string }[] }[] = [];
  for (const r of accepted) {
    const reg = registered.get(r.id);
    const next: AcceptedColumns = {
      biosampleAccession: reg ? (reg.biosampleAccession ?? r.biosampleAccession ?? null) : r.biosampleAccession,
      sraAccession: reg ? reg.accession : r.sraAccession,
      submissionAccession: reg?.submissionAccession ?? r.submissionAccession,
      sampleDerivedFrom: null,
      sampleSameAs: null,
      sampleSymbiontOf: null,
      ...relationsOf(r, specimenAccessions),
      status: 'accepted',
    };
    const audit: { field: string; oldValue: string; newValue: string }[] = (Object.keys(next) as (keyof typeof next)[])
      .map((field) => ({ field, oldValue: (r[field] as string | null) ?? '', newValue: (next[field] as string | null) ?? '' }))
      .filter((a) => a.oldValue !== a.newValue);
    // an accessioned sample sent again was sent with MODIFY: its history names the receipt ENA answered with
    if (r.biosampleAccession && reg) {
      audit.push({ field: ENA_MODIFY_FIELD, oldValue: r.submissionAccession ?? '', newValue: reg.submissionAccession ?? '' });
    }
    changes.push({ r, next, audit });
    // with the labels people know the sample by, so that the receipt names it by its tube and specimen
    summary[r.id] = {
      biosampleAccession: next.biosampleAccession ?? '',
      sraAccession: next.sraAccession ?? '',
      tube: r.tubeOrWellId ?? '',
      specimen: r.specimenId ?? '',
    };
  }
  await deps.db.transaction(async (tx) => {
    // a statement per lot of samples, not one per sample: the registration's own work after ENA's last answer grows
    // with its size, while Webin's calls do not
    for (const lot of lotsOf(changes)) {
      const column = (pick: (n: AcceptedColumns) => string | null) => sql.param(lot.map((c) => pick(c.next)));
      await tx.execute(sql`
        update ${samples} set
          biosample_accession = v.biosample, sra_accession = v.sra, submission_accession = v.submission,
          sample_derived_from = v.derived_from, sample_same_as = v.same_as, sample_symbiont_of = v.symbiont_of,
          status = 'accepted', rejection_reason = null, status_detail = null, next_attempt_at = null, time_updated = now()
        from unnest(
          ${sql.param(lot.map((c) => c.r.id))}::text[],
          ${column((n) => n.biosampleAccession)}::text[],
          ${column((n) => n.sraAccession)}::text[],
          ${column((n) => n.submissionAccession)}::text[],
          ${column((n) => n.sampleDerivedFrom)}::text[],
          ${column((n) => n.sampleSameAs)}::text[],
          ${column((n) => n.sampleSymbiontOf)}::text[]
        ) as v(id, biosample, sra, submission, derived_from, same_as, symbiont_of)
        where ${samples.id} = v.id`);
    }
    const audit = changes.flatMap(({ r, audit }) => audit.map((a) => ({ ...changeOf(r, 'system'), ...a })));
    for (const lot of lotsOf(audit)) await tx.insert(sampleUpdates).values(lot);
    for (const f of refused) await stopRows(tx, deps.mail, f.rows, f.message, 'rejected');
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
 * Samples ENA refused (`rejected`: the submission's word for it), or whose registration gave up (`failed`), and
 * their uploaders and approvers told. ENA's refusal makes them `refused`, a give-up `failed`: states of their own,
 * with nothing for the uploader to upload again, as a sample manager retries (approvals kept). The reason (ENA's
 * message, said once for the batch elsewhere) is in each sample's history. An accessioned sample keeps its
 * accessions either way: ENA still holds the record as it was.
 */
async function stopRows(tx: Db, mail: MailContext, rows: Sample[], message: string, outcome: 'rejected' | 'failed') {
  const refused = outcome === 'rejected';
  await setStatus(tx, rows, refused ? 'refused' : 'failed', refused ? REFUSED_BY_ENA : message);
  if (rows.length) await recordSystemChange(tx, rows, refused ? ENA_REFUSAL_FIELD : REGISTRATION_FAILURE_FIELD, () => '', message);
  const cause = refused ? 'ena_refused' : 'gave_up';
  await tellUploaders(tx, mail, byUploader(rows), { kind: 'registration_failed', reason: message, cause });
  await tellApprovers(tx, mail, rows, message, cause);
}

/**
 * ENA refused the samples (the submission `rejected`, the samples `refused`), or registration gave up (both
 * `failed`), in one transaction with the submission.
 */
export async function rejectSamples(
  deps: Pick<RegistrationDeps, 'db' | 'mail'>,
  submissionId: string,
  rows: Sample[],
  message: string,
  outcome: 'rejected' | 'failed',
) {
  await deps.db.transaction(async (tx) => {
    await stopRows(tx, deps.mail, rows, message, outcome);
    await finishSubmission(tx, submissionId, { status: outcome, error: message });
  });
}
