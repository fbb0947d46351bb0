import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Db } from '@/db/client';
import { biodataSamples, biodataSampleUpdates, submissions } from '@/db/schema';
import { Conflict, Invalid } from '@/lib/errors';
import { UuidSchema } from '@/lib/identifiers/contract';
import type { JobQueue, JobRun } from '@/lib/jobs/queue';
import { FIRST_RUN, jobSpec } from '@/lib/jobs/spec';
import { getProfile } from '@/lib/profiles/profiles';
import type { EnaClient, SampleSpec } from '@/lib/repositories/ena';
import { isTransient, RepositoryError, RepositoryRefused } from '@/lib/repositories/errors';
import type { SampleChecklist } from '@/lib/sample-checklists/contract';
import { findChecklist } from '@/lib/sample-checklists/store';
import type { Registration } from '@/lib/samples/contract';
import { deferSubmission } from '@/lib/submissions/deferral';
import { type Registered, type SendContext, sendSamples } from '@/lib/submissions/registration/send';
import { beginAttempt, finishSubmission } from '@/lib/submissions/submissions';
import type { UserRecord } from '@/lib/users/users';
import { unitColumn } from './contract';
import { queueBiodataRegistration } from './queue';

/**
 * Registration of biodata samples at ENA (POST /api/sample/register, or a confirmed change of a registered one): no
 * approval, the owner or a contributor of the profile sends them. One SAMPLE_SET per release date, each sample with
 * its checklist as ENA-CHECKLIST and its fields as attributes (units in UNITS), through the exactly-once protocol
 * (lib/repositories/ena/once.ts): ADD with HOLD until the day the researcher set, or RELEASE; a registered sample's
 * change with MODIFY. The BioSample and ERS accessions come back onto the samples; ENA's refusal onto the samples it
 * names, in its words.
 */

type Sample = typeof biodataSamples.$inferSelect;

const ENA_SETTINGS_MISSING = 'ENA submission is not configured: set ENA_USERNAME and ENA_PASSWORD.';
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The latest release date ENA takes: two years from today. */
const latestRelease = (now: Date) =>
  new Date(Date.UTC(now.getUTCFullYear() + 2, now.getUTCMonth(), now.getUTCDate())).toISOString().slice(0, 10);

/** Checks a release date a researcher asks for: a day after today and within ENA's two years. */
export function checkReleaseDate(value: string, now = new Date()): string {
  const today = now.toISOString().slice(0, 10);
  if (!DAY.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) {
    throw Invalid(`release_date ${value} is not a date: give YYYY-MM-DD.`, [{ path: 'release_date', message: 'a date, YYYY-MM-DD' }]);
  }
  if (value <= today) {
    throw Invalid(`release_date ${value} is not after today: leave it out to make the samples public once registered.`, [
      { path: 'release_date', message: 'a day after today' },
    ]);
  }
  if (value > latestRelease(now)) {
    throw Invalid(`release_date ${value} is more than two years ahead, which ENA does not hold samples for.`, [
      { path: 'release_date', message: 'at most two years ahead' },
    ]);
  }
  return value;
}

/**
 * Queues the registration of a caller's confirmed (or refused) biodata samples, one per profile. Samples already on
 * their way are answered with their registration (`created: false`); registered ones are refused (409) naming them.
 */
