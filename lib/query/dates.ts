import { Invalid } from '@/lib/errors';
import { parseDate } from './contract';

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
