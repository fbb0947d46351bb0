import { list, messages } from '../messages';
import {
  checkCoordinate,
  earliestDay,
  isInteger,
  isValidUrl,
  latestDay,
  latestToday,
  missingTokenOf,
  parseEnaDate,
  parseIsoDate,
  vocabularyKey,
} from '../values';
import type { RuleCode } from './catalogue';
import { type CompiledField, cellKey, matchesPattern, type RuleState, type WorkRow } from './context';

/**
 * Per-cell checks: mandatory, vocabulary, and the format of each kind of field. One pass over rows × fields with
 * the checks precompiled, so the cost is linear in the number of cells.
 */

/** Fields whose emptiness and format other rules judge with better messages. */
export const OWNED_ELSEWHERE: ReadonlySet<string> = new Set([
  // taxonomy.ts: filled from the taxonomy where possible
  'TAXON_ID',
  'SCIENTIFIC_NAME',
  'ORDER_OR_GROUP',
  'FAMILY',
  'GENUS',
  // rack-tube.ts: NA spellings and tokens have their own message
  'RACK_OR_PLATE_ID',
  'TUBE_OR_WELL_ID',
]);
/** ERGA's coordinate groups: erga.ts reports blanks; the format is still checked here. */
const ERGA_COORDINATES = new Set([
  'DECIMAL_LATITUDE',
  'DECIMAL_LONGITUDE',
  'LATITUDE_START',
  'LONGITUDE_START',
  'LATITUDE_END',
  'LONGITUDE_END',
]);

type Check = (s: RuleState, row: WorkRow, f: CompiledField, value: string) => void;

const fail = (s: RuleState, rule: RuleCode, row: WorkRow, f: CompiledField, message: string): void => {
  s.failed.add(cellKey(row.rowNumber, f.def.name));
  s.report.error(rule, { row: row.rowNumber, field: f.def.name, value: row.raw[f.def.name] ?? row.values[f.def.name] ?? '', message });
};

const allowedText = (f: CompiledField): string => f.def.patternDescription ?? 'as described in the SOP';

/** Is `value` one of the missing-value tokens this field accepts? */
const acceptedToken = (f: CompiledField, value: string): boolean => {
  const token = missingTokenOf(value);
  return token !== null && f.tokens.has(token);
};

/** A vocabulary value, or its canonical spelling with a warning when the field accepts variants; null if neither. */
function vocabularyValue(s: RuleState, row: WorkRow, f: CompiledField, value: string): string | null {
  if (f.allowed?.has(value)) return value;
  const canonical = f.canonicalByKey?.get(vocabularyKey(value));
  if (canonical === undefined) return null;
  s.report.warn('vocabulary_normalised', {
    row: row.rowNumber,
    field: f.def.name,
    value,
    message: messages.caseFormat(value, row.rowNumber, f.def.name, canonical),
  });
  return canonical;
}

const checkEnum: Check = (s, row, f, value) => {
  const v = vocabularyValue(s, row, f, value);
  if (v === null) fail(s, 'vocabulary', row, f, messages.invalid(value, f.def.name, row.rowNumber, list(f.def.allowedValues ?? [])));
  else row.values[f.def.name] = v;
};

const checkEnumList: Check = (s, row, f, value) => {
  const parts = value.split('|').map((p) => p.trim());
  const out: string[] = [];
  for (const part of parts) {
    const v = part ? vocabularyValue(s, row, f, part) : null;
    if (v === null) {
      fail(s, 'vocabulary', row, f, messages.invalid(part || value, f.def.name, row.rowNumber, list(f.def.allowedValues ?? [])));
      return;
    }
    out.push(v);
  }
  // rewritten only when a term was respelled, so a valid cell is stored as typed
  if (out.some((v, i) => v !== parts[i])) row.values[f.def.name] = out.join(' | ');
};

const checkPattern =
  (rule: 'pattern' | 'number' | 'time'): Check =>
  (s, row, f, value) => {
    if (matchesPattern(f, value)) return;
    if (f.def.patternIsWarning) {
      s.report.warn(rule, { row: row.rowNumber, field: f.def.name, value, message: messages.fluidx(value, f.def.name, row.rowNumber) });
    } else {
      fail(s, rule, row, f, messages.invalid(value, f.def.name, row.rowNumber, allowedText(f)));
    }
  };

const checkInteger: Check = (s, row, f, value) => {
  const ok = f.regex ? matchesPattern(f, value) : isInteger(value);
  if (!ok) fail(s, 'integer', row, f, messages.invalid(value, f.def.name, row.rowNumber, allowedText(f)));
};

const checkEnaDate: Check = (s, row, f, value) => {
  if (acceptedToken(f, value)) return;
  if (!matchesPattern(f, value)) {
    fail(s, 'date', row, f, messages.dateFormat(value, f.def.name, row.rowNumber, allowedText(f)));
    return;
  }
  // a word the pattern allows ("restricted access")
  if (!/^[0-9]/.test(value)) return;
  const range = parseEnaDate(value);
  if (!range) {
    fail(s, 'date', row, f, messages.dateNotInCalendar(value, f.def.name, row.rowNumber));
    return;
  }
  const today = latestToday(s.now);
  if (earliestDay(range.start) > today || (range.end && earliestDay(range.end) > today)) {
    fail(s, 'date_future', row, f, messages.dateFuture(value, f.def.name, row.rowNumber));
  } else if (range.end && latestDay(range.end) < earliestDay(range.start)) {
    fail(s, 'date', row, f, messages.dateRangeReversed(value, f.def.name, row.rowNumber));
  }
};

