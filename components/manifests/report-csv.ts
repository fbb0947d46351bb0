import type { ValidationReport } from '@/lib/reports/contract';

// the reference's messages quote lists the Python way: ['A', 'B', 'C'] (the API keeps them so)
const PY_LIST = /\['([\s\S]*?)'\]/g;

/** A message cut at its quoted lists: text, then the values of a list, in order. */
export function messageParts(text: string): ({ text: string } | { values: string[]; at: number })[] {
  const parts: ({ text: string } | { values: string[]; at: number })[] = [];
  let last = 0;
  for (const m of text.matchAll(PY_LIST)) {
    parts.push({ text: text.slice(last, m.index) });
    parts.push({ values: (m[1] ?? '').split(/',\s*'/), at: m.index });
    last = m.index + m[0].length;
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

const csvCell = (v: unknown) => {
  const s = v === null || v === undefined ? '' : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** The report's errors and warnings as CSV, one line each, its messages in plain words. */
export function reportCsv(report: Pick<ValidationReport, 'errors' | 'warnings'>): string {
  const lines = [
    ['severity', 'row', 'column', 'field', 'value', 'rule', 'message'].join(','),
    ...[...report.errors.map((i) => ['error', i] as const), ...report.warnings.map((i) => ['warning', i] as const)].map(([sev, i]) =>
      [sev, i.row, i.column, i.field, i.value, i.rule, plainMessage(i.message)].map(csvCell).join(','),
    ),
  ];
  return `${lines.join('\n')}\n`;
}
