import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { idsOf, one } from '@/db/rows';
import { type SampleStatus, samples, sampleUpdates, specimens, submissions } from '@/db/schema';
import type { Config } from '@/lib/config';
import type { JobQueue } from '@/lib/jobs/queue';
import { changeOf, sampleIdentityColumns } from './columns';
import type { ENA_REFUSAL_FIELD, REGISTRATION_FAILURE_FIELD, Registration } from './contract';

/**
 * Where an approved Tree of Life sample goes next (docs/tol-manifests.md §3.2–3.3), decided inside the transaction that
 * made it ready, with the job that takes it there queued in the same transaction:
 *
 *   approved ─┬─ its specimen has no ToLID yet (ToLID service configured) ─→ awaiting_tolid  + `tolids.request`
 *             ├─ no Webin account configured                               ─→ awaiting_ena   (queued when there is one)
 *             └─ otherwise                                                 ─→ processing     + `samples.register`
 *
 * A sample already in an open registration stays in it: asking twice makes one piece of work.
 */

export interface RegistrationQueue {
  jobs: JobQueue;
  /** a Webin account is configured */
  enaConfigured: boolean;
  /** the ToLID service is configured (TOLID_TOKEN) */
  tolidConfigured: boolean;
}

/** What the settings say about where approved samples can go. */
export const registrationQueue = (
  config: Pick<Config, 'ENA_USERNAME' | 'ENA_PASSWORD' | 'TOLID_TOKEN'>,
  jobs: JobQueue,
): RegistrationQueue => ({
  jobs,
  enaConfigured: Boolean(config.ENA_USERNAME && config.ENA_PASSWORD),
  tolidConfigured: Boolean(config.TOLID_TOKEN),
});

export type RegistrableSample = Pick<
  typeof samples.$inferSelect,
  'id' | 'profileId' | 'manifestId' | 'project' | 'status' | 'specimenId' | 'publicName' | 'taxonId' | 'symbiont'
>;

/** Approved samples that are not registered yet, and the statuses retry registration accepts. */
export const WAITING_STATUSES: readonly SampleStatus[] = ['processing', 'awaiting_ena', 'awaiting_tolid'];

export const ENA_NOT_CONFIGURED =
  'Waiting for ENA: this service has no Webin account yet (ENA_USERNAME and ENA_PASSWORD); the sample is sent as soon as one is configured.';

/**
 * What a sample ENA refused says of itself: ENA's message, which names every sample of the document, is said once
 * per registration (lib/submissions/refusals.ts) and kept in each sample's history, not repeated here.
 */
export const REFUSED_BY_ENA = 'ENA refused its registration; a sample manager sends it again once the cause in ENA’s message is fixed.';

export const specimenKey = (project: string, specimenId: string) => `${project}/${specimenId}`;

/** How long a ToLID request may go unanswered before the sweep asks again. */
export const TOLID_RETRY_MS = 60 * 60 * 1000;
export const tolidFallback = () => new Date(Date.now() + TOLID_RETRY_MS);

/**
 * Moves samples to `status` with an audit row for each that changes; `reason`, for a rejection, is what the uploader
 * is shown.
 */
export async function setStatus(
  tx: Db,
  rows: Pick<RegistrableSample, 'id' | 'manifestId' | 'project' | 'status'>[],
  status: SampleStatus,
  detail: string | null,
  nextAttemptAt: Date | null = null,
  reason: string | null = null,
): Promise<void> {
  if (!rows.length) return;
  await tx
    .update(samples)
    .set({
      status,
      statusDetail: detail,
      nextAttemptAt,
      // a sample sent on again (a retried registration) no longer carries the reason it failed
      ...(status !== 'rejected' ? { rejectionReason: null } : reason !== null ? { rejectionReason: reason } : {}),
      timeUpdated: sql`now()`,
    })
    .where(inArray(samples.id, idsOf(rows)));
  const changed = rows.filter((r) => r.status !== status);
  if (changed.length) {
    await recordSystemChange(tx, changed, 'status', (r) => r.status, status);
  }
  for (const r of rows) r.status = status;
}

/**
 * The audit trail of a change the service made itself (not a person) to one field of these samples, or of what it
 * was told of them (ENA's refusal, why a registration gave up: lib/samples/contract.ts).
 */
export async function recordSystemChange<Row extends Pick<RegistrableSample, 'id' | 'manifestId' | 'project'>>(
  tx: Db,
  rows: Row[],
  field: 'status' | 'public_name' | typeof ENA_REFUSAL_FIELD | typeof REGISTRATION_FAILURE_FIELD,
  oldValue: (r: Row) => string,
  newValue: string,
): Promise<void> {
  await tx.insert(sampleUpdates).values(
    rows.map((r) => ({
      ...changeOf(r, 'system'),
      field,
      oldValue: oldValue(r),
      newValue,
    })),
  );
}

/** Open registrations (queued or running) holding any of these samples, by sample. */
export async function openSubmissionsOf(tx: Db, ids: string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const open = await tx
    .select({ id: submissions.id, sampleIds: submissions.sampleIds })
    .from(submissions)
    .where(
      and(
        eq(submissions.kind, 'samples'),
        inArray(submissions.status, ['pending', 'processing']),
        sql`${submissions.sampleIds} && ${sql.param(ids)}::text[]`,
      ),
    );
  const bySample = new Map<string, string>();
  for (const s of open) for (const id of s.sampleIds) if (ids.includes(id)) bySample.set(id, s.id);
  return bySample;
}