const checkIsoDate: Check = (s, row, f, value) => {
  if (acceptedToken(f, value)) return;
  const date = parseIsoDate(value);
  if (!date) {
    const shape = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(value);
    fail(
      s,
      'date',
      row,
      f,
      shape
        ? messages.dateNotInCalendar(value, f.def.name, row.rowNumber)
        : messages.dateFormat(value, f.def.name, row.rowNumber, 'YYYY-MM-DD'),
    );
    return;
  }
  // today is allowed: the reference refuses it, but its own message says only "cannot be in the future"
  if (earliestDay(date) > latestToday(s.now)) fail(s, 'date_future', row, f, messages.dateFuture(value, f.def.name, row.rowNumber));
};

const checkCoordinates: Check = (s, row, f, value) => {
  if (acceptedToken(f, value)) return;
  if (!matchesPattern(f, value)) {
    fail(s, 'coordinates', row, f, messages.invalid(value, f.def.name, row.rowNumber, allowedText(f)));
    return;
  }
  // a word the pattern allows ("restricted access")
  if (!/^[+-]?[0-9]/.test(value)) return;
  const r = checkCoordinate(value, f.def.min ?? -Infinity, f.def.max ?? Infinity, f.def.maxDecimals);
  if (r.ok) return;
  const text =
    r.reason === 'range'
      ? messages.coordinateRange(value, f.def.name, row.rowNumber, f.def.min ?? -Infinity, f.def.max ?? Infinity)
      : messages.invalid(value, f.def.name, row.rowNumber, allowedText(f));
  fail(s, 'coordinates', row, f, text);
};

const checkLocation: Check = (s, row, f, value) => {
  if (acceptedToken(f, value)) return;
  const [country = '', ...rest] = value.split('|').map((p) => p.trim());
  let canonical: string | null = f.allowed?.has(country) ? country : null;
  if (canonical === null) {
    // country names are compared ignoring case everywhere; only ERGA announces and stores the canonical spelling
    const key = vocabularyKey(country);
    const match = f.def.allowedValues?.find((c) => vocabularyKey(c) === key) ?? null;
    if (match && f.def.normaliseValues) {
      s.report.warn('vocabulary_normalised', {
        row: row.rowNumber,
        field: f.def.name,
        value,
        message: messages.caseFormat(country, row.rowNumber, f.def.name, match),
      });
      canonical = match;
    } else {
      canonical = match ? country : null;
    }
  }
  if (canonical === null || !rest.some((p) => p !== '')) {
    fail(s, 'collection_location', row, f, messages.location(value, row.rowNumber));
    return;
  }
  if (canonical !== country) {
    const bar = value.indexOf('|');
    row.values[f.def.name] = `${canonical} ${value.slice(bar)}`;
  }
};

const checkUrl: Check = (s, row, f, value) => {
  if (acceptedToken(f, value)) return;
  if (!isValidUrl(value)) fail(s, 'url', row, f, messages.url(value, f.def.name, row.rowNumber));
};

const checkUrlList: Check = (s, row, f, value) => {
  if (acceptedToken(f, value)) return;
  const bad = value
    .split('|')
    .map((p) => p.trim())
    .find((p) => !isValidUrl(p));
  if (bad !== undefined) fail(s, 'url', row, f, messages.url(bad || value, f.def.name, row.rowNumber));
};

const CHECKS: Record<CompiledField['def']['kind'], Check | null> = {
  text: null,
  enum: checkEnum,
  enum_list: checkEnumList,
  integer: checkInteger,
  number: checkPattern('number'),
  date_ena: checkEnaDate,
  date_iso: checkIsoDate,
  time: checkPattern('time'),
  latitude: checkCoordinates,
  longitude: checkCoordinates,
  location: checkLocation,
  url: checkUrl,
  url_list: checkUrlList,
  pattern: checkPattern('pattern'),
};

export async function checkCells(s: RuleState): Promise<void> {
  const erga = s.definition.project === 'erga';
  const plan = [...s.fields.values()]
    .filter((f) => s.present.has(f.def.name) && !OWNED_ELSEWHERE.has(f.def.name))
    .map((f) => ({ f, check: CHECKS[f.def.kind], mandatory: f.def.required && !(erga && ERGA_COORDINATES.has(f.def.name)) }));
  for (const row of s.rows) {
    // a large sheet is checked in slices, so that the service answers others meanwhile
    await s.turns.maybeGive();
    for (const { f, check, mandatory } of plan) {
      const value = row.values[f.def.name] ?? '';
      if (!value) {
        if (mandatory) {
          const message = f.def.name === 'SYMBIONT' ? messages.missingSymbiont(row.rowNumber) : messages.missing(f.def.name, row.rowNumber);
          fail(s, 'mandatory', row, f, message);
        }
        continue;
      }
      check?.(s, row, f, value);
    }
  }
  warnPreservedBeforeCollected(s);
}

/** A sample cannot be preserved before it was collected; a warning, since one of the two dates is usually a typo. */
function warnPreservedBeforeCollected(s: RuleState): void {
  if (!s.fields.has('DATE_OF_PRESERVATION') || !s.fields.has('DATE_OF_COLLECTION')) return;
  for (const row of s.rows) {
    const preserved = parseIsoDate(row.values.DATE_OF_PRESERVATION ?? '');
    const collected = parseEnaDate(row.values.DATE_OF_COLLECTION ?? '');
    if (!preserved || !collected || s.failed.has(cellKey(row.rowNumber, 'DATE_OF_COLLECTION'))) continue;
    const value = row.values.DATE_OF_PRESERVATION ?? '';
    if (latestDay(preserved) < earliestDay(collected.start)) {
      s.report.warn('date_order', {
        row: row.rowNumber,
        field: 'DATE_OF_PRESERVATION',
        value,
        message: messages.preservedBeforeCollected(value, row.rowNumber, row.values.DATE_OF_COLLECTION ?? ''),
      });
    }
  }
}
