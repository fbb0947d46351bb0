import { and, eq, inArray, or, sql } from 'drizzle-orm';
import { isAnyOf } from '@/db/any-of';
import type { Db } from '@/db/client';
import { idsOf } from '@/db/rows';
import { samples, submissions } from '@/db/schema';
import { Conflict } from '@/lib/errors';
import { FIRST_RUN, type JobRun } from '@/lib/jobs/queue';
import { type RowJobData, rowJobSpec } from '@/lib/jobs/row-job';
import { isTransient, RepositoryError } from '@/lib/repositories/errors';
import { STOPPED_AT_ENA } from '@/lib/samples/contract';
import { lockRegistrable, type RegistrationQueue, routeApprovedSamples } from '@/lib/samples/registration';
import { deferSubmission } from '../deferral';
import { beginAttempt, finishSubmission } from '../submissions';
import type { RegistrationDeps } from './deps';
import { type Refusal, recordAccessions, rejectSamples } from './outcome';
import { type Registered, registerSpecimens, type SendContext, sampleSpecOf, sendDocuments } from './send';

type Sample = typeof samples.$inferSelect;

export type { RegistrationDeps } from './deps';

/**
 * The `samples.register` job (docs/tol-manifests.md §3.3): specimens first (one per SPECIMEN_ID), then the samples
 * linked to them, then accessions recorded on the samples with `system` audit records, all in one transaction.
 * New specimens and samples are sent with ADD + RELEASE; accessioned ones whose record changed (a correction
 * approved again) with MODIFY, through the same exactly-once protocol (lib/repositories/ena/once.ts). ENA's refusal
 * makes the samples of the refused document `refused`, its message on the submission and in their history, the
 * public record staying as it was; an outage
 * defers the work (lib/jobs/backoff.ts); an error of our own is thrown, so the queue runs it again, and its last
 * run's give-up (giveUpRegistration) ends it.
 */
export async function runSampleRegistration(deps: RegistrationDeps, submissionId: string, run: JobRun = FIRST_RUN): Promise<void> {
  const { db } = deps;
  const sub = await beginAttempt(db, submissionId);
  if (!sub) return;
  const rows = await waitingSamplesOf(db, sub);
  if (!rows.length) {
    await finishSubmission(db, submissionId, { status: 'rejected', error: 'None of the samples is waiting for registration any more.' });
    return;
  }
  await db
    .update(samples)
    .set({ status: 'sending' })
    .where(isAnyOf(samples.id, idsOf(rows)));
  const ctx: SendContext = { db, client: deps.ena(), submissionId, progress: { ...sub.progress } };
  const refused: Refusal[] = [];
  try {
    const specimenAccessions = await registerSpecimens(deps, ctx, rows);
    const registered = new Map<string, Registered>();
    const fresh = rows.filter((r) => !r.biosampleAccession);
    const changed = rows.filter((r) => r.biosampleAccession);
    for (const [action, batchRows] of [
      ['ADD', fresh],
      ['MODIFY', changed],
    ] as const) {
      const specs = batchRows.map((r) => ({ spec: sampleSpecOf(r, specimenAccessions), lastSubmission: r.submissionAccession }));
      const sent = await sendDocuments(ctx, 'samples', action, specs);
      for (const [alias, reg] of sent.registered) registered.set(alias, reg);
      // a document refused leaves the others' samples registered
      for (const { aliases, refusal } of sent.refused) {
        const named = new Set(aliases);
        refused.push({ rows: batchRows.filter((r) => named.has(r.id)), message: refusal.message });
      }
    }
    await recordAccessions(deps, submissionId, rows, registered, specimenAccessions, refused);
  } catch (err) {
    if (isTransient(err)) {
      await deferRegistration(deps, sub, rows, err, run);
      return;
    }
    // ENA's refusal, or an answer it will give again
    if (err instanceof RepositoryError) {
      await rejectSamples(deps, submissionId, rows, err.message, 'rejected');
      return;
    }
    throw err;
  }
}

const waitingSamplesOf = (db: Db, sub: typeof submissions.$inferSelect) =>
  db
    .select()
    .from(samples)
    .where(and(isAnyOf(samples.id, sub.sampleIds), sql`${samples.status} in ('processing', 'sending')`));

/**
 * The give-up of `samples.register`: its last run failed, or the process running it died. The samples and the
 * submission are failed with the reason (the samples' approvals kept, so `sample/register` sends them again).
 */
export async function giveUpRegistration(deps: Pick<RegistrationDeps, 'db' | 'mail'>, submissionId: string, reason: string): Promise<void> {
  const [sub] = await deps.db.select().from(submissions).where(eq(submissions.id, submissionId));
  if (!sub || !['pending', 'processing'].includes(sub.status)) return;
  const message = `The registration could not be completed (${reason}); send the samples again, or report it with the submission id ${sub.id}.`;
  await rejectSamples(deps, sub.id, await waitingSamplesOf(deps.db, sub), message, 'failed');
}

/** ENA unreachable: the registration waits with back-off (./deferral.ts), its samples saying why and until when. */
const deferRegistration = (
  deps: RegistrationDeps,
  sub: typeof submissions.$inferSelect,
  rows: Sample[],
  err: RepositoryError,
  run: JobRun,
) =>
  deferSubmission(deps, sub, err, run, {
    service: 'ENA',
    job: 'samples.register',
    again: 'retry the registration',
    giveUp: (reason) => rejectSamples(deps, sub.id, rows, reason, 'failed'),
    alsoInTransaction: async (tx, detail, nextAttemptAt) => {
      await tx
        .update(samples)
        .set({ status: 'processing', statusDetail: detail, nextAttemptAt })
        .where(inArray(samples.id, idsOf(rows)));
    },
  });

declare module '@/lib/jobs/contract' {
  interface JobDataByName {
    'samples.register': RowJobData<'submissionId'>;
  }
}

/** `samples.register`: one batch of approved samples (and their specimens) at ENA. */
export const registerSamplesJob = rowJobSpec({
  name: 'samples.register',
  key: 'submissionId',
  label: 'Registration of samples at ENA',
  expireSeconds: 2 * 60 * 60,
  open: sql`select id::text as id from submissions where kind = 'samples' and status in ('pending', 'processing')`,
  run: (deps: RegistrationDeps & { registration: RegistrationQueue }, submissionId, run) => runSampleRegistration(deps, submissionId, run),
  giveUp: (deps, submissionId, reason) => giveUpRegistration(deps, submissionId, reason),
  // the samples still refused or failed, or rejected after approval, go into a new registration: the ones a retry can take
  async reopen(tx, deps, submissionId) {
    const [sub] = await tx.select().from(submissions).where(eq(submissions.id, submissionId));
    if (!sub) throw Conflict('The registration no longer exists.');
    const rows = await lockRegistrable(
      tx,
      and(
        inArray(samples.id, sub.sampleIds.length ? sub.sampleIds : ['']),
        or(inArray(samples.status, [...STOPPED_AT_ENA]), and(eq(samples.status, 'rejected'), sql`${samples.approvals} <> '{}'::jsonb`)),
      ),
    );
    if (!rows.length) throw Conflict('None of its samples is waiting for registration; they were sent again or decided since.');
    const queued = await routeApprovedSamples(tx, deps.registration, rows, null);
    return queued.map((q) => `registration ${q.submission_id} (${q.samples} samples)`).join(', ') || `${rows.length} samples waiting`;
  },
});
