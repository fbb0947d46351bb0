import { TOL_PROJECTS, type TolProject } from '@/db/schema';
import { currentDefinition, type FieldDefinition, findDefinition, type ManifestDefinition } from '@/lib/manifests';
import type { SampleRecord } from '@/lib/query/contract';
import { formatUtc } from '@/lib/query/dates';
import type { Standard } from '@/lib/query/params';

/**
 * What rendering needs of a stored sample: the row as the sample queries select it. Timestamps arrive as UTC text
 * with microseconds (`YYYY-MM-DDTHH:MI:SS.US`) so they print exactly as stored.
 */
export interface SampleRow {
  id: string;
  manifestId: string;
  project: TolProject;
  manifestVersion: string;
  status: string;
  fields: Record<string, string>;
  publicName: string | null;
  biosampleAccession: string | null;
  sraAccession: string | null;
  submissionAccession: string | null;
  sampleDerivedFrom: string | null;
  sampleSameAs: string | null;
  sampleSymbiontOf: string | null;
  associatedTolProjects: string[];
  lastBioimageSubmitted: string | null;
  timeCreated: string;
  timeUpdated: string;
  profileTitle: string | null;
}

// what leaves the service: lib/query/contract.ts
export type { SampleRecord };

/** What an ERGA sample under traditional-knowledge rights shows instead of itself (api-behaviour.md §1.8 step 5). */
export const EMBARGOED: Readonly<SampleRecord> = Object.freeze({ status: 'embargoed' });

interface Slot {
  key: string;
  value: (row: SampleRow) => string;
}

// The reference fills these when a record lacks them (api-behaviour.md §1.8 step 7).
const DEFAULTS: Record<string, string> = { MIXED_SAMPLE_RISK: 'NOT_PROVIDED', BARCODING_STATUS: 'DNA_BARCODE_EXEMPT' };
// Records written before the reference renamed the field still carry the old key.
const LEGACY_KEYS: Record<string, string> = { SPECIMEN_IDENTITY_RISK: 'SPECIMEN_ID_RISK' };

const fieldValue = (name: string) => {
  const legacy = LEGACY_KEYS[name];
  const fallback = DEFAULTS[name] ?? '';
  return (row: SampleRow): string => row.fields[name] ?? (legacy && row.fields[legacy]) ?? fallback;
};

/**
 * Keys the service adds to every record. Never among them: created_by, profile_id, approvals, rejection_reason,
 * the change log or anything naming a person's account (api-behaviour.md §1.10).
 */
const SYSTEM_SLOTS: Slot[] = (
  [
    ['associated_tol_project', (r) => r.associatedTolProjects.join(' | ')],
    ['biosampleAccession', (r) => r.biosampleAccession ?? ''],
    ['last_bioimage_submitted', (r) => formatUtc(r.lastBioimageSubmitted)],
    ['manifest_id', (r) => r.manifestId],
    ['manifest_version', (r) => r.manifestVersion],
    ['public_name', (r) => r.publicName ?? ''],
    ['sampleDerivedFrom', (r) => r.sampleDerivedFrom ?? ''],
    ['sampleSameAs', (r) => r.sampleSameAs ?? ''],
    ['sampleSymbiontOf', (r) => r.sampleSymbiontOf ?? ''],
    ['sraAccession', (r) => r.sraAccession ?? ''],
    ['status', (r) => r.status],
    ['submissionAccession', (r) => r.submissionAccession ?? ''],
    ['svc_id', (r) => r.id],
    ['svc_profile_title', (r) => r.profileTitle ?? ''],
    ['time_created', (r) => formatUtc(r.timeCreated)],
    ['time_updated', (r) => formatUtc(r.timeUpdated)],
    ['tol_project', (r) => r.project.toUpperCase()],
  ] as [string, Slot['value']][]
)
  .map(([key, value]) => ({ key, value }))
  .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));

