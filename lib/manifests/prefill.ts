import { EventLoopTurns } from '@/lib/concurrency';
import { type FieldError, fieldInvalid, Invalid } from '@/lib/errors';
import { findSequencingCentre } from '@/lib/reference/read';
import { CELL_MAX_CHARS } from '@/lib/values/cell-bound';
import { fieldForHeader } from './columns';
import { PREFILL_MAX_ROWS } from './contract';
import { currentDefinition, findDefinition, isManifestProject, loadManifestDefinitions } from './definitions';
import { buildFilledTemplate } from './filled-template';
import { checkCells, OWNED_ELSEWHERE } from './rules/cells';
import { compileDefinition, Reporter, type RuleState, type WorkRow } from './rules/context';
import { buildTemplate } from './template';
import type { FieldDefinition, ManifestDefinition, ValidationContext } from './types';
import { cleanCell, isBlankLike, vocabularyKey } from './values';

/**
 * A manifest template with the values common to every row written once by the caller (collector, institution,
 * centre, …) on each of its data rows. Each value is checked by the same cell rules an upload's cells are, so a
 * pre-filled sheet never carries a value its own upload would refuse.
 */

/**
 * The columns a provider usually fills alike down a whole sheet, in the order a form offers them; a definition
 * keeps those it has. Row-specific columns (tubes, specimens, taxa, dates) are left out.
 */
export const COMMON_FIELDS = [
  'GAL',
  'PARTNER',
  'PRIMARY_BIOGENOME_PROJECT',
  'SAMPLE_COORDINATOR',
  'SAMPLE_COORDINATOR_AFFILIATION',
  'SAMPLE_COORDINATOR_ORCID_ID',
  'COLLECTED_BY',
  'COLLECTOR_AFFILIATION',
  'COLLECTOR_ORCID_ID',
  'COLLECTION_LOCATION',
  'DESCRIPTION_OF_COLLECTION_METHOD',
  'IDENTIFIED_BY',
  'IDENTIFIER_AFFILIATION',
  'PRESERVED_BY',
  'PRESERVER_AFFILIATION',
  'PRESERVATION_APPROACH',
  'SORTED_BY',
  'SORTER_AFFILIATION',
  'BARCODE_HUB',
  'PURPOSE_OF_SPECIMEN',
  'VOUCHER_INSTITUTION',
] as const;

export const commonFields = (definition: ManifestDefinition): FieldDefinition[] =>
  COMMON_FIELDS.flatMap((name) => definition.fields.filter((f) => f.name === name));

/** The definition a template request names: a project (any case) and a version, by default the current one. */
export function templateDefinition(project: string, version: string | undefined): ManifestDefinition {
  const p = project.trim().toLowerCase();
  if (!isManifestProject(p)) throw Invalid(`Invalid value for 'project'. Must be one of: ASG, DTOL, DTOLENV or ERGA`);
  const definition = version ? findDefinition(p, version) : currentDefinition(p);
  if (definition) return definition;
  const known = loadManifestDefinitions()
    .filter((d) => d.project === p)
    .map((d) => d.version);
  throw Invalid(`Unknown version '${version}' of ${p.toUpperCase()}. Known versions: ${known.join(', ')}`);
}

/** The `prefill` parameter's entries as sent: the field as the caller spelled it, and its text. */
export type PrefillEntries = [name: string, value: string][];

const PARAM = 'prefill';
// a manifest has fewer fields than this; more is not a manifest's prefill
const MAX_ENTRIES = 200;
const SHAPE = `'prefill' must be a JSON object of manifest field name → value, e.g. {"COLLECTED_BY":"Jane Smith"}.`;

