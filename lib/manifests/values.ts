import { PANDAS_NA_VALUES as NA_VALUES } from '@/lib/spreadsheets/cells';
import { MISSING_VALUE_TOKENS, type MissingValueToken } from './types';

/**
 * Cell-value helpers shared by the rules. All are total: they never throw, whatever the input (property-tested).
 */

// strings pandas reads as empty, so the reference treats them as blank cells (docs/tol-manifests.md §1.3.4)
export { NA_VALUES };

// zero-width characters and the BOM survive trim() and are invisible in Excel
const INVISIBLE = /[\u200B-\u200D\u2060\uFEFF]/g;

/** The value a rule sees: NFKC-normalised (as the reference's clean_str), invisible characters removed, trimmed. */
export function cleanCell(raw: string | undefined): string {
  if (!raw) return '';
  // most cells are plain ASCII, which NFKC and the invisible characters cannot touch
  if (!NON_ASCII.test(raw)) return raw.trim();
  return raw.normalize('NFKC').replace(INVISIBLE, '').trim();
}
const NON_ASCII = /[^\x20-\x7e]/;

/** Blank after cleaning, or one of the NA spellings. */
export const isBlankLike = (cleaned: string): boolean => cleaned === '' || NA_VALUES.has(cleaned);

/** Matching key for vocabularies: `_`, `-` and runs of spaces unified, case ignored. */
export const vocabularyKey = (value: string): string =>
  value
    .trim()
    .replace(/[\s_-]+/g, ' ')
    .toLowerCase();

const TOKEN_BY_KEY = new Map<string, MissingValueToken>(MISSING_VALUE_TOKENS.map((t) => [vocabularyKey(t), t]));

/** NOT_COLLECTED / NOT_PROVIDED / NOT_APPLICABLE in any case or spacing, else null. */
export const missingTokenOf = (value: string): MissingValueToken | null => TOKEN_BY_KEY.get(vocabularyKey(value)) ?? null;

/** The reference tests regexes after turning `_` into spaces (so NOT_COLLECTED meets `not collected`). */
export const patternSubject = (value: string): string => value.replaceAll('_', ' ');

// -------------------------------------------------------------------------------------------------------------
// Dates

export interface PartialDate {
  year: number;
  month: number | null;
  day: number | null;
}

/** A date of collection as ENA takes it: a day, month or year, or a range of two such. */
export interface PartialDateRange {
  start: PartialDate;
  end: PartialDate | null;
}

const DATE_PART = /^([0-9]{4})(?:-([0-9]{2})(?:-([0-9]{2})(?:T([0-9]{2}):([0-9]{2})(?::([0-9]{2}))?Z?(?:[+-][0-9]{1,2})?)?)?)?$/;

const daysInMonth = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();

function parseDatePart(text: string): PartialDate | null {
  const m = DATE_PART.exec(text);
  if (!m) return null;
  const year = Number(m[1]);
  const month = m[2] === undefined ? null : Number(m[2]);
  const day = m[3] === undefined ? null : Number(m[3]);
  if (month !== null && (month < 1 || month > 12)) return null;
  if (day !== null && month !== null && (day < 1 || day > daysInMonth(year, month))) return null;
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || (m[6] !== undefined && Number(m[6]) > 59))) {
    return null;
  }
  return { year, month, day };
}

/**
 * An ENA date (`YYYY`, `YYYY-MM`, `YYYY-MM-DD`, optional time, optional `/end`) that exists in the calendar, or
 * null. Tokens are not dates; callers check them first.
 */
export function parseEnaDate(value: string): PartialDateRange | null {
  const [first, second, ...rest] = value.trim().split('/');
  if (first === undefined || rest.length) return null;
  const start = parseDatePart(first);
  if (!start) return null;
  if (second === undefined) return { start, end: null };
  const end = parseDatePart(second);
  return end ? { start, end } : null;
}

/** Strict `YYYY-MM-DD` that exists in the calendar. */
export function parseIsoDate(value: string): PartialDate | null {
  if (!/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(value)) return null;
  return parseDatePart(value);
}

/** The earliest calendar day a partial date can mean, as YYYY-MM-DD (so "2024" is 2024-01-01). */
export const earliestDay = (d: PartialDate): string =>
  `${String(d.year).padStart(4, '0')}-${String(d.month ?? 1).padStart(2, '0')}-${String(d.day ?? 1).padStart(2, '0')}`;

/** The latest calendar day a partial date can mean ("2024-02" is 2024-02-29). */
export const latestDay = (d: PartialDate): string => {
  const month = d.month ?? 12;
  const day = d.day ?? daysInMonth(d.year, month);
  return `${String(d.year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
};

/**
 * Today's date somewhere on Earth. A submitter in UTC+14 may legitimately write a date that is still tomorrow in
 * UTC, so "in the future" means after the latest date currently in use anywhere.
 */
export const latestToday = (now: Date): string => new Date(now.getTime() + 14 * 3_600_000).toISOString().slice(0, 10);

// -------------------------------------------------------------------------------------------------------------
// Numbers and coordinates

const DECIMAL = /^[+-]?[0-9]+(?:\.([0-9]*))?$/;

/** A plain decimal number with `.` as the point (no exponent, no thousands separator), or null. */
export function parseDecimal(value: string): { value: number; decimals: number } | null {
  const m = DECIMAL.exec(value.trim());
  if (!m) return null;
  const n = Number(value);
  return Number.isFinite(n) ? { value: n, decimals: m[1]?.length ?? 0 } : null;
}

/** A coordinate within [min, max], or the reason it is not one. */
export function checkCoordinate(
  value: string,
  min: number,
  max: number,
  maxDecimals: number | null,
): { ok: true; value: number } | { ok: false; reason: 'format' | 'range' | 'decimals' } {
  const d = parseDecimal(value);
  if (!d) return { ok: false, reason: 'format' };
  if (maxDecimals !== null && d.decimals > maxDecimals) return { ok: false, reason: 'decimals' };
  if (d.value < min || d.value > max) return { ok: false, reason: 'range' };
  return { ok: true, value: d.value };
}

export const isInteger = (value: string): boolean => /^[+-]?[0-9]+$/.test(value.trim());

/** A URL a browser can open: http(s) or ftp with a host name. */
export function isValidUrl(value: string): boolean {
  if (/\s/.test(value)) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (!['http:', 'https:', 'ftp:', 'ftps:'].includes(url.protocol)) return false;
  return url.hostname === 'localhost' || /^[^.]+(\.[^.]+)+$/.test(url.hostname);
}