export async function registerBiodataSamples(
  deps: { db: Db; jobs: JobQueue; config: { ENA_USERNAME?: string; ENA_PASSWORD?: string } },
  user: UserRecord,
  rows: Sample[],
  releaseDate?: string,
): Promise<Registration[]> {
  if (!deps.config.ENA_USERNAME || !deps.config.ENA_PASSWORD) throw Conflict(ENA_SETTINGS_MISSING);
  const holdUntil = releaseDate === undefined ? null : checkReleaseDate(releaseDate);
  const byProfile = new Map<string, Sample[]>();
  for (const r of rows) byProfile.set(r.profileId, [...(byProfile.get(r.profileId) ?? []), r]);
  // who may add to the profile registers its samples; a viewer is told so, anyone else sees no such sample
  for (const profileId of byProfile.keys()) await getProfile(deps.db, user, profileId, 'contribute');
  const registered = rows.filter((r) => r.status === 'accepted');
  if (registered.length) {
    throw Conflict(
      `Already registered at ENA: ${registered.map((r) => `${r.alias} (${r.biosampleAccession})`).join(', ')}. A change to a registered sample is sent when its sheet is confirmed.`,
    );
  }
  return deps.db.transaction(async (tx) => {
    const locked = await tx
      .select()
      .from(biodataSamples)
      .where(
        inArray(
          biodataSamples.id,
          rows.map((r) => r.id),
        ),
      )
      .for('update');
    const answers: Registration[] = [];
    const sending = locked.filter((r) => r.status === 'processing');
    for (const sub of await openRegistrationsOf(
      tx,
      sending.map((r) => r.id),
    ))
      answers.push({ ...sub, created: false });
    const waiting = new Map<string, string[]>();
    for (const r of locked.filter((x) => x.status === 'confirmed' || x.status === 'refused')) {
      waiting.set(r.profileId, [...(waiting.get(r.profileId) ?? []), r.id]);
    }
    for (const [profileId, sampleIds] of waiting) {
      answers.push(await queueBiodataRegistration(tx, deps.jobs, { profileId, sampleIds, userId: user.id, releaseDate: holdUntil }));
    }
    return answers;
  });
}

async function openRegistrationsOf(db: Db, ids: string[]): Promise<Omit<Registration, 'created'>[]> {
  if (!ids.length) return [];
  const open = await db
    .select({ id: submissions.id, sampleIds: submissions.sampleIds })
    .from(submissions)
    .where(
      and(
        eq(submissions.kind, 'biodata_samples'),
        sql`${submissions.status} in ('pending', 'processing')`,
        sql`${submissions.sampleIds} && ${sql.param(ids)}::text[]`,
      ),
    );
  return open.map((s) => ({ submission_id: s.id, samples: s.sampleIds.filter((id) => ids.includes(id)).length }));
}

/** The SAMPLE of a biodata sample: its checklist's fields, in the checklist's order, as attributes. */
export function biodataSampleSpec(sample: Sample, checklist: SampleChecklist): SampleSpec {
  const attributes: SampleSpec['attributes'] = [{ tag: 'ENA-CHECKLIST', value: checklist.enaChecklistId }];
  for (const f of checklist.fields) {
    if (f.role) continue;
    const value = sample.fields[f.name]?.trim();
    if (!value) continue;
    const units = f.units?.length ? sample.fields[unitColumn(f.name)] : undefined;
    attributes.push({ tag: f.name, value, ...(units && { units }) });
  }
  return { alias: sample.id, title: sample.alias, taxonId: sample.taxonId, scientificName: sample.scientificName, attributes };
}

export interface BiodataRegistrationDeps {
  db: Db;
  jobs: JobQueue;
  logger: Logger;
  ena: () => EnaClient;
}