/** Reads `prefill`: a JSON object of text (a number is taken as its text); absent or blank is no prefill. */
export function parsePrefillParam(raw: string | undefined): PrefillEntries {
  if (raw === undefined || raw.trim() === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw fieldInvalid(PARAM, SHAPE);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw fieldInvalid(PARAM, SHAPE);
  const entries = Object.entries(parsed);
  if (entries.length > MAX_ENTRIES)
    throw fieldInvalid(PARAM, `'prefill' names ${entries.length} fields; a manifest has fewer than ${MAX_ENTRIES}.`);
  const out: PrefillEntries = [];
  const errors: FieldError[] = [];
  for (const [name, value] of entries) {
    if (typeof value === 'string') out.push([name, value]);
    else if (typeof value === 'number' && Number.isFinite(value)) out.push([name, String(value)]);
    else errors.push({ path: `${PARAM}.${name}`, message: `The value of ${name} in 'prefill' must be text or a number.` });
  }
  if (errors.length) throw Invalid(errors.map((e) => e.message).join(' '), errors);
  return out;
}

/** Fields judged against the other rows, the stored tubes or the taxonomy: nothing given once can be checked for them here. */
const ROW_SPECIFIC: ReadonlySet<string> = new Set([...OWNED_ELSEWHERE, 'SPECIMEN_ID']);

/** The row the cell rules are told of: their messages name one, which a pre-filled value does not have. */
const ROW = 2;
const withoutRow = (message: string): string => message.replace(/ (?:at|in) row 2\b/g, '');

// the cell rules look nothing up: the taxonomy and the stored samples are never asked
const NO_LOOKUPS: ValidationContext = {
  taxonomy: { byTaxId: async () => null, byScientificName: async () => [] },
  existingSamples: { byRackTube: async () => [], bySpecimenId: async () => [] },
  profileId: '',
};

/** A country of a location field's list, in its listed spelling, for a value naming a country alone; else null. */
function countryOf(field: FieldDefinition, value: string): string | null {
  const key = vocabularyKey(value);
  return field.allowedValues?.find((c) => vocabularyKey(c) === key) ?? null;
}

/**
 * The entries checked against the definition: field name → the value to write (a vocabulary's canonical spelling
 * where the field accepts variants). An empty value is no prefill. Every problem is one 400 naming each field
 * (`prefill.FIELD`); nothing is written unless all pass.
 */
export async function checkPrefill(
  definition: ManifestDefinition,
  entries: PrefillEntries,
  now = new Date(),
): Promise<Map<string, string>> {
  const errors: FieldError[] = [];
  const problem = (name: string, message: string) => errors.push({ path: `${PARAM}.${name}`, message });
  const values = new Map<string, string>();
  const countries = new Map<string, string>();
  for (const [name, text] of entries) {
    const field = fieldForHeader(definition, name.trim());
    if (!field) {
      problem(name, `${name} is not a field of the ${definition.manifestType} ${definition.version} manifest.`);
      continue;
    }
    if (ROW_SPECIFIC.has(field.name)) {
      problem(
        field.name,
        `${field.name} cannot be pre-filled: it is checked against the other rows or the taxonomy when the sheet is uploaded.`,
      );
      continue;
    }
    if (values.has(field.name) || countries.has(field.name)) {
      problem(field.name, `${field.name} is given more than once.`);
      continue;
    }
    if (text.length > CELL_MAX_CHARS) {
      problem(field.name, `The value of ${field.name} holds ${text.length} characters; a cell may hold at most ${CELL_MAX_CHARS}.`);
      continue;
    }
    const value = cleanCell(text);
    if (value === '') continue;
    if (isBlankLike(value)) {
      problem(
        field.name,
        `${value} in ${field.name} reads as an empty cell: write one of ${field.missingValueTokens.join(', ') || 'its values'} or leave it out.`,
      );
      continue;
    }
    const country = field.kind === 'location' && !value.includes('|') ? countryOf(field, value) : null;
    // a country alone: each row completes it with its region and locality
    if (country) countries.set(field.name, `${country} | `);
    else values.set(field.name, value);
  }
  if (values.size) errors.push(...(await cellProblems(definition, values, now)));
  if (errors.length) throw Invalid(`Invalid 'prefill': ${errors.map((e) => e.message).join(' ')}`, errors);
  return new Map([...values, ...countries]);
}

/** The cell rules over one row of the values; each value is replaced by what an upload would store. */
async function cellProblems(definition: ManifestDefinition, values: Map<string, string>, now: Date): Promise<FieldError[]> {
  const row: WorkRow = { rowNumber: ROW, values: Object.fromEntries(values), raw: Object.fromEntries(values) };
  const state: RuleState = {
    definition,
    fields: compileDefinition(definition),
    present: new Set(values.keys()),
    rows: [row],
    report: new Reporter(new Map(), new Map()),
    ctx: NO_LOOKUPS,
    now,
    popGenomicsOnly: false,
    failed: new Set(),
    turns: new EventLoopTurns(),
  };
  await checkCells(state);
  for (const name of values.keys()) values.set(name, row.values[name] ?? '');
  return state.report.errors.map((e) => ({ path: `${PARAM}.${e.field ?? ''}`, message: withoutRow(e.message) }));
}

const SUB_PROJECTS: Record<string, string> = { BGE: 'ERGA-BGE', ERGA_PILOT: 'ERGA-Pilot', ERGA_COMMUNITY: 'ERGA-Community' };

/**
 * What a profile itself says of a sheet's common columns: its one sequencing centre as GAL, and its one ERGA
 * sub-project as PRIMARY_BIOGENOME_PROJECT, each only where the manifest's list has that value. A profile naming
 * several leaves the column to the caller.
 */
export function profileValues(
  definition: ManifestDefinition,
  profile: { sequencingCentres: readonly string[]; associatedTypes: readonly string[] },
  /** every sequencing centre (lib/reference), whose label is the GAL */
  centres: readonly { name: string; label: string }[],
): Map<string, string> {
  const out = new Map<string, string>();
  const offer = (name: string, candidates: string[]) => {
    const allowed = definition.fields.find((f) => f.name === name)?.allowedValues;
    if (candidates.length !== 1 || !allowed) return;
    const key = vocabularyKey(candidates[0] ?? '');
    const value = allowed.find((v) => vocabularyKey(v) === key);
    if (value) out.set(name, value);
  };
  offer(
    'GAL',
    profile.sequencingCentres.map((c) => findSequencingCentre(centres, c)?.label ?? c),
  );
  offer('PRIMARY_BIOGENOME_PROJECT', [...new Set(profile.associatedTypes.flatMap((t) => SUB_PROJECTS[t] ?? []))]);
  return out;
}

/** The template with `values` on each of its first `rows` data rows; without values, the blank template. */
export async function prefilledTemplate(
  definition: ManifestDefinition,
  values: ReadonlyMap<string, string>,
  rows: number,
): Promise<Buffer> {
  if (!values.size) return buildTemplate(definition);
  const row = Object.fromEntries(values);
  return buildFilledTemplate(
    definition,
    Array.from({ length: Math.max(1, Math.min(rows, PREFILL_MAX_ROWS)) }, () => row),
  );
}
