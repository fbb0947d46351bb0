import { and, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '@/db/client';
import { samples, sampleUpdates } from '@/db/schema';
import { approverScopeIn } from '@/lib/approvals/approvals';
import type { Config } from '@/lib/config';
import { Conflict, NotFound, Unavailable } from '@/lib/errors';
import type { JobQueue } from '@/lib/jobs/queue';
import { TaxonomyUnavailableError } from '@/lib/manifests';
import { createTaxonomyClient } from '@/lib/repositories/taxonomy';
import type { UserRecord } from '@/lib/users/users';
import { CLEARS_PUBLIC_NAME } from './changes';
import { changeOf, typedColumns } from './columns';
import type { CorrectionsConfirmed, CorrectionsPreview } from './corrections-contract';
import { type CorrectionsDiff, type DiffDeps, diffCorrections, lockSamples, type SampleDiff, stateOf } from './corrections-diff';
import type { InputRow } from './corrections-input';
import { type CorrectionGrant, signCorrections, verifyCorrections } from './corrections-token';
import { lockRegistrable, type RegistrationQueue, registrationQueue, routeApprovedSamples } from './registration';

/**
 * Curators correct registered samples by BioSample accession (docs/features.md, "Corrections by accession"): a
 * preview answers the diff with a signed confirmation link, and nothing changes until that link is POSTed. The
 * confirmation applies exactly the previewed diff — recomputed, and refused with 409 if the samples changed since —
 * records each change in the sample's history as the caller's, and sends the samples on through the registration of
 * an approved sample (lib/samples/registration.ts): a new ToLID first where the taxon changed, then one MODIFY of the
 * sample and of its specimen's record through ENA's exactly-once path. The caller is an admin or an approver of the
 * sample (lib/approvals); anyone else meets the sample as one that does not exist.
 */

export interface CorrectionDeps extends DiffDeps {
  db: Db;
  /** signs the confirmation links */
  secret: string;
  /** where confirm_url points */
  baseUrl: string;
  registration: RegistrationQueue;
}

/** The corrections' dependencies from the service's settings: ENA's taxonomy asked in the request, briefly. */
export function correctionDeps(deps: { db: Db; config: Config; logger: Logger; jobs: JobQueue }): CorrectionDeps {
  const { db, config, logger, jobs } = deps;
  const registration = registrationQueue(config, jobs);
  return {
    db,
    secret: config.authSecret,
    baseUrl: config.baseUrl,
    registration,
    tolidConfigured: registration.tolidConfigured,
    // a person waits for the answer: one retry, not the validation job's patience
    taxonomy: createTaxonomyClient({ baseUrl: config.ENA_TAXONOMY_URL, db, logger, retries: 1, timeoutMs: 15_000 }),
  };
}

export const confirmPath = (token: string) => `/api/admin/samples/corrections/${token}`;

/** The diff, or 503 when ENA's taxonomy cannot answer (nothing changed). */
async function diffOf(deps: CorrectionDeps, user: UserRecord, input: InputRow[]): Promise<CorrectionsDiff> {
  try {
    return await diffCorrections(deps.db, deps, user, input);
  } catch (err) {
    if (err instanceof TaxonomyUnavailableError) {
      throw Unavailable("ENA's taxonomy could not be reached to check the corrections; nothing was changed. Try again in a few minutes.");
    }
    throw err;
  }
}

/** The preview: every row with its errors, the diff, and a confirmation link when there is something to apply. */
export async function previewCorrections(deps: CorrectionDeps, user: UserRecord, input: InputRow[]): Promise<CorrectionsPreview> {
  const diff = await diffOf(deps, user, input);
  const link =
    diff.errors === 0 && diff.samples.length
      ? signCorrections(deps.secret, {
          userId: user.id,
          corrections: input.map((r) => [r.row, r.accession, r.field, r.value]),
          diffHash: diff.hash,
        })
      : null;
  return {
    rows: diff.rows,
    samples: diff.samples.map((d) => ({
      biosample_accession: d.sample.biosampleAccession ?? '',
      svc_id: d.sample.id,
      changes: d.changes.map((c) => ({ field: c.field, old_value: c.oldValue, new_value: c.newValue })),
      sample_action: 'MODIFY',
      specimen_action: d.specimenAction,
      new_tolid: d.newTolid,
    })),
    errors: diff.errors,
    confirm_url: link ? `${deps.baseUrl}${confirmPath(link.token)}` : null,
    expires_at: link ? link.expires.toISOString() : null,
  };
}

const STALE = 'The samples changed since these corrections were previewed: preview them again.';

/**
 * Applies a preview's link: the diff recomputed (outside the transaction, as ENA's taxonomy is asked through the
 * service's own handle) must be the one previewed; then, with the samples locked, their state must still be the one
 * just validated. A link confirmed before does nothing again.
 */
export async function confirmCorrections(deps: CorrectionDeps, user: UserRecord, token: string): Promise<CorrectionsConfirmed> {
  const grant = verifyCorrections(deps.secret, token, user.id);
  const input: InputRow[] = grant.corrections.map(([row, accession, field, value]) => ({ row, accession, field, value }));
  const diff = await diffOf(deps, user, input);
  if (diff.hash !== grant.diffHash) {
    if (await appliedBefore(deps.db, user, grant)) return { already_applied: true, samples: [], registrations: [] };
    throw Conflict(STALE);
  }
  return deps.db.transaction(async (tx) => {
    const locked = await lockSamples(
      tx,
      diff.samples.map((d) => d.sample.id),
    );
    const now = new Map(locked.map((s) => [s.id, JSON.stringify(stateOf(s))]));
    if (diff.samples.some((d) => now.get(d.sample.id) !== JSON.stringify(stateOf(d.sample)))) {
      // a double-clicked confirm's twin waited for the lock: its truth is "already applied", not "changed"
      if (await appliedBefore(tx, user, grant)) return { already_applied: true, samples: [], registrations: [] };
      throw Conflict(STALE);
    }
    for (const d of diff.samples) await applyDiff(tx, user, d);
    const rows = await lockRegistrable(
      tx,
      inArray(
        samples.id,
        diff.samples.map((d) => d.sample.id),
      ),
    );
    const registrations = await routeApprovedSamples(tx, deps.registration, rows, user.id);
    return {
      already_applied: false,
      samples: diff.samples.map((d) => ({
        biosample_accession: d.sample.biosampleAccession ?? '',
        svc_id: d.sample.id,
        changes: d.changes.length,
      })),
      registrations,
    };
  });
}

/** The changes of one sample, each in its history as the caller's; a new taxon or specimen clears its ToLID. */
async function applyDiff(tx: Db, user: UserRecord, d: SampleDiff): Promise<void> {
  const { sample } = d;
  const fields = { ...sample.fields };
  for (const c of d.changes) fields[c.field] = c.newValue;
  const clearPublicName = d.changes.some((c) => CLEARS_PUBLIC_NAME.has(c.field)) && sample.publicName;
  await tx
    .update(samples)
    .set({
      fields,
      ...typedColumns(fields),
      rejectionReason: null,
      ...(clearPublicName && { publicName: null }),
      timeUpdated: sql`now()`,
    })
    .where(eq(samples.id, sample.id));
  const audit = d.changes.map((c) => ({ field: c.field, oldValue: c.oldValue, newValue: c.newValue }));
  if (clearPublicName) audit.push({ field: 'public_name', oldValue: sample.publicName ?? '', newValue: '' });
  await tx.insert(sampleUpdates).values(audit.map((a) => ({ ...changeOf(sample, 'user'), actorId: user.id, ...a })));
}

/**
 * Whether this link was confirmed already: its samples' history holds a change of one of its fields by the caller
 * since the link was made. (The link's own diff cannot be recomputed after it was applied: it changed the samples.)
 */
async function appliedBefore(db: Db, user: UserRecord, grant: CorrectionGrant): Promise<boolean> {
  const accessions = [...new Set(grant.corrections.map(([, accession]) => accession.toUpperCase()))];
  const fields = [...new Set(grant.corrections.map(([, , field]) => field.toUpperCase()))];
  const [row] = await db
    .select({ id: sampleUpdates.id })
    .from(sampleUpdates)
    .innerJoin(samples, eq(samples.id, sampleUpdates.sampleId))
    .where(
      and(
        inArray(samples.biosampleAccession, accessions),
        sql`upper(${sampleUpdates.field}) = any(${sql.param(fields)}::text[])`,
        eq(sampleUpdates.updateType, 'user'),
        eq(sampleUpdates.actorId, user.id),
        gte(sampleUpdates.timeUpdated, new Date(grant.issuedAt * 1000)),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** Whether the user approves any samples (lib/approvals): an admin, a sample manager, an approver of a type. */
export async function isCurator(db: Db, user: UserRecord): Promise<boolean> {
  const scope = await approverScopeIn(db, user);
  return scope.all || scope.managed.length > 0 || scope.types.length > 0;
}

/** 404 for a caller who approves no samples: corrections are not theirs to make, nor to know of. */
export async function requireCurator(db: Db, user: UserRecord): Promise<void> {
  if (!(await isCurator(db, user))) throw NotFound('Not found');
}
