import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '@/db/client';
import { one } from '@/db/rows';
import { samples, sampleUpdates, specimens, submissions, type TolProject } from '@/db/schema';
import { Conflict, NotFound } from '@/lib/errors';
import { nextTryDetail, outageDelaySeconds, outageOver } from '@/lib/jobs/backoff';
import { recordDeadLetter } from '@/lib/jobs/dead-letters';
import { FIRST_RUN, type JobQueue, type JobRun } from '@/lib/jobs/queue';
import { byUploader, tellUploaders } from '@/lib/mail/messages';
import type { MailContext } from '@/lib/mail/outbox';
import { currentDefinition, findDefinition } from '@/lib/manifests';
import { storedPermitNames } from '@/lib/permits/permits';
import { type EnaClient, enaMappingFromFields, type SampleSpec, specimenFields, tolSampleSpec } from '@/lib/repositories/ena';
import { isTransient, RepositoryError } from '@/lib/repositories/errors';
import { newSampleId } from '@/lib/samples/columns';
import { ENA_MODIFY_FIELD, type Registration } from '@/lib/samples/contract';
import {
  registrableColumns,
  registrationQueue,
  routeApprovedSamples,
  setStatus,
  specimenKey,
  WAITING_STATUSES,
} from '@/lib/samples/registration';
import { managesProject, type UserRecord } from '@/lib/users/users';
import { EnaRejected, type Registered, type SampleBatch, sendSamplesOnce } from './ena-once';
import { beginAttempt, finishSubmission } from './submissions';

type Sample = typeof samples.$inferSelect;

type RegistrationSettings = Parameters<typeof registrationQueue>[0];

export const ENA_SETTINGS_MISSING = 'ENA submission is not configured: set ENA_USERNAME and ENA_PASSWORD.';

/**
 * Retry registration (`sample/register`): approved samples the caller manages that are not registered yet, or
 * whose registration failed after approval (rejected by ENA or the ToLID service, or given up after an outage),
 * are sent on again. Idempotent: samples already in an open registration are answered with it, and two identical
 * requests at once make one registration (the rows are locked). 409, nothing queued, without a Webin account.
 */
export async function queueSampleRegistration(
  deps: { db: Db; jobs: JobQueue; config: RegistrationSettings },
  user: UserRecord,
  svcIds: string[],
): Promise<Registration[]> {
  const q = registrationQueue(deps.config, deps.jobs);
  if (!q.enaConfigured) throw Conflict(ENA_SETTINGS_MISSING);
  const ids = [...new Set(svcIds.map((s) => s.trim().toLowerCase()))];
  return deps.db.transaction(async (tx) => {
    const rows = await tx
      .select({ ...registrableColumns, approvals: samples.approvals })
      .from(samples)
      .where(inArray(samples.id, ids))
      .for('update');
    const mine = rows.filter((r) => managesProject(user, r.project));
    const missing = ids.filter((id) => !mine.some((r) => r.id === id));
    if (missing.length) throw NotFound(`No sample you manage with svc_id ${missing.join(', ')}`);
    const failedAfterApproval = (r: (typeof rows)[number]) => r.status === 'rejected' && Object.keys(r.approvals).length > 0;
    const notReady = mine.filter((r) => !WAITING_STATUSES.includes(r.status) && r.status !== 'sending' && !failedAfterApproval(r));
    if (notReady.length) {
      throw Conflict(
        `Only approved samples not yet registered, or whose registration failed, can be sent; ${notReady.map((r) => `${r.id} is ${r.status}`).join(', ')}.`,
      );
    }
    return routeApprovedSamples(tx, q, mine, user.id);
  });
}

export interface RegistrationDeps {
  db: Db;
  logger: Logger;
  ena: () => EnaClient;
  /** to schedule the next try after an outage */
  jobs: JobQueue;
  mail: MailContext;
}

/**
 * The `samples.register` job (tol-manifests.md §3.3): specimens first (one per SPECIMEN_ID), then the samples
 * linked to them, then accessions recorded on the samples with `system` audit records, all in one transaction.
 * New specimens and samples are sent with ADD + RELEASE; accessioned ones whose record changed (a correction
 * approved again) with MODIFY, through the same exactly-once protocol (lib/submissions/ena-once.ts). ENA's refusal
 * rejects the samples of the refused document with its reason, the public record staying as it was; an outage
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
    .where(sql`${samples.id} = any(${sql.param(rows.map((r) => r.id))}::text[])`);
  const ctx = { db, client: deps.ena(), submissionId, progress: { ...sub.progress } };
  const refused: Refusal[] = [];
  try {
    const specimenAccessions = await registerSpecimens(deps, ctx, rows);
    const registered = new Map<string, Registered>();
    const fresh = rows.filter((r) => !r.biosampleAccession);
    const changed = rows.filter((r) => r.biosampleAccession);
    const batches: [Sample[], SampleBatch][] = [
      [fresh, { action: 'ADD', progressKey: 'samples', specs: fresh.map((r) => sampleSpecOf(r, specimenAccessions)) }],
      [
        changed,
        {
          action: 'MODIFY',
          progressKey: 'samples_modified',
          specs: changed.map((r) => sampleSpecOf(r, specimenAccessions)),
          lastSubmission: new Map(changed.map((r) => [r.id, r.submissionAccession])),
        },
      ],
    ];
    for (const [batchRows, batch] of batches) {
      try {
        for (const [alias, reg] of await sendSamplesOnce(ctx, batch)) registered.set(alias, reg);
      } catch (err) {
        // one document refused leaves the other's samples registered
        if (!(err instanceof EnaRejected)) throw err;
        refused.push({ rows: batchRows, message: err.message });
      }
    }
    await recordAccessions(deps, submissionId, rows, registered, specimenAccessions, refused);
  } catch (err) {
    if (err instanceof EnaRejected || (err instanceof RepositoryError && !isTransient(err))) {
      await rejectSamples(deps, submissionId, rows, err.message, 'rejected');
      return;
    }
    if (isTransient(err)) {
      await deferRegistration(deps, sub, rows, err, run);
      return;
    }
    throw err;
  }
}

/** Samples of one document ENA refused, and its message. */
interface Refusal {
  rows: Sample[];
  message: string;
}

