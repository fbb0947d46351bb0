import { isTolProject } from '@/lib/projects/contract';
import { columnLetter } from './columns';
import { FIELD_RULES, type FieldOverride, LOCATION_RENAMES, LOCATION_TOKENS, PROJECT_OVERRIDES } from './reference/overrides';
import { fixLayoutRegex, INTEGER_DESCRIPTION, PATTERN_DESCRIPTIONS } from './reference/patterns';
import { type AttributeEntry, fieldNameOf, type LayoutField, readAttributes, readLayout, tolDataDir } from './reference/source';
import {
  type FieldDefinition,
  type FieldKind,
  MANIFEST_PROJECTS,
  type ManifestDefinition,
  type ManifestProject,
  MISSING_VALUE_TOKENS,
  type MissingValueToken,
} from './types';
import { patternSubject, vocabularyKey } from './values';

/** Current versions (the reference's settings map, docs/tol-manifests.md §1.1). */
export const CURRENT_VERSIONS: Record<ManifestProject, string> = {
  asg: '2.5',
  dtol: '2.5',
  dtolenv: '2.4',
  erga: '2.5.1',
};

const MANIFEST_TYPES: Record<ManifestProject, string> = { asg: 'ASG', dtol: 'DTOL', dtolenv: 'DTOLENV', erga: 'ERGA' };

/** Compares dotted versions numerically ("2.4.10" after "2.4.9"). */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d) return d;
  }
  return 0;
}

function acceptedTokens(kind: FieldKind, allowed: string[] | null, pattern: string | null, normalise: boolean): MissingValueToken[] {
  if (kind === 'enum' || kind === 'enum_list') {
    const keys = new Set((allowed ?? []).map((v) => (normalise ? vocabularyKey(v) : v)));
    return MISSING_VALUE_TOKENS.filter((t) => keys.has(normalise ? vocabularyKey(t) : t));
  }
  if (pattern) {
    const re = new RegExp(pattern, 'i');
    return MISSING_VALUE_TOKENS.filter((t) => re.test(patternSubject(t)));
  }
  if (kind === 'integer') return [];
  return [...MISSING_VALUE_TOKENS];
}

function countries(layout: LayoutField | undefined): string[] | null {
  if (!layout?.enum) return null;
  return layout.enum.filter((c) => !LOCATION_TOKENS.has(c)).map((c) => LOCATION_RENAMES[c] ?? c);
}

function buildField(project: ManifestProject, entry: AttributeEntry, layout: LayoutField | undefined, position: number): FieldDefinition {
  const name = fieldNameOf(entry);
  const o: FieldOverride = { ...FIELD_RULES[name], ...PROJECT_OVERRIDES[project][name] };
  const isLocation = o.kind === 'location';
  const allowedValues = o.allowedValues !== undefined ? o.allowedValues : isLocation ? countries(layout) : (entry.option_values ?? null);
  const kind: FieldKind = o.kind ?? (allowedValues ? 'enum' : 'text');
  const rawPattern = o.pattern !== undefined ? o.pattern : layout?.regex ? fixLayoutRegex(layout.regex) : null;
  // enum and location fields are checked against their lists, never a layout regex
  const pattern = kind === 'enum' || kind === 'enum_list' || isLocation ? null : rawPattern;
  const normaliseValues = o.normaliseValues ?? false;
  const blank = (s: string): string | null => (s === '' ? null : s);
  return {
    name,
    label: entry.label,
    column: columnLetter(position),
    block: layout?.block ?? null,
    required: entry.required === 'true',
    kind,
    allowedValues: kind === 'text' ? null : allowedValues,
    normaliseValues,
    pattern,
    patternDescription: PATTERN_DESCRIPTIONS[name] ?? (kind === 'integer' ? INTEGER_DESCRIPTION : null),
    patternIsWarning: o.patternIsWarning ?? false,
    missingValueTokens: o.missingValueTokens ?? acceptedTokens(kind, allowedValues, pattern, normaliseValues),
    min: o.min ?? null,
    max: o.max ?? null,
    maxDecimals: o.maxDecimals ?? null,
    unit: o.unit ?? layout?.unit ?? null,
    updatable: entry.is_compliant !== true,
    export: entry.show_in_api && !entry.is_sensitive,
    sensitive: entry.is_sensitive,
    standards: {
      tol: entry.standards.tol || name,
      dwc: blank(entry.standards.dwc),
      ena: o.ena ?? blank(entry.standards.ena),
      mixs: blank(entry.standards.mixs),
    },
  };
}

/** Every version named in a project's attribute file, each with the fields tagged with it. */
export function buildProjectDefinitions(dir: string, project: ManifestProject): ManifestDefinition[] {
  const entries = readAttributes(dir, project);
  const layout = readLayout(dir, project);
  const versions = [...new Set(entries.flatMap((e) => e.manifest_version))].sort(compareVersions).reverse();
  return versions.map((version) => {
    const own = entries.filter((e) => e.manifest_version.includes(version));
    return {
      project,
      version,
      current: version === CURRENT_VERSIONS[project],
      manifestType: MANIFEST_TYPES[project],
      fields: own.map((e, i) => buildField(project, e, layout.get(fieldNameOf(e)), i + 1)),
    };
  });
}

let cache: ManifestDefinition[] | null = null;

/**
 * Every manifest definition (all projects, all versions, newest first per project), built once per process from
 * the reference files. Plain JSON objects: safe to store, compare and send.
 */
export function loadManifestDefinitions(): ManifestDefinition[] {
  cache ??= MANIFEST_PROJECTS.flatMap((p) => buildProjectDefinitions(tolDataDir(), p));
  return cache;
}

export function findDefinition(project: ManifestProject, version: string): ManifestDefinition | null {
  return loadManifestDefinitions().find((d) => d.project === project && d.version === version) ?? null;
}

export function currentDefinition(project: ManifestProject): ManifestDefinition {
  const def = findDefinition(project, CURRENT_VERSIONS[project]);
  if (!def) throw new Error(`No manifest definition for ${project} ${CURRENT_VERSIONS[project]}`);
  return def;
}

export const isManifestProject = (value: string): value is ManifestProject => isTolProject(value);

/**
 * A sample's fields in its manifest's column order, as the sheet had them (a JSONB column keeps keys by length, then
 * name); `first` (e.g. the service's own keys) lead in their own order, and names the manifest lacks come last by name.
 */
export function inManifestOrder<V>(
  project: ManifestProject,
  version: string,
  fields: Record<string, V>,
  first: readonly string[] = [],
): [string, V][] {
  const def = findDefinition(project, version) ?? currentDefinition(project);
  const rank = new Map([...first, ...def.fields.map((f) => f.name)].map((name, i) => [name, i] as const));
  const at = (name: string) => rank.get(name) ?? Number.MAX_SAFE_INTEGER;
  return Object.entries(fields).sort(([a], [b]) => at(a) - at(b) || a.localeCompare(b));
}
