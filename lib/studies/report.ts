import { QUOTED_VALUE_MAX_CHARS, quotedValue } from '@/lib/values/cell-bound';
import { columnLetter } from './layout';
import type { ParsedSheet } from './read';
import type { ReportEntry } from './types';

/** A report entry; the column is named by the sheet's header when the sheet is given. */
export function entry(
  sheet: string,
  row: number | null,
  col: number | null,
  value: string | null,
  message: string,
  parsed?: ParsedSheet,
): ReportEntry {
  const column = col === null ? null : (parsed?.columns.find((c) => c.col === col)?.header ?? columnLetter(col));
  const where = col === null ? '' : `${columnLetter(col)}${row ?? ''}`;
  // a long value is quoted by its start, in the entry and its message: a report lists thousands of entries
  if (value !== null && value.length > QUOTED_VALUE_MAX_CHARS) {
    const quoted = quotedValue(value);
    return { sheet, row, column, value: quoted, message: message.split(value).join(quoted), path: where ? `${sheet}!${where}` : sheet };
  }
  return { sheet, row, column, value, message, path: where ? `${sheet}!${where}` : sheet };
}
