import type { Attribute, SampleSpec } from './types';
import { xmlText } from './xml';

/**
 * Tree of Life samples as ENA wants them (docs/tol-manifests.md §3.3): checklist ERC000053, one attribute per manifest
 * field that has an ENA name, with the reference's value rules, then the ToLID and the relationships to the
 * specimen.
 */

export const TOL_CHECKLIST = 'ERC000053';

/** How one manifest field is sent: the ENA attribute name and, where ENA wants one, the unit. */
export interface EnaFieldMapping {
  enaName: string;
  unit?: string;
}
export type EnaMapping = Record<string, EnaFieldMapping>;

/** The mapping from manifest field definitions (lib/manifests' FieldDefinition has this shape). */
export function enaMappingFromFields(
  fields: readonly { name: string; unit?: string | null; standards: { ena: string | null } }[],
): EnaMapping {
  const mapping: EnaMapping = {};
  for (const f of fields) {
    if (f.standards.ena) mapping[f.name] = f.unit ? { enaName: f.standards.ena, unit: f.unit } : { enaName: f.standards.ena };
  }
  return mapping;
}

export interface TolSampleInput {
  /** the sample's svc_id (or the specimen's id): its alias at ENA */
  alias: string;
  /** DTOL, ASG, ERGA, DTOLENV: sent as `project name` */
  project: string;
  /** the manifest fields by manifest name */
  fields: Record<string, string>;
  /** defaults to fields.TAXON_ID */
  taxonId?: string;
  /** defaults to fields.SCIENTIFIC_NAME */
  scientificName?: string;
  /** defaults to `<alias>-<project>`; a fixed title keeps a MODIFY from changing it */
  title?: string;
  description?: string;
  centerName?: string;
  /** the ToLID (public_name) */
  tolid?: string;
  sampleDerivedFrom?: string;
  sampleSameAs?: string;
  sampleSymbiontOf?: string;
  /** ASG only: the row is a symbiont (sent as SYMBIONT Y/N) */
  symbiont?: boolean;
  /** anything else, appended last (e.g. `associated biogenome projects`) */
  extraAttributes?: Attribute[];
}

