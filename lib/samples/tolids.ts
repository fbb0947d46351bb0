import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Db } from '@/db/client';
import { idsOf } from '@/db/rows';
import { samples, specimens } from '@/db/schema';
import { SvcIdSchema } from '@/lib/identifiers/contract';
import { isoSecond } from '@/lib/jobs/backoff';
import type { JobQueue } from '@/lib/jobs/queue';
import { jobSpec } from '@/lib/jobs/spec';
import { byUploader, tellUploaders } from '@/lib/mail/messages';
import type { MailContext } from '@/lib/mail/outbox';
import { tellApprovers } from '@/lib/mail/registration-stops';
import { specimenFields } from '@/lib/repositories/ena';
import { RepositoryError } from '@/lib/repositories/errors';
import type { TolidAnswer, TolidClient } from '@/lib/repositories/tolid';
import { newSampleId } from './columns';
import {
  lockRegistrable,
  nameWithTolid,
  type RegistrationQueue,
  routeApprovedSamples,
  setStatus,
  specimenKey,
  TOLID_RETRY_MS,
} from './registration';

/**
 * The `tolids.request` job (docs/tol-manifests.md §3.3): asks the ToLID service for the specimens of samples waiting in
 * `awaiting_tolid`. An approved ToLID becomes the specimen's public name and that of all its samples (one system
 * audit record each), and the waiting samples go on to registration; a pending request keeps them waiting, asked
 * again later; a rejected one rejects them with the service's reason. An unreachable service is tried again later.
 */

export interface TolidDeps {
  db: Db;
  logger: Logger;
  /** null when TOLID_TOKEN is unset */
  tolid: () => TolidClient | null;
  registration: RegistrationQueue;
  mail: MailContext;
}

// an unreachable service is asked again sooner than a curator is
const OUTAGE_RETRY_MS = 10 * 60 * 1000;

type Waiting = typeof samples.$inferSelect;

const at = isoSecond;

export async function requestTolids(deps: TolidDeps, sampleIds: string[]): Promise<void> {
  const { db } = deps;
  const waiting = await db
    .select()
    .from(samples)
    .where(and(inArray(samples.id, sampleIds), eq(samples.status, 'awaiting_tolid')));
  if (!waiting.length) return;
  const client = deps.tolid();
  if (!client) {
    // the token was removed since: registration goes on without ToLIDs
    await db.transaction(async (tx) => {
      const rows = await lockRegistrable(tx, inArray(samples.id, idsOf(waiting)));
      await routeApprovedSamples(tx, { ...deps.registration, tolidConfigured: false }, rows, null);
    });
    return;
  }

  const bySpecimen = new Map<string, Waiting[]>();
  for (const r of waiting) {
    const key = specimenKey(r.project, r.specimenId ?? '');
    let group = bySpecimen.get(key);
    if (!group) {
      group = [];
      bySpecimen.set(key, group);
    }
    group.push(r);
  }
  const targets = await targetsOf(db, waiting);
  const asked = [...bySpecimen].flatMap(([key, rows]) => {
    const target = targets.get(key) ?? rows[0];
    return target ? [{ key, rows, specimenId: target.specimenId ?? '', taxonId: target.taxonId ?? '', target }] : [];
  });

  let answers: TolidAnswer[];
  try {
    answers = await client.request(asked.map((a) => ({ specimenId: a.specimenId, taxonId: a.taxonId })));
  } catch (err) {
    if (!(err instanceof RepositoryError)) throw err;
    const next = new Date(Date.now() + OUTAGE_RETRY_MS);
    deps.logger.warn({ err, samples: waiting.length }, 'the ToLID service could not be reached; asking again later');
    await db
      .update(samples)
      .set({ statusDetail: `The ToLID service could not be reached (${err.message}); next try at ${at(next)}.`, nextAttemptAt: next })
      .where(inArray(samples.id, idsOf(waiting)));
    return;
  }

  await db.transaction(async (tx) => {
    // samples deleted (or decided again) while the service answered are left out: their answer has nowhere to go
    const still = new Set(
      (
        await tx
          .select({ id: samples.id })
          .from(samples)
          .where(and(inArray(samples.id, idsOf(waiting)), eq(samples.status, 'awaiting_tolid')))
          .for('update')
      ).map((r) => r.id),
    );
    const ready: string[] = [];
    for (const [i, a] of asked.entries()) {
      const answer = answers[i];
      // the client answers each request it is given, in order
      if (!answer) throw new Error(`expected a ToLID answer for specimen ${a.specimenId}`);
      const rows = a.rows.filter((r) => still.has(r.id));
      if (!rows.length) continue;
      await saveSpecimenAnswer(tx, a.target, answer);
      if (answer.status === 'approved') {
        await nameSamples(tx, a.target.project, a.specimenId, answer.tolid);
        ready.push(...rows.map((r) => r.id));
      } else if (answer.status === 'pending') {
        const next = new Date(Date.now() + TOLID_RETRY_MS);
        await tx
          .update(samples)
          .set({
            statusDetail: `Waiting for a curator of the ToLID service to approve specimen ${a.specimenId} (taxon ${a.taxonId}); asked at ${at(new Date())}, asked again at ${at(next)}.`,
            nextAttemptAt: next,
          })
          .where(inArray(samples.id, idsOf(rows)));
      } else {
        const reason = `The ToLID service rejected specimen ${a.specimenId} (taxon ${a.taxonId}): ${answer.reason}`;
        await setStatus(tx, rows, 'rejected', reason);
        await tx
          .update(samples)
          .set({ rejectionReason: reason })
          .where(inArray(samples.id, idsOf(rows)));
        await tellUploaders(tx, deps.mail, byUploader(rows), { kind: 'registration_failed', reason, cause: 'tolid_rejected' });
        await tellApprovers(tx, deps.mail, rows, reason, 'tolid_rejected');
      }
    }
    if (!ready.length) return;
    // re-read: the ToLIDs were just written
    const rows = await lockRegistrable(tx, inArray(samples.id, ready));
    await routeApprovedSamples(tx, { ...deps.registration, tolidConfigured: false }, rows, null);
  });
}

