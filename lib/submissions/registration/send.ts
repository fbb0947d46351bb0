import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { one } from '@/db/rows';
import { type samples, specimens, type TolProject } from '@/db/schema';
import { queueImagesOfSpecimens } from '@/lib/images/queue';
import { currentDefinition, findDefinition } from '@/lib/manifests';
import { storedPermitNames } from '@/lib/permits/permits';
import {
  type EnaClient,
  enaMappingFromFields,
  type OnceResult,
  type SampleSpec,
  sendOnce,
  specimenFields,
  tolSampleSpec,
} from '@/lib/repositories/ena';
import { newSampleId } from '@/lib/samples/columns';
import { specimenKey } from '@/lib/samples/registration';
import type { SubmissionProgress } from '../contract';
import { type EnaLedgerName, enaLedger } from '../ledger';
import type { RegistrationDeps } from './deps';

type Sample = typeof samples.$inferSelect;
export interface SendContext {
  db: Db;
  client: EnaClient;
  submissionId: string;
  progress: SubmissionProgress;
}

/** What ENA holds for a sample or specimen once sent. */
export interface Registered {
  accession: string;
  biosampleAccession?: string;
  /** the ENA submission that created or last modified it */
  submissionAccession?: string;
}

const registeredOf = (alias: string, result: OnceResult): Registered => {
  const obj = result.objects[alias];
  if (!obj?.accession) throw new Error(`expected ENA's accession of ${alias}`);
  return { accession: obj.accession, biosampleAccession: obj.biosampleAccession, submissionAccession: result.submissionAccession };
};

/**
 * Samples (or specimens) sent exactly once (lib/repositories/ena/once.ts): new ones with ADD and RELEASE (Tree of Life
 * samples are public at once) or, given `holdUntil`, HOLD until that day (YYYY-MM-DD); accessioned ones with MODIFY,
 * which keeps their release state.
 */
export async function sendSamples(
  ctx: SendContext,
  ledger: EnaLedgerName,
  action: 'ADD' | 'MODIFY',
  specs: { spec: SampleSpec; lastSubmission: string | null }[],
  opts: { holdUntil?: string } = {},
): Promise<Map<string, Registered>> {
  const byAlias = new Map(specs.map((s) => [s.spec.alias, s.spec]));
  const results = await sendOnce(ctx.client, enaLedger(ctx.db, ctx.submissionId, ctx.progress, ledger), {
    action,
    items: specs.map((s) => ({
      key: s.spec.alias,
      objects: [{ type: 'SAMPLE' as const, alias: s.spec.alias }],
      lastSubmission: s.lastSubmission,
    })),
    document: (items) => ({ samples: items.flatMap((i) => byAlias.get(i.key) ?? []) }),
    alsoActions: action !== 'ADD' ? [] : opts.holdUntil ? [{ type: 'HOLD', holdUntilDate: opts.holdUntil }] : [{ type: 'RELEASE' }],
    // the specimens go first: their answer is the first one a registration receives
    crashPoint: ledger === 'specimens' ? 'registration:ena-answered' : 'registration:samples-answered',
  });
  return new Map([...results].map(([alias, result]) => [alias, registeredOf(alias, result)]));
}

function mappingOf(project: TolProject, version: string) {
  return enaMappingFromFields((findDefinition(project, version) ?? currentDefinition(project)).fields);
}

/**
 * Each target sample's specimen (one per project and SPECIMEN_ID): created here when new and sent with ADD; sent
 * with MODIFY when it is accessioned and the specimen record the sample now gives differs from the one stored (a
 * corrected field, a new taxon and its new ToLID). Returns the specimens' BioSample accessions by specimen key.
 */
export async function registerSpecimens(deps: RegistrationDeps, ctx: SendContext, rows: Sample[]): Promise<Map<string, string>> {
  const { db } = deps;
  const accessions = new Map<string, string>();
  const targets = new Map<string, { sample: Sample; specimenId: string }>();
  for (const r of rows) {
    if (r.specimenId && (r.symbiont ?? 'TARGET') === 'TARGET' && !targets.has(specimenKey(r.project, r.specimenId))) {
      targets.set(specimenKey(r.project, r.specimenId), { sample: r, specimenId: r.specimenId });
    }
  }
  const adds: { spec: SampleSpec; lastSubmission: null }[] = [];
  const modifies: { spec: SampleSpec; lastSubmission: string | null }[] = [];
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
    // ERGA: the specimen's record names its permits, by the names they are stored under (docs/tol-manifests.md §3.3)
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
    if (sp.biosampleAccession) modifies.push({ spec, lastSubmission: sp.submissionAccession });
    else adds.push({ spec, lastSubmission: null });
  }
  const added = await sendSamples(ctx, 'specimens', 'ADD', adds);
  const modified = await sendSamples(ctx, 'specimens', 'MODIFY', modifies);
  for (const [alias, reg] of [...added, ...modified]) {
    const acc = reg.biosampleAccession ?? reg.accession;
    await db.transaction(async (tx) => {
      await tx
        .update(specimens)
        .set({
          fields: desiredFields.get(alias),
          biosampleAccession: acc,
          sraAccession: reg.accession,
          submissionAccession: reg.submissionAccession,
          timeUpdated: sql`now()`,
        })
        .where(eq(specimens.id, alias));
      // the specimen's images waited for its accession: their job is queued with it (lib/images)
      await queueImagesOfSpecimens(tx, deps.jobs, [alias]);
    });
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
export function relationsOf(r: Sample, specimenAccessions: Map<string, string>) {
  const specimen = r.specimenId ? specimenAccessions.get(specimenKey(r.project, r.specimenId)) : undefined;
  if (!specimen) return {};
  if ((r.symbiont ?? 'TARGET') === 'SYMBIONT') return { sampleSymbiontOf: specimen };
  const parts = (r.fields.ORGANISM_PART ?? '').toUpperCase();
  return parts === 'WHOLE_ORGANISM' ? { sampleSameAs: specimen } : { sampleDerivedFrom: specimen };
}

export function sampleSpecOf(r: Sample, specimenAccessions: Map<string, string>): SampleSpec {
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
