import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { type samples, specimens, type TolProject } from '@/db/schema';
import { mapLimit } from '@/lib/concurrency';
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
import { RepositoryRefused } from '@/lib/repositories/errors';
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

/**
 * The samples (or specimens) one SAMPLE_SET document carries. Webin takes a second or more to answer a call whatever
 * the document holds, so a registration costs its number of calls: documents of a few hundred samples, as ENA
 * accepts and the reference system sends, keep a registration of thousands to a handful of calls, where one document
 * of every sample left the whole registration on one long call and let one refusal refuse them all. No smaller than
 * the resume test's registration (tests/crash.test.ts), which it sends in one document.
 */
export const SAMPLES_PER_DOCUMENT = 500;

/** Specimens written or read in one statement: a lot that keeps a statement far below its limit on parameters. */
const SPECIMENS_PER_STATEMENT = 1_000;

/** Documents of one registration at Webin at the same time: their waits overlap, and Webin is asked for a few at once. */
export const DOCUMENTS_AT_ONCE = 4;

/** What became of a batch sent in documents: what ENA holds, and each refused document's aliases with ENA's refusal. */
export interface SentDocuments {
  registered: Map<string, Registered>;
  refused: { aliases: string[]; refusal: RepositoryRefused }[];
}

/**
 * Samples (or specimens) sent in documents of at most SAMPLES_PER_DOCUMENT, DOCUMENTS_AT_ONCE at a time, each exactly
 * once (sendSamples). `kept` is given each document's objects as ENA answers it, before the next is counted done. A
 * document ENA refuses leaves the others' objects registered. Any other failure (an outage, an error of ours) starts
 * no further document and is thrown once those already sent are answered, so that nothing is still being written
 * when the run ends.
 */
export async function sendDocuments(
  ctx: SendContext,
  ledger: EnaLedgerName,
  action: 'ADD' | 'MODIFY',
  specs: { spec: SampleSpec; lastSubmission: string | null }[],
  kept: (registered: Map<string, Registered>) => Promise<void> = async () => {},
): Promise<SentDocuments> {
  const documents: (typeof specs)[] = [];
  for (let i = 0; i < specs.length; i += SAMPLES_PER_DOCUMENT) documents.push(specs.slice(i, i + SAMPLES_PER_DOCUMENT));
  const sent: SentDocuments = { registered: new Map(), refused: [] };
  const failures: unknown[] = [];
  await mapLimit(documents, DOCUMENTS_AT_ONCE, async (document) => {
    if (failures.length) return;
    try {
      const registered = await sendSamples(ctx, ledger, action, document);
      await kept(registered);
      for (const [alias, reg] of registered) sent.registered.set(alias, reg);
    } catch (err) {
      if (err instanceof RepositoryRefused) sent.refused.push({ aliases: document.map((d) => d.spec.alias), refusal: err });
      else failures.push(err);
    }
  });
  if (failures.length) throw failures[0];
  return sent;
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
  const wanted = [...targets].map(([key, { sample: r, specimenId }]) => ({ key, r, specimenId, fields: specimenFields(r.fields) }));
  // the specimens made or found a statement per lot, not a statement per specimen: a registration's own work before
  // its first call grows with its size, while Webin's calls do not
  const stored = new Map<string, typeof specimens.$inferSelect>();
  for (let i = 0; i < wanted.length; i += SPECIMENS_PER_STATEMENT) {
    const lot = wanted.slice(i, i + SPECIMENS_PER_STATEMENT);
    await db
      .insert(specimens)
      .values(
        lot.map(({ r, specimenId, fields }) => ({
          id: newSampleId(),
          project: r.project,
          specimenId,
          profileId: r.profileId,
          taxonId: r.taxonId,
          fields,
        })),
      )
      .onConflictDoNothing({ target: [specimens.project, specimens.specimenId] });
    const found = await db
      .select()
      .from(specimens)
      .where(
        sql`(${specimens.project}, ${specimens.specimenId}) in (select * from unnest(${sql.param(lot.map((w) => w.r.project))}::text[], ${sql.param(lot.map((w) => w.specimenId))}::text[]))`,
      );
    for (const sp of found) stored.set(specimenKey(sp.project, sp.specimenId), sp);
  }
  for (const { key, r, fields } of wanted) {
    const sp = stored.get(key);
    if (!sp) throw new Error(`expected the specimen ${key}, just inserted or found`);
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
  // each document's specimens are kept as ENA answers it, in one statement: a refusal or an outage of another
  // document loses none
  const keep = async (registered: Map<string, Registered>) => {
    const kept = [...registered];
    await db.transaction(async (tx) => {
      await tx.execute(sql`
        update ${specimens} set
          fields = coalesce(v.fields::jsonb, ${specimens.fields}), biosample_accession = v.biosample, sra_accession = v.sra,
          submission_accession = v.submission, time_updated = now()
        from unnest(
          ${sql.param(kept.map(([alias]) => alias))}::text[],
          ${sql.param(kept.map(([alias]) => (desiredFields.has(alias) ? JSON.stringify(desiredFields.get(alias)) : null)))}::text[],
          ${sql.param(kept.map(([, reg]) => reg.biosampleAccession ?? reg.accession))}::text[],
          ${sql.param(kept.map(([, reg]) => reg.accession))}::text[],
          ${sql.param(kept.map(([, reg]) => reg.submissionAccession ?? null))}::text[]
        ) as v(id, fields, biosample, sra, submission)
        where ${specimens.id} = v.id`);
      // the specimens' images waited for their accessions: their jobs are queued with them (lib/images)
      await queueImagesOfSpecimens(
        tx,
        deps.jobs,
        kept.map(([alias]) => alias),
      );
    });
    for (const [alias, reg] of registered) {
      // the answer holds only the aliases sent, each of which has its key
      const key = aliasToKey.get(alias);
      if (key !== undefined) accessions.set(key, reg.biosampleAccession ?? reg.accession);
    }
  };
  for (const [action, specs] of [
    ['ADD', adds],
    ['MODIFY', modifies],
  ] as const) {
    const { refused } = await sendDocuments(ctx, 'specimens', action, specs, keep);
    // a sample is sent with its specimen's accession: a refused specimen refuses the registration
    if (refused.length) {
      const messages = refused.flatMap((r) => r.refusal.messages);
      throw new RepositoryRefused('ena', refused.map((r) => r.refusal.message).join(' '), messages);
    }
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
