import type ExcelJS from 'exceljs';

/**
 * Turns exceljs cell values into the text the submitter sees, for every workbook the service reads (manifests,
 * study sheets, the schema workbooks): dates as ISO (YYYY-MM-DD, or HH:MM for a time of day), integers without
 * ".0", decimals without binary noise (0.1 + 0.2 is "0.3"), formulas by their cached result, rich text joined.
 */

const MS_PER_DAY = 86_400_000;
// Excel serial 0 is 1899-12-30; a time-only cell is a fraction of a day after it
const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

/** A date cell as text: YYYY-MM-DD at midnight, HH:MM[:SS] for a time of day, else YYYY-MM-DDTHH:MM[:SS]. */
export function dateText(d: Date): string {
  if (Number.isNaN(d.getTime())) return '';
  // round to the second: Excel's day fractions carry float noise (10:30 may be 10:29:59.9996)
  const t = new Date(Math.round(d.getTime() / 1000) * 1000);
  const time = `${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())}${t.getUTCSeconds() ? `:${pad(t.getUTCSeconds())}` : ''}`;
  const day = `${pad(t.getUTCFullYear(), 4)}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
  // serials in [0, 1) are times of day (Excel shows no date for them), midnight included
  if (t.getTime() >= EXCEL_EPOCH_MS && t.getTime() - EXCEL_EPOCH_MS < MS_PER_DAY) return time;
  const midnight = t.getUTCHours() === 0 && t.getUTCMinutes() === 0 && t.getUTCSeconds() === 0;
  return midnight ? day : `${day}T${time}`;
}

/** A number as Excel shows it in General format, without float noise and without exponent for ordinary sizes. */
export function numberText(n: number): string {
  if (!Number.isFinite(n)) return '';
  if (Number.isSafeInteger(n)) return String(n);
  // 15 significant digits is what Excel itself keeps; String() only uses an exponent below 1e-6 or from 1e21
  return String(Number(n.toPrecision(15)));
}

function isDateFormat(numFmt: string | undefined): boolean {
  if (!numFmt) return false;
  const stripped = numFmt.replace(/\[[^\][]*]/g, '').replace(/"[^"]*"/g, '');
  return /[ymdhs]/i.test(stripped);
}

const epochOffset = (date1904: boolean): number => 25569 - (date1904 ? 1462 : 0);

export const excelSerialToDate = (serial: number, date1904: boolean): Date =>
  new Date(Math.round((serial - epochOffset(date1904)) * MS_PER_DAY));

/**
 * The number Excel stored behind a date cell. exceljs rounds the serial to the millisecond when it makes the Date,
 * so the shortest decimal that maps to the same millisecond is the value that was typed. That is exact up to 7
 * decimals; an 8th decimal may come back off by one (a millisecond is 1.16e-8 of a day).
 */
export function serialOfDate(d: Date, date1904 = false): number {
  const ms = d.getTime();
  const center = ms / MS_PER_DAY + epochOffset(date1904);
  for (let digits = 0; digits <= 15; digits++) {
    const x = Number(center.toFixed(digits));
    if (excelSerialToDate(x, date1904).getTime() === ms) return x;
  }
  return center;
}

/**
 * The displayed text of a cell value; numbers with a date format become dates, unless `numeric` says the column
 * holds numbers: the official templates format some numeric columns (ELEVATION, ORIGINAL_DECIMAL_LATITUDE) as
 * times, and the number typed there is what the submitter meant.
 */
export interface CellTextOptions {
  /** the workbook counts days from 1904 (old Mac Excel) */
  date1904?: boolean;
  /** the column holds numbers, whatever its number format says */
  numeric?: boolean;
  /** an error value (#N/A, #REF!) as its text (manifests report it) or as empty (study sheets treat it as blank) */
  errors?: 'text' | 'empty';
}

export function cellText(value: ExcelJS.CellValue | undefined, numFmt?: string, opts: CellTextOptions = {}): string {
  const { date1904 = false, numeric = false } = opts;
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') {
    return isDateFormat(numFmt) && !numeric ? dateText(excelSerialToDate(value, date1904)) : numberText(value);
  }
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return numeric ? numberText(serialOfDate(value, date1904)) : dateText(value);
  if ('error' in value) return opts.errors === 'empty' ? '' : value.error;
  if ('richText' in value) return value.richText.map((r) => r.text).join('');
  if ('formula' in value || 'sharedFormula' in value) {
    const result = value.result;
    return result === undefined ? '' : cellText(result, numFmt, { ...opts, date1904: value.date1904 ?? date1904 });
  }
  if ('text' in value) {
    // a hyperlink's text may itself be rich text
    const text: unknown = value.text;
    if (typeof text === 'string') return text;
    if (text && typeof text === 'object' && 'richText' in text && Array.isArray(text.richText)) {
      return text.richText.map((r: { text?: unknown }) => String(r.text ?? '')).join('');
    }
    return '';
  }
  return '';
}

export const isFormula = (value: ExcelJS.CellValue | undefined): boolean =>
  typeof value === 'object' && value !== null && !(value instanceof Date) && ('formula' in value || 'sharedFormula' in value);

/**
 * Texts that mean "no value": pandas' default NA tokens, with which the reference reads every sheet (manifests and
 * studies alike), so a cell holding one is blank.
 */
export const PANDAS_NA_VALUES: ReadonlySet<string> = new Set([
  '#N/A',
  '#N/A N/A',
  '#NA',
  '-1.#IND',
  '-1.#QNAN',
  '-NaN',
  '-nan',
  '1.#IND',
  '1.#QNAN',
  '<NA>',
  'N/A',
  'NULL',
  'NaN',
  'n/a',
  'nan',
  'NaT',
  'null',
  'NIL',
  'nil',
  'NA',
  'na',
  'NAN',
  'Nan',
]);