const waitingSamplesOf = (db: Db, sub: typeof submissions.$inferSelect) =>
  db
    .select()
    .from(samples)
    .where(and(sql`${samples.id} = any(${sql.param(sub.sampleIds)}::text[])`, sql`${samples.status} in ('processing', 'sending')`));

/**
 * The give-up of `samples.register`: its last run failed, or the process running it died. The samples are rejected
 * with the reason (their approvals kept, so `sample/register` sends them again) and the submission is failed.
 */
export async function giveUpRegistration(deps: Pick<RegistrationDeps, 'db' | 'mail'>, submissionId: string, reason: string): Promise<void> {
  const [sub] = await deps.db.select().from(submissions).where(eq(submissions.id, submissionId));
  if (!sub || !['pending', 'processing'].includes(sub.status)) return;
  const message = `The registration could not be completed (${reason}); send the samples again, or report it with the submission id ${sub.id}.`;
  await rejectSamples(deps, sub.id, await waitingSamplesOf(deps.db, sub), message, 'failed');
}

/**
 * ENA unreachable: the registration stays open, says why and when it is tried next, and its next run is queued with
 * that delay in the same transaction. After two days of outage it is given up like a failed job.
 */
async function deferRegistration(
  deps: RegistrationDeps,
  sub: typeof submissions.$inferSelect,
  rows: Sample[],
  err: RepositoryError,
  run: JobRun,
) {
  const { db } = deps;
  const ids = rows.map((r) => r.id);
  if (outageOver(sub.createdAt)) {
    const reason = `ENA could not be reached for two days (last: ${err.message}); retry the registration when ENA is back.`;
    deps.logger.error({ err, submission_id: sub.id }, 'sample registration gave up after the outage');
    await rejectSamples(deps, sub.id, rows, reason, 'failed');
    await recordDeadLetter(db, {
      jobId: run.jobId,
      name: 'samples.register',
      data: { submissionId: sub.id },
      reason,
      attempts: sub.attempts,
    });
    return;
  }
  deps.logger.warn({ err, submission_id: sub.id, attempt: sub.attempts }, 'ENA unavailable; registration deferred');
  const delay = outageDelaySeconds(sub.attempts);
  const detail = nextTryDetail('ENA', err.message, new Date(Date.now() + delay * 1000));
  await db.transaction(async (tx) => {
    await tx.update(submissions).set({ status: 'processing', error: detail, updatedAt: sql`now()` }).where(eq(submissions.id, sub.id));
    await tx
      .update(samples)
      .set({ status: 'processing', statusDetail: detail, nextAttemptAt: new Date(Date.now() + delay * 1000) })
      .where(inArray(samples.id, ids));
    await deps.jobs.send('samples.register', { submissionId: sub.id }, { tx, startAfterSeconds: delay });
  });
}

function mappingOf(project: TolProject, version: string) {
  return enaMappingFromFields((findDefinition(project, version) ?? currentDefinition(project)).fields);
}

/**
 * Each target sample's specimen (one per project and SPECIMEN_ID): created here when new and sent with ADD; sent
 * with MODIFY when it is accessioned and the specimen record the sample now gives differs from the one stored (a
 * corrected field, a new taxon and its new ToLID). Returns the specimens' BioSample accessions by specimen key.
 */
