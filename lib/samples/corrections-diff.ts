import { createHash } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { profiles, samples, specimens } from '@/db/schema';
import { approverScopeIn, awaitedTypes, decidesOn } from '@/lib/approvals/approvals';
import { currentDefinition, findDefinition, type Issue, type ParsedManifest, type TaxonomyLookup, validateManifest } from '@/lib/manifests';
import type { FieldChange } from '@/lib/manifests/contract';
import { specimenFields } from '@/lib/repositories/ena';
import type { UserRecord } from '@/lib/users/users';
import { CLEARS_PUBLIC_NAME, findUpdateChanges } from './changes';
import { STOPPED_AT_ENA } from './contract';
import type { CorrectedSample, CorrectionIssue, CorrectionRow } from './corrections-contract';
import { correctableField, type InputRow } from './corrections-input';
import { existingSamplesOf } from './existing';

/**
 * The diff of corrections by accession: each row checked (the sample exists and is the caller's to correct, the field
 * may be corrected), then each corrected sample validated by the manifest's rules exactly as a re-upload of its row
 * would be (lib/manifests validateManifest, then lib/samples/changes.ts findUpdateChanges with the caller as
 * uploader): the same rules, the same messages, and the changes as validation leaves them (a filled lineage
 * included). Per sample: what changes, and what will be sent to ENA.
 */

export type StoredSample = typeof samples.$inferSelect;

export interface SampleDiff {
  sample: StoredSample;
  changes: FieldChange[];
  specimenAction: CorrectedSample['specimen_action'];
  newTolid: boolean;
}

export interface CorrectionsDiff {
  rows: CorrectionRow[];
  samples: SampleDiff[];
  errors: number;
  /** what the confirmation link signs: the diff and the state of every sample it names */
  hash: string;
}

export interface DiffDeps {
  taxonomy: TaxonomyLookup;
  /** a ToLID service is configured: a new taxon asks it for a ToLID first */
  tolidConfigured: boolean;
}

/** Statuses in which a registered sample is at rest: its registration (or a MODIFY) has finished, failed or been refused. */
const AT_REST = new Set<string>(['accepted', 'rejected', ...STOPPED_AT_ENA]);

export async function diffCorrections(db: Db, deps: DiffDeps, user: UserRecord, input: InputRow[]): Promise<CorrectionsDiff> {
  const rows: CorrectionRow[] = input.map((r) => ({
    row: r.row,
    biosample_accession: r.accession,
    field: r.field,
    value: r.value,
    errors: [],
    warnings: [],
  }));
  const accessions = [...new Set(input.map((r) => r.accession.toUpperCase()))];
  const found = accessions.length
    ? await db
        .select()
        .from(samples)
        // accessions are upper case (SAMEA…): the input is made so, and the index on the column answers
        .where(inArray(samples.biosampleAccession, accessions))
    : [];
  const scope = await approverScopeIn(db, user);
  // a sample the caller may not correct is answered as one that does not exist, so accessions do not leak
  const byAccession = new Map(found.filter((s) => decidesOn(scope, s)).map((s) => [(s.biosampleAccession ?? '').toUpperCase(), s]));

  // per sample: its valid corrections (field → value) and the row of each, in the order sent
  const bySample = new Map<string, { sample: StoredSample; fields: Map<string, number>; values: Record<string, string> }>();
  const refuse = (i: number, issue: CorrectionIssue) => rows[i]?.errors.push(issue);
  for (const [i, r] of input.entries()) {
    const sample = byAccession.get(r.accession.toUpperCase());
    if (!sample) {
      refuse(i, { rule: 'unknown_accession', message: `No sample with BioSample accession ${r.accession}.` });
      continue;
    }
    const definition = currentDefinition(sample.project);
    const named = correctableField(
      r.field,
      definition.fields.map((f) => f.name),
      definition.manifestType,
    );
    if (named.issue) {
      refuse(i, named.issue);
      continue;
    }
    const notNow = whyNotNow(sample, r.accession, scope.required);
    if (notNow) {
      refuse(i, notNow);
      continue;
    }
    let entry = bySample.get(sample.id);
    if (!entry) {
      entry = { sample, fields: new Map(), values: {} };
      bySample.set(sample.id, entry);
    }
    const earlier = entry.fields.get(named.field);
    if (earlier !== undefined) {
      refuse(i, { rule: 'duplicate', message: `${named.field} of ${r.accession} is corrected at row ${earlier} already.` });
      continue;
    }
    entry.fields.set(named.field, r.row);
    entry.values[named.field] = r.value;
  }

  const rowIndex = new Map(input.map((r, i) => [r.row, i]));
  // an issue goes beside the correction of its field, else beside the sample's first correction
  const place = (entry: { fields: Map<string, number> }, issue: Issue, into: 'errors' | 'warnings') => {
    const at = (issue.field ? entry.fields.get(issue.field) : undefined) ?? [...entry.fields.values()][0];
    const row = at === undefined ? undefined : rows[rowIndex.get(at) ?? -1];
    row?.[into].push({ rule: issue.rule, message: issue.message });
  };

  const changes: FieldChange[] = [];
  for (const group of groupsOf([...bySample.values()])) {
    const first = group[0];
    if (!first) continue;
    const { project, manifestVersion, profileId } = first.sample;
    const definition = currentDefinition(project);
    const parsed = sheetOf(
      group,
      (findDefinition(project, manifestVersion) ?? definition).fields.map((f) => f.name),
    );
    const [profile] = await db
      .select({ title: profiles.title, associatedTypes: profiles.associatedTypes })
      .from(profiles)
      .where(eq(profiles.id, profileId));
    const result = await validateManifest(parsed, definition, {
      taxonomy: deps.taxonomy,
      existingSamples: existingSamplesOf(db),
      profileId,
      profileTitle: profile?.title,
      associatedProjectTypes: profile?.associatedTypes,
      maxRows: Number.POSITIVE_INFINITY,
    });
    const update = await findUpdateChanges(db, { matches: result.matches, rows: result.normalised, parsed, definition, uploader: user });
    const byRow = new Map(group.map((e) => [firstRow(e), e]));
    for (const [into, issues] of [
      ['errors', [...result.errors, ...update.errors]],
      ['warnings', result.warnings],
    ] as const) {
      for (const issue of issues) {
        const targets = issue.row === null ? group : [byRow.get(issue.row)].filter((e) => e !== undefined);
        for (const e of targets) place(e, issue, into);
      }
    }
    changes.push(...update.changes.filter((c) => byRow.get(c.row)?.sample.id === c.sampleId));
  }

  const diffs: SampleDiff[] = [];
  for (const { sample } of bySample.values()) {
    const own = changes.filter((c) => c.sampleId === sample.id);
    if (own.length) diffs.push({ sample, changes: own, ...(await whatIsSent(db, deps, sample, own)) });
  }
  diffs.sort((a, b) => a.sample.id.localeCompare(b.sample.id));
  const errors = rows.reduce((n, r) => n + r.errors.length, 0);
  return { rows, samples: diffs, errors, hash: hashOf(diffs, errors) };
}

