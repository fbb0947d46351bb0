import type { FieldKind, ManifestProject, MissingValueToken } from '../types';
import { DIGITS, ISO_DATE_OR_TOKEN, NON_NEGATIVE_NUMBER_OR_TOKEN, NUMBER_OR_NOT_COLLECTED, TIME_HH_MM } from './patterns';
import {
  ASG_PARTNERS,
  BARCODING_STATUS,
  DIFFICULT_OR_HIGH_PRIORITY_SAMPLE,
  DTOL_GALS,
  ORGANISM_PARTS,
  SORTER_AFFILIATIONS,
  YES_NO,
} from './vocabularies';

/** What the loader changes on top of the attribute and layout files. */
export interface FieldOverride {
  kind?: FieldKind;
  allowedValues?: string[] | null;
  normaliseValues?: boolean;
  pattern?: string | null;
  patternIsWarning?: boolean;
  missingValueTokens?: MissingValueToken[];
  min?: number;
  max?: number;
  maxDecimals?: number;
  unit?: string;
  ena?: string;
}

const latitude: FieldOverride = { kind: 'latitude', min: -90, max: 90, unit: 'DD' };
const longitude: FieldOverride = { kind: 'longitude', min: -180, max: 180, unit: 'DD' };

/**
 * Rules keyed by field name alone, valid in every project, as the runtime's are. Patterns not given here come
 * from the layout file (see patterns.ts for the corrections applied to them).
 */
export const FIELD_RULES: Record<string, FieldOverride> = {
  SERIES: { kind: 'integer', missingValueTokens: [] },
  TAXON_ID: { kind: 'integer', missingValueTokens: [] },
  // the format is a warning only; NOT_* tokens and NA are refused by the rack/tube rule (docs/tol-manifests.md §1.6)
  RACK_OR_PLATE_ID: { kind: 'pattern', patternIsWarning: true, missingValueTokens: [] },
  TUBE_OR_WELL_ID: { kind: 'pattern', patternIsWarning: true, missingValueTokens: [] },
  ORGANISM_PART: { kind: 'enum_list' },
  DATE_OF_COLLECTION: { kind: 'date_ena' },
  ORIGINAL_COLLECTION_DATE: { kind: 'date_ena' },
  DATE_OF_PRESERVATION: { kind: 'date_iso', pattern: ISO_DATE_OR_TOKEN },
  TIME_OF_COLLECTION: { kind: 'time', pattern: TIME_HH_MM },
  TIME_ELAPSED_FROM_COLLECTION_TO_PRESERVATION: { kind: 'number', pattern: NON_NEGATIVE_NUMBER_OR_TOKEN },
  COLLECTION_LOCATION: { kind: 'location' },
  // §8.8: the reference has no range check; out-of-range coordinates are errors here
  DECIMAL_LATITUDE: latitude,
  DECIMAL_LONGITUDE: longitude,
  ORIGINAL_DECIMAL_LATITUDE: { ...latitude, maxDecimals: 8 },
  ORIGINAL_DECIMAL_LONGITUDE: { ...longitude, maxDecimals: 8 },
  // §8.3: the reference maps LATITUDE_START to ENA "Longitude End"
  LATITUDE_START: { ...latitude, pattern: NUMBER_OR_NOT_COLLECTED, ena: 'Latitude Start' },
  LATITUDE_END: { ...latitude, pattern: NUMBER_OR_NOT_COLLECTED },
  LONGITUDE_START: { ...longitude, pattern: NUMBER_OR_NOT_COLLECTED },
  LONGITUDE_END: { ...longitude, pattern: NUMBER_OR_NOT_COLLECTED },
  DEPTH: { kind: 'number', unit: 'm' },
  ELEVATION: { kind: 'number', unit: 'm' },
  VOUCHER_LINK: { kind: 'url_list' },
  PROXY_VOUCHER_LINK: { kind: 'url_list' },
  VOUCHER_INSTITUTION: { kind: 'url' },
  COLLECTOR_ORCID_ID: { kind: 'pattern' },
  SAMPLE_COORDINATOR_ORCID_ID: { kind: 'pattern' },
  // the attribute file gives it the Y/N vocabulary by mistake; it is a Local Contexts Hub project id
  ASSOCIATED_TRADITIONAL_KNOWLEDGE_OR_BIOCULTURAL_PROJECT_ID: { kind: 'pattern', allowedValues: null },
  // the permit rule applies the filename pattern only when the permit is required (§8.2)
  ETHICS_PERMITS_FILENAME: { kind: 'text', missingValueTokens: ['NOT_APPLICABLE'] },
  SAMPLING_PERMITS_FILENAME: { kind: 'text', missingValueTokens: ['NOT_APPLICABLE'] },
  NAGOYA_PERMITS_FILENAME: { kind: 'text', missingValueTokens: ['NOT_APPLICABLE'] },
  // a token would merge unrelated samples into one specimen
  SPECIMEN_ID: { missingValueTokens: [] },
  // DTOLENV's integer-only measurements (runtime `strict_regex ^\d+$`)
  CHLOROPHYL_A: { kind: 'integer', pattern: DIGITS, missingValueTokens: [] },
  DISSOLVED_OXYGEN: { kind: 'integer', pattern: DIGITS, missingValueTokens: [] },
  SALINITY: { kind: 'integer', pattern: DIGITS, missingValueTokens: [] },
  SAMPLING_WATER_BODY_DEPTH: { kind: 'integer', pattern: DIGITS, missingValueTokens: [] },
  WATER_SPEED: { kind: 'integer', pattern: DIGITS, missingValueTokens: [] },
  TEMPERATURE: { kind: 'integer', pattern: DIGITS, missingValueTokens: [] },
  BARCODING_STATUS: { allowedValues: BARCODING_STATUS },
};

