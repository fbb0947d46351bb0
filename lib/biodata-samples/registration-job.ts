import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '@/db/client';
import { idsOf } from '@/db/rows';
import { biodataSamples, submissions } from '@/db/schema';
import { Conflict } from '@/lib/errors';
import type { JobQueue, JobRun } from '@/lib/jobs/queue';
import { type RowJobData, rowJobSpec } from '@/lib/jobs/row-job';
import { FIRST_RUN } from '@/lib/jobs/spec';
import type { EnaClient } from '@/lib/repositories/ena';
import { isTransient, RepositoryError, RepositoryRefused } from '@/lib/repositories/errors';
import type { SampleChecklist } from '@/lib/sample-checklists/contract';
import { findChecklist } from '@/lib/sample-checklists/store';
import { deferSubmission } from '@/lib/submissions/deferral';
import { type Registered, type SendContext, sendSamples } from '@/lib/submissions/registration/send';
import { beginAttempt, finishSubmission } from '@/lib/submissions/submissions';
import { recordOutcome, refuseAll } from './outcome';
import { queueBiodataRegistration } from './queue';
import { biodataSampleSpec } from './sample-spec';

/**
 * Registration of biodata samples at ENA (POST /api/sample/register, or a confirmed change of a registered one): no
 * approval, the owner or a contributor of the profile sends them. One SAMPLE_SET per release date, each sample with
 * its checklist as ENA-CHECKLIST and its fields as attributes (units in UNITS), through the exactly-once protocol
 * (lib/repositories/ena/once.ts): ADD with HOLD until the day the researcher set, or RELEASE; a registered sample's
 * change with MODIFY. The BioSample and ERS accessions come back onto the samples; ENA's refusal onto the samples it
 * names, in its words.
 */

type Sample = typeof biodataSamples.$inferSelect;

export interface BiodataRegistrationDeps {
  db: Db;
  jobs: JobQueue;
  logger: Logger;
  ena: () => EnaClient;
}

/**
 * The `biodata-samples.register` job: the samples of the registration still `processing`, new ones with ADD (one
 * document per release date), registered ones with MODIFY. An unreachable ENA defers it (lib/jobs/backoff.ts); an
 * error of our own is thrown, so the queue runs it again, and its last run's give-up refuses the samples with why.
 */
export async function runBiodataRegistration(deps: BiodataRegistrationDeps, submissionId: string, run: JobRun = FIRST_RUN): Promise<void> {
  const { db } = deps;
  const sub = await beginAttempt(db, submissionId);
  if (!sub) return;
  const rows = await sendingSamplesOf(db, sub.sampleIds);
  if (!rows.length) {
    await finishSubmission(db, submissionId, { status: 'rejected', error: 'None of the samples is waiting for registration any more.' });
    return;
  }
  const checklists = new Map<string, SampleChecklist>();
  for (const id of new Set(rows.map((r) => r.checklistId))) checklists.set(id, await findChecklist(db, id));
  const specOf = (r: Sample) => ({
    spec: biodataSampleSpec(r, checklists.get(r.checklistId) as SampleChecklist),
    lastSubmission: r.submissionAccession,
  });
  const ctx: SendContext = { db, client: deps.ena(), submissionId, progress: { ...sub.progress } };
  const registered = new Map<string, Registered>();
  const refused: { rows: Sample[]; messages: readonly string[] }[] = [];
  const batches: { action: 'ADD' | 'MODIFY'; rows: Sample[]; holdUntil?: string }[] = [];
  const fresh = rows.filter((r) => !r.biosampleAccession);
  for (const day of new Set(fresh.map((r) => r.releaseDate ?? ''))) {
    batches.push({ action: 'ADD', rows: fresh.filter((r) => (r.releaseDate ?? '') === day), holdUntil: day || undefined });
  }
  batches.push({ action: 'MODIFY', rows: rows.filter((r) => r.biosampleAccession) });
  try {
    for (const batch of batches) {
      if (!batch.rows.length) continue;
      try {
        const sent = await sendSamples(ctx, 'samples', batch.action, batch.rows.map(specOf), { holdUntil: batch.holdUntil });
        for (const [alias, reg] of sent) registered.set(alias, reg);
      } catch (err) {
        // one document refused leaves the others' samples registered
        if (!(err instanceof RepositoryRefused)) throw err;
        refused.push({ rows: batch.rows, messages: err.messages });
      }
    }
    await recordOutcome(db, submissionId, rows, registered, refused);
  } catch (err) {
    if (isTransient(err)) {
      await deferSubmission(deps, sub, err, run, {
        service: 'ENA',
        job: 'biodata-samples.register',
        again: 'register the samples again',
        giveUp: (reason) => refuseAll(db, submissionId, rows, reason, 'failed'),
        alsoInTransaction: async (tx, detail) => {
          await tx
            .update(biodataSamples)
            .set({ statusDetail: detail })
            .where(inArray(biodataSamples.id, idsOf(rows)));
        },
      });
      return;
    }
    // ENA's refusal of all of it, or an answer it will give again
    if (err instanceof RepositoryError) {
      await refuseAll(db, submissionId, rows, err.message, 'rejected');
      return;
    }
    throw err;
  }
}