/** Why this registered sample cannot be corrected now, if it cannot. */
function whyNotNow(sample: StoredSample, accession: string, required: ReadonlySet<string>): CorrectionIssue | null {
  if (!AT_REST.has(sample.status)) {
    return {
      rule: 'not_correctable_now',
      message: `${accession} is ${sample.status.replace(/_/g, ' ')}: a sample can be corrected once its registration at ENA has finished.`,
    };
  }
  const awaited = awaitedTypes(sample, sample.approvals, required);
  if (sample.status === 'rejected' && awaited.length) {
    return {
      rule: 'not_correctable_now',
      message: `${accession} was rejected and awaits the approval of ${awaited.join(' and ')}: decide it in the review queue first.`,
    };
  }
  return null;
}

const firstRow = (e: { fields: Map<string, number> }) => Math.min(...e.fields.values());

/** Samples validated together: those one sheet of their profile, project and manifest version would hold. */
function groupsOf<E extends { sample: StoredSample }>(entries: E[]): E[][] {
  const groups = new Map<string, E[]>();
  for (const e of entries) {
    const key = `${e.sample.profileId}\t${e.sample.project}\t${e.sample.manifestVersion}`;
    groups.set(key, [...(groups.get(key) ?? []), e]);
  }
  return [...groups.values()];
}

/**
 * The sheet a re-upload of these samples would be: the template's columns of their manifest version (as the
 * manifest's spreadsheet download writes them), each sample's stored values with its corrections, one row each at
 * the number of its first correction.
 */
function sheetOf(
  group: { sample: StoredSample; fields: Map<string, number>; values: Record<string, string> }[],
  columns: string[],
): ParsedManifest {
  const headers = [...columns];
  for (const e of group) for (const f of e.fields.keys()) if (!headers.includes(f)) headers.push(f);
  return {
    headers,
    rows: group.map((e) => ({
      rowNumber: firstRow(e),
      values: Object.fromEntries(headers.map((h) => [h, e.values[h] ?? e.sample.fields[h] ?? ''])),
    })),
  };
}

/** What registration will send for the corrected sample: its specimen's record, and whether a ToLID is asked first. */
async function whatIsSent(
  db: Db,
  deps: DiffDeps,
  sample: StoredSample,
  changes: FieldChange[],
): Promise<Pick<SampleDiff, 'specimenAction' | 'newTolid'>> {
  const fields = { ...sample.fields, ...Object.fromEntries(changes.map((c) => [c.field, c.newValue])) };
  const specimenId = fields.SPECIMEN_ID ?? '';
  if ((fields.SYMBIONT || 'TARGET') !== 'TARGET' || !specimenId) return { specimenAction: null, newTolid: false };
  const [specimen] = await db
    .select()
    .from(specimens)
    .where(and(eq(specimens.project, sample.project), eq(specimens.specimenId, specimenId)));
  const specimenAction = !specimen?.biosampleAccession ? 'ADD' : sameFields(specimen.fields, specimenFields(fields)) ? null : 'MODIFY';
  // as registration decides (lib/samples/registration.ts tolidsOf): a specimen named for this taxon keeps its ToLID
  const renamed = changes.some((c) => CLEARS_PUBLIC_NAME.has(c.field));
  const named = Boolean(specimen?.publicName) && (!specimen?.taxonId || !fields.TAXON_ID || specimen?.taxonId === fields.TAXON_ID);
  return { specimenAction, newTolid: deps.tolidConfigured && renamed && !named };
}

function sameFields(a: Record<string, string>, b: Record<string, string>): boolean {
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) if ((a[k] ?? '') !== (b[k] ?? '')) return false;
  return true;
}

/** A sample's state as far as a correction depends on it: its status and every field. */
export const stateOf = (s: Pick<StoredSample, 'id' | 'status' | 'fields'>) => [
  s.id,
  s.status,
  Object.entries(s.fields).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
];

function hashOf(diffs: SampleDiff[], errors: number): string {
  const body = diffs.map((d) => [stateOf(d.sample), d.changes.map((c) => [c.field, c.oldValue, c.newValue]), d.specimenAction, d.newTolid]);
  return createHash('sha256')
    .update(JSON.stringify([errors, body]))
    .digest('base64url');
}

/** The samples of a diff again, locked for the confirmation's transaction. */
export const lockSamples = (tx: Db, ids: string[]) => tx.select().from(samples).where(inArray(samples.id, ids)).for('update');