/** Per specimen, the target sample whose taxon the ToLID is for (a symbiont shares its target's specimen). */
async function targetsOf(db: Db, rows: Waiting[]): Promise<Map<string, Waiting>> {
  const out = new Map<string, Waiting>();
  for (const r of rows) if ((r.symbiont ?? 'TARGET') === 'TARGET' && r.specimenId) out.set(specimenKey(r.project, r.specimenId), r);
  const missing = [...new Set(rows.flatMap((r) => (r.specimenId && !out.has(specimenKey(r.project, r.specimenId)) ? [r.specimenId] : [])))];
  if (missing.length) {
    const found = await db
      .select()
      .from(samples)
      .where(and(inArray(samples.specimenId, missing), sql`coalesce(${samples.symbiont}, 'TARGET') = 'TARGET'`));
    for (const r of found) {
      // found by specimen id, so it has one
      if (r.specimenId === null) continue;
      const key = specimenKey(r.project, r.specimenId);
      if (!out.has(key)) out.set(key, r);
    }
  }
  return out;
}

async function saveSpecimenAnswer(tx: Db, target: Waiting, answer: TolidAnswer) {
  // only samples with a specimen wait for its ToLID (tolidsOf in registration.ts)
  if (target.specimenId === null) throw new Error('expected the specimen id of a sample waiting for a ToLID');
  const tolid = answer.status === 'approved' ? answer.tolid : null;
  const state = {
    // the taxon the answer is for: a target whose taxon changes later needs a new ToLID
    taxonId: target.taxonId,
    tolidStatus: answer.status,
    tolidReason: answer.status === 'rejected' ? answer.reason : null,
    tolidAskedAt: sql`now()`,
    ...(tolid && { publicName: tolid }),
    timeUpdated: sql`now()`,
  };
  await tx
    .insert(specimens)
    .values({
      id: newSampleId(),
      project: target.project,
      specimenId: target.specimenId,
      profileId: target.profileId,
      fields: specimenFields(target.fields),
      ...state,
    })
    .onConflictDoUpdate({ target: [specimens.project, specimens.specimenId], set: state });
}

/** The ToLID as the public name of every sample of the specimen that has none yet, each with a system audit record. */
async function nameSamples(tx: Db, project: Waiting['project'], specimenId: string, tolid: string) {
  const unnamed = await lockRegistrable(
    tx,
    and(eq(samples.project, project), eq(samples.specimenId, specimenId), isNull(samples.publicName)),
  );
  await nameWithTolid(tx, unnamed, tolid);
}

/**
 * The give-up of `tolids.request`: its last run failed or its process died. The samples keep waiting and say why;
 * the registration sweep asks again once their next attempt is due (set when the request was sent).
 */
export async function giveUpTolids(db: Db, sampleIds: string[], reason: string): Promise<void> {
  const next = new Date(Date.now() + TOLID_RETRY_MS);
  await db
    .update(samples)
    .set({ statusDetail: `The ToLID request failed (${reason}); asked again at ${at(next)}.`, nextAttemptAt: next })
    .where(and(inArray(samples.id, sampleIds), eq(samples.status, 'awaiting_tolid')));
}

/** the samples waiting in awaiting_tolid for the ToLIDs of their specimens */
const RequestTolidsData = z.object({ sampleIds: z.array(SvcIdSchema) });

declare module '@/lib/jobs/contract' {
  interface JobDataByName {
    'tolids.request': z.infer<typeof RequestTolidsData>;
  }
}

/** `tolids.request`: ToLIDs for the specimens of samples waiting in awaiting_tolid. */
export const requestTolidsJob = jobSpec({
  name: 'tolids.request',
  label: 'ToLID request',
  data: RequestTolidsData,
  expireSeconds: 30 * 60,
  run: (deps: TolidDeps & { jobs: JobQueue }, data) => requestTolids(deps, data.sampleIds),
  giveUp: (deps, data, reason) => giveUpTolids(deps.db, data.sampleIds, reason),
  async reopen(tx, deps, data) {
    await deps.jobs.send('tolids.request', { sampleIds: data.sampleIds }, { tx });
    return `ToLID request for ${data.sampleIds.length} samples`;
  },
});
