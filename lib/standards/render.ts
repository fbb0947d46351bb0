import type { TolProject } from '@/db/schema';
import { currentDefinition, type FieldDefinition, findDefinition, type ManifestDefinition } from '@/lib/manifests';
import type { SampleRecord, Standard } from '@/lib/standards/contract';
import { RECORD_COLUMNS, type SampleRow } from './sample-columns';
import { FieldReader } from './stored-fields';

// what leaves the service (lib/query/contract.ts), and the row rendering takes: one property per column of the sample
// record (lib/standards/sample-columns.ts)
export type { SampleRecord, SampleRow };

/** What an ERGA sample under traditional-knowledge rights shows instead of itself (docs/api-behaviour.md §1.8 step 5). */
export const EMBARGOED: Readonly<SampleRecord> = Object.freeze({ status: 'embargoed' });

/** A key of the records of one (manifest version, standard), and where its value comes from. */
export type Slot =
  /** manifest fields: one, or several joined by a space (MIxS lat_lon) */
  | { key: string; fields: readonly string[] }
  /** the service's own */
  | { key: string; value: (row: SampleRow) => string };

type ServiceSlot = Extract<Slot, { value: unknown }>;

// The reference fills these when a record lacks them (docs/api-behaviour.md §1.8 step 7).
export const DEFAULTS: Readonly<Record<string, string>> = { MIXED_SAMPLE_RISK: 'NOT_PROVIDED', BARCODING_STATUS: 'DNA_BARCODE_EXEMPT' };
// Records written before the reference renamed the field still carry the old key.
export const LEGACY_KEYS: Readonly<Record<string, string>> = { SPECIMEN_IDENTITY_RISK: 'SPECIMEN_ID_RISK' };

/**
 * Keys the service adds to every record, sorted by code point: the record columns of the sample
 * (lib/standards/sample-columns.ts, which says what never is among them).
 */
const SYSTEM_SLOTS: ServiceSlot[] = RECORD_COLUMNS.map(({ key, value }) => ({ key, value })).sort((a, b) =>
  a.key < b.key ? -1 : a.key > b.key ? 1 : 0,
);

/** Names of the keys the service adds, as they appear in `tol` records. */
export const SYSTEM_KEYS: readonly string[] = SYSTEM_SLOTS.map((s) => s.key);

const byCodePoint = (a: Slot, b: Slot) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/** In a standard, a name that is not one of its terms keeps the service's own name, marked `svc_`. */
const serviceKey = (key: string) => (key.startsWith('svc_') ? key : `svc_${key}`);

// MIxS writes a position as one "lat lon" value, so both coordinates combine instead of colliding.
const COMBINED: Partial<Record<Standard, Set<string>>> = { mixs: new Set(['lat_lon']) };

/**
 * The slots of one (definition, standard): manifest fields that are exported (never the sensitive ones), in the
 * template's order, then the service's keys sorted by code point (docs/api-behaviour.md §1.8 step 8).
 *
 * In dwc/ena/mixs each field takes its name in that standard and a field without one is left out (docs/architecture.md, Decision 6).
 * Where two fields map to one term, the first in template order takes the term and each later one keeps its value
 * under `svc_<FIELD>` (dwc materialSampleID is SPECIMEN_ID; COLLECTOR_SAMPLE_ID becomes svc_COLLECTOR_SAMPLE_ID),
 * except MIxS lat_lon, which holds "<DECIMAL_LATITUDE> <DECIMAL_LONGITUDE>". Nothing is silently dropped.
 */
function buildSlots(def: ManifestDefinition, standard: Standard): Slot[] {
  const exported = def.fields.filter((f) => f.export && !f.sensitive);
  if (standard === 'tol') return [...exported.map((f) => ({ key: f.name, fields: [f.name] })), ...SYSTEM_SLOTS];

  const mapped = new Map<string, FieldDefinition[]>();
  const extra: Slot[] = [];
  for (const f of exported) {
    const term = f.standards[standard];
    if (!term) continue;
    const same = mapped.get(term);
    if (!same) mapped.set(term, [f]);
    else if (COMBINED[standard]?.has(term)) same.push(f);
    else extra.push({ key: serviceKey(f.name), fields: [f.name] });
  }
  const slots: Slot[] = [...mapped].map(([key, fields]) => ({ key, fields: fields.map((f) => f.name) }));
  const service = [...extra, ...SYSTEM_SLOTS.map((s) => ({ key: serviceKey(s.key), value: s.value }))].sort(byCodePoint);
  return [...slots, ...service];
}

const definitionOf = (project: TolProject, version: string): ManifestDefinition =>
  findDefinition(project, version) ?? currentDefinition(project);

/** The slots of the records of one (project, manifest version) in a standard, in order (a later slot of a key wins). */
export const recordSlots = (project: TolProject, version: string, standard: Standard): readonly Slot[] =>
  buildSlots(definitionOf(project, version), standard);

export const TRADITIONAL_KNOWLEDGE = 'ASSOCIATED_TRADITIONAL_KNOWLEDGE_OR_BIOCULTURAL_RIGHTS_APPLICABLE';

// what JSON.stringify escapes in a string: a quote, a backslash, a control character, half of a surrogate pair (and
// JSON.stringify leaves a whole pair as it is, which this sends to it too)
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters JSON escapes are what this finds
const ESCAPED_IN_JSON = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * JSON.stringify of a string, without its serialiser for what needs no escape: the service's own values (ids, times,
 * accessions) nearly never do, and a list writes many of them per record (see docs/benchmarks.md).
 */