/** Names of the keys the service adds, as they appear in `tol` records. */
export const SYSTEM_KEYS: readonly string[] = SYSTEM_SLOTS.map((s) => s.key);

const byCodePoint = (a: Slot, b: Slot) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/** In a standard, a name that is not one of its terms keeps the service's own name, marked `svc_`. */
const serviceKey = (key: string) => (key.startsWith('svc_') ? key : `svc_${key}`);

// MIxS writes a position as one "lat lon" value, so both coordinates combine instead of colliding.
const COMBINED: Partial<Record<Standard, Set<string>>> = { mixs: new Set(['lat_lon']) };

/**
 * The slots of one (definition, standard): manifest fields that are exported (never the sensitive ones), in the
 * template's order, then the service's keys sorted by code point (api-behaviour.md §1.8 step 8).
 *
 * In dwc/ena/mixs each field takes its name in that standard and a field without one is left out (Decision 6).
 * Where two fields map to one term, the first in template order takes the term and each later one keeps its value
 * under `svc_<FIELD>` (dwc materialSampleID is SPECIMEN_ID; COLLECTOR_SAMPLE_ID becomes svc_COLLECTOR_SAMPLE_ID),
 * except MIxS lat_lon, which holds "<DECIMAL_LATITUDE> <DECIMAL_LONGITUDE>". Nothing is silently dropped.
 */
function buildSlots(def: ManifestDefinition, standard: Standard): Slot[] {
  const exported = def.fields.filter((f) => f.export && !f.sensitive);
  if (standard === 'tol') return [...exported.map((f) => ({ key: f.name, value: fieldValue(f.name) })), ...SYSTEM_SLOTS];

  const mapped = new Map<string, FieldDefinition[]>();
  const extra: Slot[] = [];
  for (const f of exported) {
    const term = f.standards[standard];
    if (!term) continue;
    const same = mapped.get(term);
    if (!same) mapped.set(term, [f]);
    else if (COMBINED[standard]?.has(term)) same.push(f);
    else extra.push({ key: serviceKey(f.name), value: fieldValue(f.name) });
  }
  const slots: Slot[] = [...mapped].map(([key, fields]) => {
    if (fields.length === 1) return { key, value: fieldValue((fields[0] as FieldDefinition).name) };
    const getters = fields.map((f) => fieldValue(f.name));
    return {
      key,
      value: (row) =>
        getters
          .map((g) => g(row))
          .filter(Boolean)
          .join(' '),
    };
  });
  const service = [...extra, ...SYSTEM_SLOTS.map((s) => ({ key: serviceKey(s.key), value: s.value }))].sort(byCodePoint);
  return [...slots, ...service];
}

const definitionOf = (project: TolProject, version: string): ManifestDefinition =>
  findDefinition(project, version) ?? currentDefinition(project);

const plans = new Map<string, Slot[]>();
function slotsFor(project: TolProject, version: string, standard: Standard): Slot[] {
  const k = `${project}|${version}|${standard}`;
  let slots = plans.get(k);
  if (!slots) {
    slots = buildSlots(definitionOf(project, version), standard);
    plans.set(k, slots);
  }
  return slots;
}

/** Traditional-knowledge rights apply: the Local Contexts Hub is not consulted, so such a sample stays embargoed. */
export function isEmbargoed(row: Pick<SampleRow, 'project' | 'fields'>): boolean {
  if (row.project !== 'erga') return false;
  const v = (row.fields.ASSOCIATED_TRADITIONAL_KNOWLEDGE_OR_BIOCULTURAL_RIGHTS_APPLICABLE ?? '').trim().toUpperCase();
  return v !== '' && v !== 'N';
}

/**
 * The one place a stored sample becomes what leaves the service, for a standard: the fields of the record's own
 * project and manifest version (not of the first record of the result, the reference's bug §5.11).
 */
