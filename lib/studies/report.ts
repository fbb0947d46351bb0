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
  return { sheet, row, column, value, message, path: where ? `${sheet}!${where}` : sheet };
}