const sendingSamplesOf = (db: Db, ids: string[]) =>
  db
    .select()
    .from(biodataSamples)
    .where(and(inArray(biodataSamples.id, ids.length ? ids : ['']), eq(biodataSamples.status, 'processing')));

/** The give-up: the last run failed, or its process died. The samples are refused with why, so that they can be sent again. */
export async function giveUpBiodataRegistration(db: Db, submissionId: string, reason: string): Promise<void> {
  const [sub] = await db.select().from(submissions).where(eq(submissions.id, submissionId));
  if (!sub || !['pending', 'processing'].includes(sub.status)) return;
  const message = `The registration could not be completed (${reason}); register the samples again, or report it with the submission id ${sub.id}.`;
  await refuseAll(db, sub.id, await sendingSamplesOf(db, sub.sampleIds), message, 'failed');
}

declare module '@/lib/jobs/contract' {
  interface JobDataByName {
    'biodata-samples.register': RowJobData<'submissionId'>;
  }
}

/** `biodata-samples.register`: one registration of a profile's checklist samples at ENA. */
export const registerBiodataSamplesJob = rowJobSpec({
  name: 'biodata-samples.register',
  key: 'submissionId',
  label: 'Registration of checklist samples at ENA',
  expireSeconds: 2 * 60 * 60,
  open: sql`select id::text as id from submissions where kind = 'biodata_samples' and status in ('pending', 'processing')`,
  run: (deps: BiodataRegistrationDeps, submissionId, run) => runBiodataRegistration(deps, submissionId, run),
  giveUp: (deps, submissionId, reason) => giveUpBiodataRegistration(deps.db, submissionId, reason),
  // the samples the registration refused go into a new one
  async reopen(tx, deps, submissionId) {
    const [sub] = await tx.select().from(submissions).where(eq(submissions.id, submissionId));
    if (!sub) throw Conflict('The registration no longer exists.');
    const rows = await tx
      .select({ id: biodataSamples.id })
      .from(biodataSamples)
      .where(and(inArray(biodataSamples.id, sub.sampleIds.length ? sub.sampleIds : ['']), eq(biodataSamples.status, 'refused')))
      .for('update');
    if (!rows.length) throw Conflict('None of its samples is waiting for registration; they were sent again since.');
    const queued = await queueBiodataRegistration(tx, deps.jobs, {
      profileId: sub.profileId,
      sampleIds: rows.map((r) => r.id),
      userId: sub.createdBy,
    });
    return `registration ${queued.submission_id} (${queued.samples} samples)`;
  },
});