const ENA_NAME_ELEMENTS = new Set(['TAXON_ID', 'SCIENTIFIC_NAME', 'COMMON_NAME']);
const MISSING = /^(not[ _]collected|not[ _]provided|not[ _]applicable|restricted[ _]access)$/i;
const NUMBER = /^[+-]?(\d+(?:\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const COORDINATE = /LATITUDE|LONGITUDE/;
// identifiers and links keep their underscores: "EI_00123" is not "EI 00123"
const VERBATIM = /_ID(_|$)|_LINK$|_INSTITUTION$/;
const SPLIT_ON_PIPE = /^(VOUCHER_ID|PROXY_VOUCHER_ID)$|_LINK$|_FOR_BIOBANKING$/;
const SMALL_WORDS = /\s(Of|And|The|For|De|Del|Da|Di|Du|La|Le|Y)(?=\s)/g;

/** INSDC missing-value terms are lower case with spaces ("not collected"). */
const missingTerm = (v: string): string => v.toLowerCase().replace(/_/g, ' ');

/** ENA takes at most 8 decimals; written without exponent or trailing zeros. */
export function roundCoordinate(value: string): string | undefined {
  const v = value.trim();
  if (!NUMBER.test(v)) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || Math.abs(n) >= 1e21) return undefined;
  let s = n.toFixed(8);
  // toFixed(8) leaves at most eight zeros to drop
  if (s.includes('.')) s = s.replace(/0{1,8}$/, '').replace(/\.$/, '');
  return s === '-0' ? '0' : s;
}

/** "ROYAL BOTANIC GARDENS KEW" → "Royal Botanic Gardens Kew", "UNIVERSITY OF OXFORD" → "University of Oxford". */
export function enaTitleCase(value: string): string {
  if (value !== value.toUpperCase()) return value;
  return value
    .toLowerCase()
    .replace(/(^|[\s/(-])(\p{L})/gu, (_m, sep: string, c: string) => sep + c.toUpperCase())
    .replace(SMALL_WORDS, (m) => m.toLowerCase());
}

function plainValue(field: string, value: string): string {
  if (MISSING.test(value)) return missingTerm(value);
  if (VERBATIM.test(field) || /^https?:\/\//i.test(value)) return value;
  return value.replace(/_/g, ' ');
}

/** The attributes of one manifest field (none, one, or several for `|` lists and COLLECTION_LOCATION). */
function fieldAttributes(field: string, raw: string, mapping: EnaMapping, fields: Record<string, string>): Attribute[] {
  // judged after cleaning: a cell holding only characters XML cannot carry is empty
  const value = xmlText(raw).trim();
  if (!value) return [];

  if (field === 'COLLECTION_LOCATION') {
    const [country = '', ...rest] = value.split('|');
    const region = rest.join('|').trim();
    const out: Attribute[] = [];
    if (country.trim()) out.push({ tag: 'geographic location (country and/or sea)', value: plainValue(field, country.trim()) });
    if (region) out.push({ tag: 'geographic location (region and locality)', value: region });
    return out;
  }

  const m = mapping[field];
  if (!m || ENA_NAME_ELEMENTS.has(m.enaName)) return [];
  const unit = m.unit ?? (COORDINATE.test(field) ? 'DD' : field === 'DEPTH' || field === 'ELEVATION' ? 'm' : undefined);
  const attr = (v: string): Attribute => (unit ? { tag: m.enaName, value: v, units: unit } : { tag: m.enaName, value: v });

  if (COORDINATE.test(field)) {
    if (/^not[ _]collected$/i.test(value)) return [];
    return [attr(roundCoordinate(value) ?? plainValue(field, value))];
  }
  if (field === 'DATE_OF_COLLECTION') {
    const date = value.toLowerCase().replace(/_/g, ' ');
    const time = (fields.TIME_OF_COLLECTION ?? '').trim();
    return [attr(/^\d{4}-\d{2}-\d{2}$/.test(date) && /^\d{2}:\d{2}$/.test(time) ? `${date}T${time}` : date)];
  }
  if (field === 'LIFESTAGE') {
    return [attr(value.toUpperCase() === 'SPORE_BEARING_STRUCTURE' ? 'spore-bearing structure' : value.toLowerCase().replace(/_/g, ' '))];
  }
  if (field === 'GAL' || field === 'PARTNER') {
    if (MISSING.test(value)) return [];
    return [attr(enaTitleCase(value.replace(/_/g, ' ')))];
  }
  if (SPLIT_ON_PIPE.test(field)) {
    const biobanking = field.endsWith('_FOR_BIOBANKING');
    return value
      .split('|')
      .map((p) => p.trim())
      .filter((p) => p && !(biobanking && MISSING.test(p)))
      .map((p) => attr(MISSING.test(p) ? missingTerm(p) : p));
  }
  return [attr(plainValue(field, value))];
}

/** The SAMPLE_ATTRIBUTES of a ToL sample's manifest fields, in the fields' order. */
export function tolSampleAttributes(fields: Record<string, string>, mapping: EnaMapping): Attribute[] {
  return Object.entries(fields).flatMap(([field, value]) =>
    typeof value === 'string'
      ? // judged again once written: underscores become spaces, so a cell of "_" would be a blank VALUE, which ENA refuses
        fieldAttributes(field, value, mapping, fields).flatMap((a) => {
          const written = a.value.trim();
          return written ? [{ ...a, value: written }] : [];
        })
      : [],
  );
}

/** The complete SAMPLE of a ToL sample or specimen. */
export function tolSampleSpec(input: TolSampleInput, mapping: EnaMapping): SampleSpec {
  const project = input.project.toUpperCase();
  const attributes: Attribute[] = [
    { tag: 'ENA-CHECKLIST', value: TOL_CHECKLIST },
    { tag: 'project name', value: project },
  ];
  if (project === 'ASG' && input.symbiont !== undefined) attributes.push({ tag: 'SYMBIONT', value: input.symbiont ? 'Y' : 'N' });
  attributes.push(...tolSampleAttributes(input.fields, mapping));
  const extra: [string, string | undefined][] = [
    ['tolid', input.tolid],
    ['sample derived from', input.sampleDerivedFrom],
    ['sample same as', input.sampleSameAs],
    ['sample symbiont of', input.sampleSymbiontOf],
  ];
  for (const [tag, value] of extra) if (value?.trim()) attributes.push({ tag, value: value.trim() });
  attributes.push(...(input.extraAttributes ?? []));

  const scientificName = input.scientificName ?? input.fields.SCIENTIFIC_NAME;
  return {
    alias: input.alias,
    centerName: input.centerName,
    title: input.title ?? `${input.alias}-${project.toLowerCase()}`,
    taxonId: (input.taxonId ?? input.fields.TAXON_ID ?? '').trim(),
    scientificName: scientificName?.trim() || undefined,
    description: input.description,
    attributes,
  };
}

/**
 * The fields of the specimen registered once per SPECIMEN_ID: a copy of its target sample's, as a whole organism
 * and without the lab's own sample id.
 */
export function specimenFields(fields: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = { ...fields, ORGANISM_PART: 'WHOLE_ORGANISM' };
  if ('GAL_SAMPLE_ID' in fields) out.GAL_SAMPLE_ID = 'NOT_PROVIDED';
  if ('PARTNER_SAMPLE_ID' in fields) out.PARTNER_SAMPLE_ID = 'NOT_PROVIDED';
  return out;
}