/**
 * Of samples without a public name, those whose specimen already has a ToLID for their taxon (a later manifest of
 * the same specimen, or a sample whose name a re-upload cleared) take it over; the others need the ToLID service.
 * A target whose taxon changed since its specimen was named needs a new ToLID: the old one names another species.
 */
async function tolidsOf(tx: Db, rows: RegistrableSample[]): Promise<{ need: Set<string>; known: Map<string, string> }> {
  const need = new Set<string>();
  const known = new Map<string, string>();
  const unnamed = rows.filter((r): r is RegistrableSample & { specimenId: string } => Boolean(r.specimenId) && !r.publicName);
  if (!unnamed.length) return { need, known };
  const specimenRows = await tx
    .select({ project: specimens.project, specimenId: specimens.specimenId, publicName: specimens.publicName, taxonId: specimens.taxonId })
    .from(specimens)
    .where(inArray(specimens.specimenId, [...new Set(unnamed.map((r) => r.specimenId))]));
  const bySpecimen = new Map(specimenRows.map((s) => [specimenKey(s.project, s.specimenId), s]));
  for (const r of unnamed) {
    const specimen = bySpecimen.get(specimenKey(r.project, r.specimenId));
    const isTarget = (r.symbiont ?? 'TARGET') === 'TARGET';
    const sameTaxon = !isTarget || !specimen?.taxonId || !r.taxonId || specimen.taxonId === r.taxonId;
    if (specimen?.publicName && sameTaxon) known.set(r.id, specimen.publicName);
    else need.add(r.id);
  }
  return { need, known };
}

/** A ToLID as the public name of these samples, each with a system audit record. */
export async function nameWithTolid(tx: Db, rows: RegistrableSample[], tolid: string): Promise<void> {
  if (!rows.length) return;
  await tx
    .update(samples)
    .set({ publicName: tolid, timeUpdated: sql`now()` })
    .where(inArray(samples.id, idsOf(rows)));
  await recordSystemChange(tx, rows, 'public_name', (r) => r.publicName ?? '', tolid);
  for (const r of rows) r.publicName = tolid;
}

/**
 * Sends approved samples on their way (see the module comment), in the caller's transaction, whose rows the
 * caller has locked. Returns the registrations they are in.
 */
export async function routeApprovedSamples(
  tx: Db,
  q: RegistrationQueue,
  rows: RegistrableSample[],
  createdBy: number | null,
): Promise<Registration[]> {
  const inFlight = await openSubmissionsOf(tx, idsOf(rows));
  const existing = new Map<string, number>();
  for (const id of inFlight.values()) existing.set(id, (existing.get(id) ?? 0) + 1);
  const free = rows.filter((r) => !inFlight.has(r.id));

  const { need: tolid, known } = q.tolidConfigured
    ? await tolidsOf(tx, free)
    : { need: new Set<string>(), known: new Map<string, string>() };
  const byTolid = new Map<string, RegistrableSample[]>();
  for (const r of free) {
    const name = known.get(r.id);
    if (name) byTolid.set(name, [...(byTolid.get(name) ?? []), r]);
  }
  for (const [name, list] of byTolid) await nameWithTolid(tx, list, name);
  const waitForTolid = free.filter((r) => tolid.has(r.id));
  if (waitForTolid.length) {
    // asked at once by the job; should that job be lost, the sweep asks again at this time
    await setStatus(tx, waitForTolid, 'awaiting_tolid', 'Waiting for the ToLID service to assign the specimen a ToLID.', tolidFallback());
    await q.jobs.send('tolids.request', { sampleIds: waitForTolid.map((r) => r.id) }, { tx });
  }
  const ready = free.filter((r) => !tolid.has(r.id));
  if (!q.enaConfigured) {
    await setStatus(tx, ready, 'awaiting_ena', ENA_NOT_CONFIGURED);
    return [...existing].map(([submission_id, n]) => ({ submission_id, samples: n, created: false }));
  }

  const queued: Registration[] = [...existing].map(([submission_id, n]) => ({ submission_id, samples: n, created: false }));
  const byProfile = new Map<string, RegistrableSample[]>();
  for (const r of ready) byProfile.set(r.profileId, [...(byProfile.get(r.profileId) ?? []), r]);
  for (const [profileId, list] of byProfile) {
    await setStatus(tx, list, 'processing', null);
    const row = one(
      await tx
        .insert(submissions)
        .values({ kind: 'samples', repository: 'ena', profileId, sampleIds: list.map((r) => r.id), createdBy })
        .returning({ id: submissions.id }),
      'the new registration',
    );
    await q.jobs.send('samples.register', { submissionId: row.id }, { tx });
    queued.push({ submission_id: row.id, samples: list.length, created: true });
  }
  return queued;
}

/** Columns `routeApprovedSamples` needs, for selects. */
export const registrableColumns = {
  ...sampleIdentityColumns,
  publicName: samples.publicName,
  taxonId: samples.taxonId,
  symbiont: samples.symbiont,
};

/** The samples `where` selects, locked until the transaction ends, as `routeApprovedSamples` takes them. */
export const lockRegistrable = (tx: Db, where: SQL | undefined) => tx.select(registrableColumns).from(samples).where(where).for('update');