async function registerSpecimens(
  deps: RegistrationDeps,
  ctx: Parameters<typeof sendSamplesOnce>[0],
  rows: Sample[],
): Promise<Map<string, string>> {
  const { db } = deps;
  const accessions = new Map<string, string>();
  const targets = new Map<string, { sample: Sample; specimenId: string }>();
  for (const r of rows) {
    if (r.specimenId && (r.symbiont ?? 'TARGET') === 'TARGET' && !targets.has(specimenKey(r.project, r.specimenId))) {
      targets.set(specimenKey(r.project, r.specimenId), { sample: r, specimenId: r.specimenId });
    }
  }
  const adds: SampleSpec[] = [];
  const modifies: SampleSpec[] = [];
  const lastSubmission = new Map<string, string | null>();
  const aliasToKey = new Map<string, string>();
  const desiredFields = new Map<string, Record<string, string>>();
  for (const [key, { sample: r, specimenId }] of targets) {
    const fields = specimenFields(r.fields);
    await db
      .insert(specimens)
      .values({ id: newSampleId(), project: r.project, specimenId, profileId: r.profileId, taxonId: r.taxonId, fields })
      .onConflictDoNothing({ target: [specimens.project, specimens.specimenId] });
    const sp = one(
      await db
        .select()
        .from(specimens)
        .where(and(eq(specimens.project, r.project), eq(specimens.specimenId, specimenId))),
      'the specimen just inserted or found',
    );
    if (sp.biosampleAccession) {
      accessions.set(key, sp.biosampleAccession);
      if (sameFields(sp.fields, fields)) continue;
    }
    aliasToKey.set(sp.id, key);
    desiredFields.set(sp.id, fields);
    // ERGA: the specimen's record names its permits, by the names they are stored under (tol-manifests.md §3.3)
    const permits = await storedPermitNames(db, r.profileId, r.fields);
    const spec = tolSampleSpec(
      {
        alias: sp.id,
        project: r.project.toUpperCase(),
        fields,
        title: `${sp.id}-${r.project.toUpperCase()}-specimen`,
        tolid: sp.publicName ?? r.publicName ?? undefined,
        extraAttributes: permits.map((p) => ({ tag: `${p.kind.toLowerCase()} permits filename`, value: p.storedName })),
      },
      mappingOf(r.project, r.manifestVersion),
    );
    if (sp.biosampleAccession) {
      modifies.push(spec);
      lastSubmission.set(sp.id, sp.submissionAccession);
    } else {
      adds.push(spec);
    }
  }
  const added = await sendSamplesOnce(ctx, { action: 'ADD', progressKey: 'specimens', specs: adds });
  const modified = await sendSamplesOnce(ctx, { action: 'MODIFY', progressKey: 'specimens_modified', specs: modifies, lastSubmission });
  for (const [alias, reg] of [...added, ...modified]) {
    const acc = reg.biosampleAccession ?? reg.accession;
    await db
      .update(specimens)
      .set({
        fields: desiredFields.get(alias),
        biosampleAccession: acc,
        sraAccession: reg.accession,
        submissionAccession: reg.submissionAccession,
        timeUpdated: sql`now()`,
      })
      .where(eq(specimens.id, alias));
    // the answer holds only the aliases sent, each of which has its key
    const key = aliasToKey.get(alias);
    if (key !== undefined) accessions.set(key, acc);
  }
  return accessions;
}

/** The same specimen record: every field of either has the same value in the other. */
function sameFields(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) if ((a[k] ?? '') !== (b[k] ?? '')) return false;
  return true;
}

/** Links to the specimen (same as / derived from) and, for symbionts, to the target's specimen. */
function relationsOf(r: Sample, specimenAccessions: Map<string, string>) {
  const specimen = r.specimenId ? specimenAccessions.get(specimenKey(r.project, r.specimenId)) : undefined;
  if (!specimen) return {};
  if ((r.symbiont ?? 'TARGET') === 'SYMBIONT') return { sampleSymbiontOf: specimen };
  const parts = (r.fields.ORGANISM_PART ?? '').toUpperCase();
  return parts === 'WHOLE_ORGANISM' ? { sampleSameAs: specimen } : { sampleDerivedFrom: specimen };
}

function sampleSpecOf(r: Sample, specimenAccessions: Map<string, string>): SampleSpec {
  return tolSampleSpec(
    {
      alias: r.id,
      project: r.project.toUpperCase(),
      fields: r.fields,
      title: `${r.id}-${r.project.toUpperCase()}`,
      tolid: r.publicName ?? undefined,
      symbiont: r.project === 'asg' ? (r.symbiont ?? 'TARGET') === 'SYMBIONT' : undefined,
      ...relationsOf(r, specimenAccessions),
    },
    mappingOf(r.project, r.manifestVersion),
  );
}

async function recordAccessions(
  deps: Pick<RegistrationDeps, 'db' | 'mail'>,
  submissionId: string,
  rows: Sample[],
  registered: Map<string, Registered>,
  specimenAccessions: Map<string, string>,
  refused: Refusal[],
): Promise<void> {
  const refusedIds = new Set(refused.flatMap((f) => f.rows.map((r) => r.id)));
  const accepted = rows.filter((r) => !refusedIds.has(r.id));
  const summary: Record<string, { biosampleAccession: string; sraAccession: string }> = {};
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
      summary[r.id] = { biosampleAccession: next.biosampleAccession ?? '', sraAccession: next.sraAccession ?? '' };
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
}

/**
 * ENA refused the samples (the submission `rejected`), or registration gave up (`failed`): the samples are rejected
 * with the reason, in one transaction with the submission.
 */
async function rejectSamples(
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