export const jsonString = (value: string): string => (ESCAPED_IN_JSON.test(value) ? JSON.stringify(value) : `"${value}"`);

/** A record key's value for a row, as text and as JSON; `fields` has been pointed at the row's fields. */
export interface Value {
  text: (row: SampleRow, fields: FieldReader) => string;
  json: (row: SampleRow, fields: FieldReader) => string;
  /**
   * For the value of one manifest field: its position among the fields read, its legacy name's (-1: none), and the
   * JSON written when the row has neither (lib/standards/field-copier.ts writes such values without these functions)
   */
  field?: FieldSource;
  /** the value is the service's own, read from the row's columns, never from its fields */
  service?: true;
}

/** Where a record key's value comes from when it is one manifest field's (Value.field). */
export interface FieldSource {
  position: number;
  legacy: number;
  fallbackJson: string;
}

/**
 * One (project, manifest version, standard), compiled: its record keys in order, each with its value, and a reader
 * of the fields they take (by position, so a row's fields are found once, not looked up key by key).
 */
export interface Layout {
  keys: string[];
  values: Value[];
  fields: FieldReader;
  /** position of the traditional-knowledge field among the fields read, when the project may embargo; else -1 */
  embargo: number;
}

function compileLayout(project: TolProject, version: string, standard: Standard): Layout {
  const names: string[] = [];
  const positions = new Map<string, number>();
  const at = (name: string): number => {
    let i = positions.get(name);
    if (i === undefined) {
      i = names.push(name) - 1;
      positions.set(name, i);
    }
    return i;
  };
  // a field's value: the field, else its legacy name, else the reference's default
  const field = (name: string) => {
    const i = at(name);
    const legacy = LEGACY_KEYS[name];
    const l = legacy === undefined ? -1 : at(legacy);
    const fallback = DEFAULTS[name] ?? '';
    const fallbackJson = JSON.stringify(fallback);
    return {
      text: (_row: SampleRow, f: FieldReader): string => f.text(i) ?? (l < 0 ? undefined : f.text(l)) ?? fallback,
      json: (_row: SampleRow, f: FieldReader): string => f.json(i) ?? (l < 0 ? undefined : f.json(l)) ?? fallbackJson,
      field: { position: i, legacy: l, fallbackJson },
    };
  };
  const slotValue = (slot: Slot): Value => {
    if ('value' in slot) {
      const value = slot.value;
      return { text: (row) => value(row), json: (row) => jsonString(value(row)), service: true };
    }
    const parts = slot.fields.map(field);
    if (parts.length === 1) return parts[0] as Value;
    const text = (row: SampleRow, f: FieldReader): string =>
      parts
        .map((p) => p.text(row, f))
        .filter(Boolean)
        .join(' ');
    return { text, json: (row, f) => JSON.stringify(text(row, f)) };
  };
  // the last slot of a key wins, as it does when a record is built key by key
  const byKey = new Map<string, Value>();
  for (const slot of recordSlots(project, version, standard)) byKey.set(slot.key, slotValue(slot));
  const embargo = project === 'erga' ? at(TRADITIONAL_KNOWLEDGE) : -1;
  return { keys: [...byKey.keys()], values: [...byKey.values()], fields: new FieldReader(names), embargo };
}

const layouts = new Map<string, Layout>();
export function layoutFor(project: TolProject, version: string, standard: Standard): Layout {
  const k = `${project}|${version}|${standard}`;
  let layout = layouts.get(k);
  if (!layout) {
    layout = compileLayout(project, version, standard);
    layouts.set(k, layout);
  }
  return layout;
}

/** The traditional-knowledge answer of an ERGA sample says rights apply. */
export const rightsApply = (answer: string | undefined): boolean => {
  const v = (answer ?? '').trim().toUpperCase();
  return v !== '' && v !== 'N';
};

const embargoReader = new FieldReader([TRADITIONAL_KNOWLEDGE]);

/**
 * Traditional-knowledge rights apply and the Local Contexts Hub has not said the sample's project is public
 * (lib/samples/rights.ts): such a sample stays embargoed.
 */
export function isEmbargoed(row: Pick<SampleRow, 'project' | 'fields' | 'rightsCleared'>): boolean {
  return row.project === 'erga' && !row.rightsCleared && rightsApply(embargoReader.read(row.fields).text(0));
}

/** The layout's reader pointed at the row's fields, or null when the row is embargoed. */
export function readRow(layout: Layout, row: SampleRow): FieldReader | null {
  const fields = layout.fields.read(row.fields);
  return layout.embargo >= 0 && !row.rightsCleared && rightsApply(fields.text(layout.embargo)) ? null : fields;
}

/**
 * The one place a stored sample becomes what leaves the service, for a standard: the fields of the record's own
 * project and manifest version (not of the first record of the result, the reference's bug §5.11).
 */
export function renderSample(row: SampleRow, standard: Standard): SampleRecord {
  const layout = layoutFor(row.project, row.manifestVersion, standard);
  const fields = readRow(layout, row);
  if (!fields) return { ...EMBARGOED };
  const out: SampleRecord = {};
  for (let i = 0; i < layout.keys.length; i++) out[layout.keys[i] as string] = (layout.values[i] as Value).text(row, fields);
  return out;
}