/** ERGA accepts case/format variants of every vocabulary value and of the country, with a warning (§1.5). */
const ERGA_NORMALISED = [
  'PURPOSE_OF_SPECIMEN',
  'LIFESTAGE',
  'SEX',
  'ORGANISM_PART',
  'SYMBIONT',
  'GAL',
  'DIFFICULT_OR_HIGH_PRIORITY_SAMPLE',
  'SPECIMEN_IDENTITY_RISK',
  'MIXED_SAMPLE_RISK',
  'SIZE_OF_TISSUE_IN_TUBE',
  'TISSUE_REMOVED_FOR_BARCODING',
  'TISSUE_FOR_BARCODING',
  'BARCODING_STATUS',
  'TISSUE_REMOVED_FOR_BIOBANKING',
  'TISSUE_FOR_BIOBANKING',
  'DNA_REMOVED_FOR_BIOBANKING',
  'REGULATORY_COMPLIANCE',
  'ASSOCIATED_TRADITIONAL_KNOWLEDGE_OR_BIOCULTURAL_RIGHTS_APPLICABLE',
  'ETHICS_PERMITS_REQUIRED',
  'SAMPLING_PERMITS_REQUIRED',
  'NAGOYA_PERMITS_REQUIRED',
  'HAZARD_GROUP',
  'PRIMARY_BIOGENOME_PROJECT',
  'COLLECTION_LOCATION',
];

/** Runtime corrections per project (docs/tol-manifests.md §1.4, §1.7–1.9, §8). */
export const PROJECT_OVERRIDES: Record<ManifestProject, Record<string, FieldOverride>> = {
  dtol: {
    // §8.1: the layout spells LIFESTAGE the ENA way; accept both spellings, store the runtime one
    LIFESTAGE: { normaliseValues: true },
  },
  asg: {
    LIFESTAGE: { normaliseValues: true },
    // §1.7: ASG's barcode hubs are its partners (the attribute file still lists DTOL's hubs)
    BARCODE_HUB: { allowedValues: [...ASG_PARTNERS, 'NOT_PROVIDED'] },
  },
  erga: {
    ...Object.fromEntries(ERGA_NORMALISED.map((name) => [name, { normaliseValues: true }])),
    // the attribute file adds DNA_EXTRACT, which the runtime refuses
    TISSUE_FOR_BIOBANKING: { allowedValues: ORGANISM_PARTS, normaliseValues: true },
    // ERGA's coordinates: a number or NOT_COLLECTED, nothing else (§1.6)
    DECIMAL_LATITUDE: { pattern: NUMBER_OR_NOT_COLLECTED },
    DECIMAL_LONGITUDE: { pattern: NUMBER_OR_NOT_COLLECTED },
    // §8.10: the reference never enforced Y/N here because of a misspelt key
    ETHICS_PERMITS_REQUIRED: { allowedValues: YES_NO, normaliseValues: true },
  },
  dtolenv: {
    // §1.9: runtime GAL is DTOL's upper-case list; the file's title case is accepted with a warning
    GAL: { allowedValues: DTOL_GALS, normaliseValues: true },
    // vocabularies the runtime applies by field name to every project, missing from this attribute file
    SORTER_AFFILIATION: { kind: 'enum', allowedValues: SORTER_AFFILIATIONS },
    DIFFICULT_OR_HIGH_PRIORITY_SAMPLE: { kind: 'enum', allowedValues: DIFFICULT_OR_HIGH_PRIORITY_SAMPLE },
    MIXED_SAMPLE_RISK: { kind: 'enum', allowedValues: YES_NO },
  },
};

/** Layout location entries that are really the missing-value tokens, not places. */
export const LOCATION_TOKENS = new Set(['not applicable', 'not collected', 'not provided']);
/** §8.1: the layout still says "Macedonia"; the runtime spells the country "North Macedonia". */
export const LOCATION_RENAMES: Record<string, string> = { Macedonia: 'North Macedonia' };
