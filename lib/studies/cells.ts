import type ExcelJS from 'exceljs';

/**
 * Cell values of an uploaded study spreadsheet as the text the submitter sees: integers without ".0", decimals
 * without float noise, dates as YYYY-MM-DD (with THH:MM:SS when not midnight), formulas by their cached result,
 * rich text and hyperlinks by their text. Error values (#N/A, #REF!) are empty.
 */
export function cellText(value: ExcelJS.CellValue | undefined, numFmt?: string): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return isDateFormat(numFmt) ? dateText(serialToDate(value)) : numberText(value);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return dateText(value);
  if ('error' in value) return '';
  if ('richText' in value) return value.richText.map((r) => r.text).join('');
  if ('formula' in value || 'sharedFormula' in value) {
    return value.result === undefined ? '' : cellText(value.result as ExcelJS.CellValue, numFmt);
  }
  if ('text' in value) {
    const text: unknown = value.text;
    if (typeof text === 'string') return text;
    if (text && typeof text === 'object' && 'richText' in text && Array.isArray(text.richText)) {
      return text.richText.map((r: { text?: unknown }) => String(r.text ?? '')).join('');
    }
  }
  return '';
}

export const isFormula = (value: ExcelJS.CellValue | undefined): boolean =>
  typeof value === 'object' && value !== null && !(value instanceof Date) && ('formula' in value || 'sharedFormula' in value);

/** A number as Excel's General format shows it: no float noise, no exponent for ordinary sizes. */
export function numberText(n: number): string {
  if (!Number.isFinite(n)) return '';
  if (Number.isSafeInteger(n)) return String(n);
  return String(Number(n.toPrecision(15)));
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

export function dateText(d: Date): string {
  if (Number.isNaN(d.getTime())) return '';
  // Excel's day fractions carry float noise: round to the second
  const t = new Date(Math.round(d.getTime() / 1000) * 1000);
  const day = `${pad(t.getUTCFullYear(), 4)}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
  if (!t.getUTCHours() && !t.getUTCMinutes() && !t.getUTCSeconds()) return day;
  return `${day}T${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())}:${pad(t.getUTCSeconds())}`;
}

function isDateFormat(numFmt: string | undefined): boolean {
  if (!numFmt) return false;
  const stripped = numFmt.replace(/\[[^\]]*]/g, '').replace(/"[^"]*"/g, '');
  return /[ymdhs]/i.test(stripped);
}

const serialToDate = (serial: number) => new Date(Math.round((serial - 25569) * 86_400_000));
