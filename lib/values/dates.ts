import { Invalid } from '@/lib/errors';

/**
 * Dates as the API's parameters give them and its answers print them, for the query API, the audit, the statistics
 * and the portal's filter forms alike.
 */

/** Sentences of the reference system (docs/api-behaviour.md §1.6). */
export const DATE_MESSAGES = {
  required: "'from' and 'to' date values are required but not provided.",
  missing: "Missing date. Both 'from' and 'to' date values must be provided together.",
  unparsable: 'Failed to parse one of the dates',
  order: "Invalid date. 'from' date must be earlier than 'to' date.",
} as const;

export interface DateRange {
  /** inclusive */
  from: Date;
  /** exclusive */
  to: Date;
}

/**
 * A `from`/`to` pair with the reference's rules, in its order: both or neither, parsable, from not after to
 * (from == to is allowed and matches nothing).
 */
export function parseDateRange(from: string | undefined, to: string | undefined, required: true): DateRange;
export function parseDateRange(from: string | undefined, to: string | undefined, required: boolean): DateRange | null;
export function parseDateRange(from: string | undefined, to: string | undefined, required: boolean): DateRange | null {
  const f = from?.trim() || undefined;
  const t = to?.trim() || undefined;
  if (!f && !t) {
    if (required) throw Invalid(DATE_MESSAGES.required);
    return null;
  }
  if (!f || !t) throw Invalid(DATE_MESSAGES.missing);
  const a = parseDate(f);
  const b = parseDate(t);
  if (!a || !b) throw Invalid(DATE_MESSAGES.unparsable);
  if (a.getTime() > b.getTime()) throw Invalid(DATE_MESSAGES.order);
  return { from: a, to: b };
}

/**
 * A stored timestamp as the reference prints it: ISO 8601 in UTC with `+00:00`, microseconds only when non-zero.
 * Takes the `YYYY-MM-DDTHH:MI:SS.US` text the queries select (see `utcText`), so no precision is lost to Date.
 */
export function formatUtc(text: string | null | undefined): string {
  if (!text) return '';
  return `${text.endsWith('.000000') ? text.slice(0, -7) : text}+00:00`;
}

// Date, optional time, optional offset. The offset may be Z, ±HH, ±HHMM, ±HH:MM or the documented short ±HH:M, and a
// space may stand where a `+` was decoded from a query string (`…T00:00:00 00:00`).
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?(?:([Zz])|([+\- ])(\d{2})(?::?(\d{1,2}))?)?$/;

/**
 * One ISO 8601 / RFC 3339 date-time, or a date alone (UTC midnight); values without an offset are UTC. Partial dates,
 * impossible dates and anything else give null: the caller answers 400, never 500. Here, beside the parameters, so
 * that the portal's filter forms check dates as the server does.
 */
export function parseDate(raw: string): Date | null {
  const m = ISO.exec(raw.trim());
  if (!m) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '', , sign, oh = '0', om = '0'] = m;
  const parts = [y, mo, d, h, mi, s].map(Number) as [number, number, number, number, number, number];
  const [year, month, day, hour, minute, second] = parts;
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  const ms = Number(frac.padEnd(3, '0').slice(0, 3));
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  const check = new Date(utc);
  // Date.UTC rolls 31 February over into March: refuse instead
  if (check.getUTCDate() !== day || check.getUTCMonth() !== month - 1) return null;
  const offsetHours = Number(oh);
  const offsetMinutes = Number(om);
  if (offsetHours > 23 || offsetMinutes > 59) return null;
  const offset = (offsetHours * 60 + offsetMinutes) * 60_000 * (sign === '-' ? -1 : 1);
  return new Date(utc - (sign ? offset : 0));
}
