/**
 * Regexes of the layout files, corrected as docs/tol-manifests.md §8 recommends, plus the wording the reference uses
 * to describe each rule in its messages (`human_readable` in its lookups).
 */

/**
 * Makes a layout regex safe to apply as a whole-value match:
 * - the stray trailing space of the DATE_OF_COLLECTION regex made its `restricted access` alternative unusable;
 * - `[0-9]+.?[0-9]*` has an unescaped `.` that matches any character (the runtime escapes it);
 * - the reference applies regexes as prefix matches (`re.match`), so DEPTH/ELEVATION/ORCID accepted trailing junk;
 *   wrapping in `^(?:…)$` anchors every alternative.
 */
export function fixLayoutRegex(source: string): string {
  const trimmed = source.trim().replaceAll('+.?', '+\\.?');
  return `^(?:${linear(trimmed)})$`;
}

/**
 * The layouts' number patterns, rewritten to accept the same text without backtracking: `[0-9]+\.?[0-9]*` can split a
 * run of digits between its two parts in as many ways as it is long, so a long run ending in a letter took time
 * growing with the square of its length. Each rewrite reads a digit one way only (tests/patterns-linear.test.ts
 * holds them to the originals).
 */
export const LINEAR_REWRITES: [string, string][] = [
  // DEPTH, ELEVATION: "0", "0." and digits, or digits not led by 0 with an optional fraction
  ['(0|((0\\.)|([1-9][0-9]*\\.?))[0-9]*)', '(0|0\\.[0-9]*|[1-9][0-9]*(?:\\.[0-9]*)?)'],
  // DECIMAL_LATITUDE, DECIMAL_LONGITUDE
  ['[0-9]+\\.?[0-9]*', '[0-9]+(?:\\.[0-9]*)?'],
];

const linear = (source: string): string => LINEAR_REWRITES.reduce((s, [from, to]) => s.replaceAll(from, to), source);

/** Number alternatives used where the layout has none or the runtime differs from the layout. */
export const NUMBER_OR_NOT_COLLECTED = '^(?:[+-]?[0-9]+(?:\\.[0-9]*)?|not collected)$';
export const NON_NEGATIVE_NUMBER_OR_TOKEN = '^(?:[0-9]+(?:\\.[0-9]+)?|not applicable|not collected|not provided)$';
export const ISO_DATE_OR_TOKEN = '^(?:[0-9]{4}-[0-9]{2}-[0-9]{2}|not applicable|not collected|not provided)$';
export const DIGITS = '^[0-9]+$';
/** 24 h clock; the layout also allows 24:59, which is not a time */
export const TIME_HH_MM = '^(?:(?:[01][0-9]|2[0-3]):[0-5][0-9]|24:00)$';

/** The reference's `human_readable` texts, used in "Allowed values are …" messages. */
export const PATTERN_DESCRIPTIONS: Record<string, string> = {
  RACK_OR_PLATE_ID: 'two letters followed by eight digits (FluidX format)',
  TUBE_OR_WELL_ID: 'two letters followed by eight digits (FluidX format)',
  DATE_OF_COLLECTION: 'YYYY-MM-DD, YYYY-MM, YYYY, NOT_COLLECTED or NOT_PROVIDED',
  ORIGINAL_COLLECTION_DATE: 'Date as YYYY, YYYY-MM or YYYY-MM-DD',
  DATE_OF_PRESERVATION: 'YYYY-MM-DD, NOT_APPLICABLE, NOT_COLLECTED or NOT_PROVIDED',
  TIME_OF_COLLECTION: '24-hour format with hours and minutes separated by colon',
  DECIMAL_LATITUDE: 'numeric, NOT_COLLECTED or NOT_PROVIDED',
  DECIMAL_LONGITUDE: 'numeric, NOT_COLLECTED or NOT_PROVIDED',
  LATITUDE_START: 'numeric, or NOT_COLLECTED',
  LONGITUDE_START: 'numeric, or NOT_COLLECTED',
  LATITUDE_END: 'numeric, or NOT_COLLECTED',
  LONGITUDE_END: 'numeric, or NOT_COLLECTED',
  ORIGINAL_DECIMAL_LATITUDE: 'numeric with at most 8 decimal places',
  ORIGINAL_DECIMAL_LONGITUDE: 'numeric with at most 8 decimal places',
  DEPTH: 'a non-negative number (metres)',
  ELEVATION: 'a number (metres)',
  SERIES: 'integers',
  TIME_ELAPSED_FROM_COLLECTION_TO_PRESERVATION: 'a number of hours or NOT_APPLICABLE, NOT_COLLECTED, NOT_PROVIDED',
  COLLECTOR_ORCID_ID:
    '16-digit number that is compatible with the ISO Standard (ISO 27729), if multiple IDs separate with a | and no spaces; or NOT_PROVIDED, NOT_APPLICABLE',
  SAMPLE_COORDINATOR_ORCID_ID:
    '16-digit number that is compatible with the ISO Standard (ISO 27729), if multiple IDs separate with a | and no spaces',
  ASSOCIATED_TRADITIONAL_KNOWLEDGE_OR_BIOCULTURAL_PROJECT_ID: '[ID provided by the local context hub]',
  ETHICS_PERMITS_FILENAME: "filename (including '.pdf' extension) if permit is required or NOT_APPLICABLE if permit is not required",
  SAMPLING_PERMITS_FILENAME: "filename (including '.pdf' extension) if permit is required or NOT_APPLICABLE if permit is not required",
  NAGOYA_PERMITS_FILENAME: "filename (including '.pdf' extension) if permit is required or NOT_APPLICABLE if permit is not required",
  TAXON_ID: 'integers',
};

export const INTEGER_DESCRIPTION = 'integer';
