import { and, eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '@/db/client';
import { sampleUpdates, samples, specimens, submissions, type TolProject } from '@/db/schema';
import { Conflict, NotFound } from '@/lib/errors';
import { findDefinition, currentDefinition } from '@/lib/manifests';
import {
  enaMappingFromFields,
  specimenFields,
  tolSampleSpec,
  type EnaClient,
  type EnaReceipt,
  type SampleSpec,
} from '@/lib/repositories/ena';
import { RepositoryError } from '@/lib/repositories/errors';
import { managesProject, type UserRecord } from '@/lib/users/users';
import type { JobQueue } from '@/lib/jobs/queue';
import { newSampleId } from '@/lib/samples/columns';
import { beginAttempt, finishSubmission, MAX_ATTEMPTS, recordProgress } from './submissions';

type Sample = typeof samples.$inferSelect;

/**
 * Queues the registration at ENA of accepted (`processing`) samples the caller manages: one submission per profile.
 * Refused with 409, and nothing queued, when no Webin account is configured.
 */
export async function queueSampleRegistration(
  deps: { db: Db; jobs: JobQueue; enaConfigured: () => void },
  user: UserRecord,
  svcIds: string[],
): Promise<{ submission_id: string; samples: number }[]> {
  deps.enaConfigured();
  const ids = [...new Set(svcIds.map((s) => s.trim().toLowerCase()))];
  const rows = await deps.db
    .select()
    .from(samples)
    .where(sql`${samples.id} = any(${sql.param(ids)}::text[])`);
  const mine = rows.filter((r) => managesProject(user, r.project));
  const missing = ids.filter((id) => !mine.some((r) => r.id === id));
  if (missing.length) throw NotFound(`No sample you manage with svc_id ${missing.join(', ')}`);
  const notReady = mine.filter((r) => r.status !== 'processing');
  if (notReady.length) {
    throw Conflict(`Only accepted samples waiting for registration (processing) can be sent; ${notReady.map((r) => `${r.id} is ${r.status}`).join(', ')}.`);
  }
  const byProfile = new Map<string, string[]>();
  for (const r of mine) byProfile.set(r.profileId, [...(byProfile.get(r.profileId) ?? []), r.id]);
  const queued: { submission_id: string; samples: number }[] = [];
  for (const [profileId, sampleIds] of byProfile) {
    const [row] = await deps.db
      .insert(submissions)
      .values({ kind: 'samples', repository: 'ena', profileId, sampleIds, createdBy: user.id })
      .returning({ id: submissions.id });
    await deps.jobs.send('samples.register', { submissionId: row!.id });
    queued.push({ submission_id: row!.id, samples: sampleIds.length });
  }
  return queued;
}

interface Registered {
  accession: string;
  biosampleAccession?: string;
  submissionAccession?: string;
}

class EnaRejected extends Error {}

/**
 * Sends aliases to ENA exactly once. Aliases sent by an earlier run whose answer never got recorded are first asked
 * for with the RECEIPT action; an "already exists" answer is resolved the same way. Nothing is sent as a second ADD.
 */
async function register(
  db: Db,
  client: EnaClient,
  submissionId: string,
  progressKey: string,
  specs: SampleSpec[],
  sentBefore: string[],
): Promise<Map<string, Registered>> {
  const found = new Map<string, Registered>();
  const fromReceipt = (receipt: EnaReceipt, alias: string) => {
    const obj = receipt.byAlias.SAMPLE?.[alias];
    if (obj?.accession) {
      found.set(alias, { accession: obj.accession, biosampleAccession: obj.biosampleAccession, submissionAccession: receipt.submission?.accession });
    }
  };
  const lookUp = async (alias: string) => {
    const receipt = await client.fetchReceipt(alias);
    await recordProgress(db, submissionId, { receipt: { kind: 'RECEIPT', alias, success: receipt.success, errors: receipt.errors } });
    fromReceipt(receipt, alias);
  };
  for (const alias of specs.map((s) => s.alias).filter((a) => sentBefore.includes(a))) await lookUp(alias);

  const toAdd = specs.filter((s) => !found.has(s.alias));
  if (!toAdd.length) return found;
  // written before sending: a crash after this point resumes through RECEIPT, never a second ADD
  await recordProgress(db, submissionId, { progress: { [progressKey]: [...sentBefore, ...toAdd.map((s) => s.alias)] } });
  const receipt = await client.submit({ submission: { actions: [{ type: 'ADD' }, { type: 'RELEASE' }] }, samples: toAdd });
  await recordProgress(db, submissionId, {
    receipt: { kind: 'ADD', success: receipt.success, submission: receipt.submission?.accession, errors: receipt.errors, infos: receipt.infos },
  });
  if (receipt.outcome === 'rejected') throw new EnaRejected(receipt.errors.join(' ') || 'ENA rejected the submission.');
  for (const s of toAdd) fromReceipt(receipt, s.alias);
  for (const e of receipt.existing) if (e.type === 'SAMPLE' && !found.has(e.alias)) await lookUp(e.alias);
  const unresolved = toAdd.filter((s) => !found.has(s.alias));
  if (unresolved.length) throw new EnaRejected(`ENA returned no accession for ${unresolved.map((s) => s.alias).join(', ')}.`);
  return found;
}

export interface RegistrationDeps {
  db: Db;
  logger: Logger;
  ena: () => EnaClient;
}

/**
 * The `samples.register` job (tol-manifests.md §3.3): specimens first (one per SPECIMEN_ID), then the samples
 * linked to them, then accessions recorded on the samples with `system` audit records, all in one transaction.
 */
export async function runSampleRegistration(deps: RegistrationDeps, submissionId: string): Promise<void> {
  const { db } = deps;
  const sub = await beginAttempt(db, submissionId);
  if (!sub) return;
  const progress = sub.progress as { specimens?: string[]; samples?: string[] };
  const rows = await db
    .select()
    .from(samples)
    .where(and(sql`${samples.id} = any(${sql.param(sub.sampleIds)}::text[])`, sql`${samples.status} in ('processing', 'sending')`));
  if (!rows.length) {
    await finishSubmission(db, submissionId, { status: 'rejected', error: 'None of the samples is waiting for registration any more.' });
    return;
  }
  await db.update(samples).set({ status: 'sending' }).where(sql`${samples.id} = any(${sql.param(rows.map((r) => r.id))}::text[])`);
  try {
    const client = deps.ena();
    const specimenAccessions = await registerSpecimens(deps, client, submissionId, rows, progress.specimens ?? []);
    const specs = rows.filter((r) => !r.biosampleAccession).map((r) => sampleSpecOf(r, specimenAccessions));
    const registered = await register(db, client, submissionId, 'samples', specs, progress.samples ?? []);
    await recordAccessions(db, submissionId, rows, registered, specimenAccessions);
  } catch (err) {
    if (err instanceof EnaRejected) {
      await rejectSamples(db, submissionId, rows, err.message);
      return;
    }
    const fresh = await db.select({ attempts: submissions.attempts }).from(submissions).where(eq(submissions.id, submissionId));
    if ((fresh[0]?.attempts ?? 0) >= MAX_ATTEMPTS) {
      await rejectSamples(db, submissionId, rows, `ENA could not be reached: ${(err as Error).message}`, 'processing');
      return;
    }
    await db.update(samples).set({ status: 'processing' }).where(sql`${samples.id} = any(${sql.param(rows.map((r) => r.id))}::text[])`);
    if (err instanceof RepositoryError) deps.logger.warn({ err, submission_id: submissionId }, 'ENA unavailable; the job will retry');
    throw err;
  }
}

function mappingOf(project: TolProject, version: string) {
  return enaMappingFromFields((findDefinition(project, version) ?? currentDefinition(project)).fields);
}

/** Specimen key: one ENA specimen per project and SPECIMEN_ID. */
const specimenKey = (project: string, specimenId: string) => `${project}/${specimenId}`;

async function registerSpecimens(
  deps: RegistrationDeps,
  client: EnaClient,
  submissionId: string,
  rows: Sample[],
  sentBefore: string[],
): Promise<Map<string, string>> {
  const { db } = deps;
  const accessions = new Map<string, string>();
  const targets = new Map<string, Sample>();
  for (const r of rows) {
    if (r.specimenId && (r.symbiont ?? 'TARGET') === 'TARGET' && !targets.has(specimenKey(r.project, r.specimenId))) {
      targets.set(specimenKey(r.project, r.specimenId), r);
    }
  }
  const specs: SampleSpec[] = [];
  const aliasToKey = new Map<string, string>();
  for (const [key, r] of targets) {
    await db
      .insert(specimens)
      .values({ id: newSampleId(), project: r.project, specimenId: r.specimenId!, profileId: r.profileId, taxonId: r.taxonId, fields: specimenFields(r.fields) })
      .onConflictDoNothing({ target: [specimens.project, specimens.specimenId] });
    const [sp] = await db
      .select()
      .from(specimens)
      .where(and(eq(specimens.project, r.project), eq(specimens.specimenId, r.specimenId!)));
    if (sp!.biosampleAccession) {
      accessions.set(key, sp!.biosampleAccession);
      continue;
    }
    aliasToKey.set(sp!.id, key);
    specs.push(
      tolSampleSpec(
        { alias: sp!.id, project: r.project.toUpperCase(), fields: sp!.fields as Record<string, string>, title: `${sp!.id}-${r.project.toUpperCase()}-specimen`, tolid: r.publicName ?? undefined },
        mappingOf(r.project, r.manifestVersion),
      ),
    );
  }
  if (!specs.length) return accessions;
  const registered = await register(db, client, submissionId, 'specimens', specs, sentBefore);
  for (const [alias, reg] of registered) {
    const acc = reg.biosampleAccession ?? reg.accession;
    await db
      .update(specimens)
      .set({ biosampleAccession: acc, sraAccession: reg.accession, submissionAccession: reg.submissionAccession, timeUpdated: sql`now()` })
      .where(eq(specimens.id, alias));
    accessions.set(aliasToKey.get(alias)!, acc);
  }
  return accessions;
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
  db: Db,
  submissionId: string,
  rows: Sample[],
  registered: Map<string, Registered>,
  specimenAccessions: Map<string, string>,
): Promise<void> {
  const summary: Record<string, { biosampleAccession: string; sraAccession: string }> = {};
  await db.transaction(async (tx) => {
    for (const r of rows) {
      const reg = registered.get(r.id);
      const next = {
        biosampleAccession: reg ? (reg.biosampleAccession ?? null) : r.biosampleAccession,
        sraAccession: reg ? reg.accession : r.sraAccession,
        submissionAccession: reg?.submissionAccession ?? r.submissionAccession,
        sampleDerivedFrom: null as string | null,
        sampleSameAs: null as string | null,
        sampleSymbiontOf: null as string | null,
        ...relationsOf(r, specimenAccessions),
        status: 'accepted' as const,
      };
      const audit = (Object.keys(next) as (keyof typeof next)[])
        .map((field) => ({ field, oldValue: (r[field] as string | null) ?? '', newValue: (next[field] as string | null) ?? '' }))
        .filter((a) => a.oldValue !== a.newValue);
      await tx.update(samples).set({ ...next, rejectionReason: null, timeUpdated: sql`now()` }).where(eq(samples.id, r.id));
      if (audit.length) {
        await tx.insert(sampleUpdates).values(
          audit.map((a) => ({ sampleId: r.id, manifestId: r.manifestId, project: r.project, updateType: 'system' as const, ...a })),
        );
      }
      summary[r.id] = { biosampleAccession: next.biosampleAccession ?? '', sraAccession: next.sraAccession ?? '' };
    }
    await tx
      .update(submissions)
      .set({
        status: 'accepted',
        accessions: { samples: summary, specimens: Object.fromEntries(specimenAccessions) },
        error: null,
        finishedAt: sql`now()`,
        updatedAt: sql`now()`,
      })
      .where(eq(submissions.id, submissionId));
  });
}

async function rejectSamples(db: Db, submissionId: string, rows: Sample[], message: string, status: 'rejected' | 'processing' = 'rejected') {
  await db.transaction(async (tx) => {
    for (const r of rows) {
      await tx.update(samples).set({ status, rejectionReason: message, timeUpdated: sql`now()` }).where(eq(samples.id, r.id));
      if (status !== r.status) {
        await tx.insert(sampleUpdates).values({
          sampleId: r.id,
          manifestId: r.manifestId,
          project: r.project,
          updateType: 'system',
          field: 'status',
          oldValue: r.status,
          newValue: status,
        });
      }
    }
  });
  await finishSubmission(db, submissionId, { status: 'rejected', error: message });
}