export function renderSample(row: SampleRow, standard: Standard): SampleRecord {
  if (isEmbargoed(row)) return { ...EMBARGOED };
  const out: SampleRecord = {};
  for (const slot of slotsFor(row.project, row.manifestVersion, standard)) out[slot.key] = slot.value(row);
  return out;
}

/** A (project, manifest version) pair present in a result: it decides the CSV columns before any row is read. */
export interface RecordShape {
  project: TolProject;
  version: string;
}

// an empty result still gets a header: the columns of every project's current version
const CURRENT_SHAPES: RecordShape[] = TOL_PROJECTS.map((project) => ({ project, version: currentDefinition(project).version }));

/** CSV columns for a result: the keys of each shape's records, merged in the order first met. */
export function recordColumns(shapes: readonly RecordShape[], standard: Standard): string[] {
  const keys = new Set<string>();
  for (const s of shapes.length ? shapes : CURRENT_SHAPES) for (const slot of slotsFor(s.project, s.version, standard)) keys.add(slot.key);
  // an embargoed ERGA record has only `status`
  if (shapes.some((s) => s.project === 'erga')) keys.add('status');
  return [...keys];
}

/** A CSV cell as csv-stringify writes it: quoted when it holds a comma, a quote or a line break. */
const csvCell = (v: string): string => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** The getter of each key, the last slot of a key winning as it does when a record is built key by key. */
function gettersByKey(slots: Slot[]): Map<string, Slot['value']> {
  const byKey = new Map<string, Slot['value']>();
  for (const slot of slots) byKey.set(slot.key, slot.value);
  return byKey;
}

function compileJson(slots: Slot[]): (row: SampleRow) => string {
  const entries = [...gettersByKey(slots)];
  const prefixes = entries.map(([key], i) => `${i ? ',' : '{'}${JSON.stringify(key)}:`);
  const getters = entries.map(([, value]) => value);
  if (!entries.length) return () => '{}';
  return (row) => {
    let out = '';
    for (let i = 0; i < getters.length; i++) out += prefixes[i] + JSON.stringify((getters[i] as Slot['value'])(row));
    return `${out}}`;
  };
}

function compileCsv(slots: Slot[], columns: readonly string[]): (row: SampleRow) => string {
  const byKey = gettersByKey(slots);
  const getters = columns.map((c) => byKey.get(c));
  return (row) => {
    let out = '';
    for (let i = 0; i < getters.length; i++) {
      const get = getters[i];
      out += (i ? ',' : '') + (get ? csvCell(get(row)) : '');
    }
    return `${out}\n`;
  };
}

/**
 * What `JSON.stringify(renderSample(row))` and a CSV line of the rendered record would be, written straight from the
 * stored row by a function compiled once per (project, version) of the result: an export of a million samples
 * builds no record objects.
 */
export function sampleWriters(columns: readonly string[], standard: Standard) {
  const json = new Map<string, (row: SampleRow) => string>();
  const csv = new Map<string, (row: SampleRow) => string>();
  const embargoedJson = JSON.stringify(EMBARGOED);
  const embargoedCsv = `${columns.map((c) => (c in EMBARGOED ? csvCell(EMBARGOED[c] as string) : '')).join(',')}\n`;
  const writer = (cache: Map<string, (row: SampleRow) => string>, compile: (slots: Slot[]) => (row: SampleRow) => string) => {
    return (row: SampleRow): string => {
      const k = `${row.project}|${row.manifestVersion}`;
      let write = cache.get(k);
      if (!write) {
        write = compile(slotsFor(row.project, row.manifestVersion, standard));
        cache.set(k, write);
      }
      return write(row);
    };
  };
  const toJson = writer(json, compileJson);
  const toCsv = writer(csv, (slots) => compileCsv(slots, columns));
  return {
    json: (row: SampleRow): string => (isEmbargoed(row) ? embargoedJson : toJson(row)),
    csv: (row: SampleRow): string => (isEmbargoed(row) ? embargoedCsv : toCsv(row)),
  };
}
