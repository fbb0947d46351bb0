import type { ValidationReport } from '@/lib/reports/contract';
import { csvCell } from '@/lib/values/csv';

/**
 * A message cut at its quoted lists: text, then the values of a list, in order. The reference's messages quote lists
 * the Python way, `['A', 'B', 'C']` (the API keeps them so). Found by searching forward, once over the text: a
 * pattern with a lazy body retried from every `['` of a long message without a `']`.
 */
export function messageParts(text: string): ({ text: string } | { values: string[]; at: number })[] {
  const parts: ({ text: string } | { values: string[]; at: number })[] = [];
  let last = 0;
  for (let at = text.indexOf("['"); at >= 0; at = text.indexOf("['", last)) {
    const end = text.indexOf("']", at + 2);
    if (end < 0) break;
    parts.push({ text: text.slice(last, at) });
    parts.push({ values: text.slice(at + 2, end).split(/',\s*'/), at });
    last = end + 2;
  }
  parts.push({ text: text.slice(last) });
  return parts;
}

/** "A, B or C" */
export const orList = (values: readonly string[]): string =>
  values.length > 1 ? `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}` : (values[0] ?? '');

/** A message as a person reads it in plain text: each quoted list as "A, B or C". */
export const plainMessage = (text: string): string =>
  messageParts(text)
    .map((p) => ('text' in p ? p.text : orList(p.values)))
    .join('');

const cell = (v: unknown) => csvCell(v === null || v === undefined ? '' : String(v));

/** The report's errors and warnings as CSV, one line each, its messages in plain words. */
export function reportCsv(report: Pick<ValidationReport, 'errors' | 'warnings'>): string {
  const lines = [
    ['severity', 'row', 'tube', 'column', 'field', 'value', 'rule', 'message'].join(','),
    ...[...report.errors.map((i) => ['error', i] as const), ...report.warnings.map((i) => ['warning', i] as const)].map(([sev, i]) =>
      [sev, i.row, i.tube, i.column, i.field, i.value, i.rule, plainMessage(i.message)].map(cell).join(','),
    ),
  ];
  return `${lines.join('\n')}\n`;
}