/** ENA's messages about one sample: those naming its alias, else every message (a refusal of the whole document). */
function messagesFor(alias: string, messages: readonly string[]): string {
  const own = messages.filter((m) => m.includes(alias));
  return (own.length ? own : messages).join(' ');
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
            .where(
              inArray(
                biodataSamples.id,
                rows.map((r) => r.id),
              ),
            );
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

/** Accessions onto the samples ENA took (with a `system` history row each), ENA's words onto those it refused. */
async function recordOutcome(
  db: Db,
  submissionId: string,
  rows: Sample[],
  registered: Map<string, Registered>,
  refused: { rows: Sample[]; messages: readonly string[] }[],
): Promise<void> {
  await db.transaction(async (tx) => {
    const summary: Record<string, { biosampleAccession: string; sraAccession: string; alias: string }> = {};
    for (const r of rows) {
      const reg = registered.get(r.id);
      if (!reg) continue;
      const next = { biosampleAccession: reg.biosampleAccession ?? r.biosampleAccession, sraAccession: reg.accession };
      await tx
        .update(biodataSamples)
        .set({
          ...next,
          submissionAccession: reg.submissionAccession ?? null,
          status: 'accepted',
          statusDetail: null,
          timeUpdated: sql`now()`,
        })
        .where(eq(biodataSamples.id, r.id));
      const history = [
        { field: 'biosampleAccession', oldValue: r.biosampleAccession, newValue: next.biosampleAccession },
        { field: 'sraAccession', oldValue: r.sraAccession, newValue: next.sraAccession },
        { field: 'status', oldValue: r.status, newValue: 'accepted' },
      ].filter((h) => h.oldValue !== h.newValue);
      if (history.length)
        await tx.insert(biodataSampleUpdates).values(history.map((h) => ({ sampleId: r.id, updateType: 'system' as const, ...h })));
      summary[r.id] = { biosampleAccession: next.biosampleAccession ?? '', sraAccession: next.sraAccession, alias: r.alias };
    }
    for (const f of refused) for (const r of f.rows) await refuseRow(tx, r, messagesFor(r.id, f.messages));
    const refusedCount = refused.reduce((n, f) => n + f.rows.length, 0);
    await tx
      .update(submissions)
      .set({
        status: refusedCount ? 'rejected' : 'accepted',
        accessions: { samples: summary },
        error: refusedCount
          ? `ENA refused ${refusedCount} of ${rows.length} samples: ${refused.flatMap((f) => f.messages).join(' ')}`
          : null,
        finishedAt: sql`now()`,
        updatedAt: sql`now()`,
      })
      .where(eq(submissions.id, submissionId));
  });
}

/** A sample ENA refused (or whose registration gave up): refused, with the reason, its accessions kept. */
async function refuseRow(tx: Db, r: Sample, message: string): Promise<void> {
  await tx
    .update(biodataSamples)
    .set({ status: 'refused', statusDetail: message, timeUpdated: sql`now()` })
    .where(eq(biodataSamples.id, r.id));
  await tx
    .insert(biodataSampleUpdates)
    .values({ sampleId: r.id, updateType: 'system', field: 'status', oldValue: r.status, newValue: 'refused' });
}

async function refuseAll(db: Db, submissionId: string, rows: Sample[], message: string, outcome: 'rejected' | 'failed'): Promise<void> {
  await db.transaction(async (tx) => {
    for (const r of rows) await refuseRow(tx, r, message);
    await finishSubmission(tx, submissionId, { status: outcome, error: message });
  });
}

/** The give-up: the last run failed, or its process died. The samples are refused with why, so that they can be sent again. */
export async function giveUpBiodataRegistration(db: Db, submissionId: string, reason: string): Promise<void> {
  const [sub] = await db.select().from(submissions).where(eq(submissions.id, submissionId));
  if (!sub || !['pending', 'processing'].includes(sub.status)) return;
  const message = `The registration could not be completed (${reason}); register the samples again, or report it with the submission id ${sub.id}.`;
  await refuseAll(db, sub.id, await sendingSamplesOf(db, sub.sampleIds), message, 'failed');
}

/** The biodata samples among the ids given (the others may be Tree of Life samples). */
export const biodataSamplesIn = (db: Db, svcIds: string[]): Promise<Sample[]> =>
  db
    .select()
    .from(biodataSamples)
    .where(inArray(biodataSamples.id, svcIds.length ? svcIds : ['']));

const RegisterData = z.object({ submissionId: UuidSchema });

declare module '@/lib/jobs/contract' {
  interface JobDataByName {
    'biodata-samples.register': z.infer<typeof RegisterData>;
  }
}

/** `biodata-samples.register`: one registration of a profile's checklist samples at ENA. */
export const registerBiodataSamplesJob = jobSpec({
  name: 'biodata-samples.register',
  label: 'Registration of checklist samples at ENA',
  data: RegisterData,
  expireSeconds: 2 * 60 * 60,
  run: (deps: BiodataRegistrationDeps, data, run) => runBiodataRegistration(deps, data.submissionId, run),
  giveUp: (deps, data, reason) => giveUpBiodataRegistration(deps.db, data.submissionId, reason),
  openWork: {
    key: 'submissionId',
    open: sql`select id::text as id from submissions where kind = 'biodata_samples' and status in ('pending', 'processing')`,
  },
  // the samples the registration refused go into a new one
  async reopen(tx, deps, data) {
    const [sub] = await tx.select().from(submissions).where(eq(submissions.id, data.submissionId));
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
