import type { ParsedRow } from '../types';
import { cleanCell, isBlankLike } from '../values';
import type { WorkRow } from './context';

/**
 * Values the official DTOL/ASG templates carry in otherwise blank rows: SERIES 1..96, SYMBIONT = TARGET down to row
 * 1000, and two stray cells (docs/tol-manifests.md §1.2). A row holding nothing else is template residue, not a sample.
 */
const PREFILL: Record<string, (value: string) => boolean> = {
  SERIES: (v) => /^[0-9]+$/.test(v),
  SYMBIONT: (v) => v === 'TARGET',
  ORGANISM_PART: (v) => v === '---terms for animals---',
  SAMPLE_FORMAT: (v) => v === 'VS',
};

export interface BuiltRows {
  rows: WorkRow[];
  /** row numbers skipped as template pre-fill */
  prefill: number[];
}

/** Rows keyed by field name, cleaned; rows that are blank once NA spellings are read as empty are dropped. */
export function buildRows(parsed: readonly ParsedRow[], fieldOfHeader: ReadonlyMap<string, string>): BuiltRows {
  const columns = [...fieldOfHeader];
  const rows: WorkRow[] = [];
  const prefill: number[] = [];
  for (const p of parsed) {
    const values: Record<string, string> = {};
    const raw: Record<string, string> = {};
    let filled = false;
    let onlyPrefill = true;
    for (const [header, field] of columns) {
      const text = p.values[header];
      if (!text) continue;
      const cleaned = cleanCell(text);
      raw[field] = cleaned;
      const value = isBlankLike(cleaned) ? '' : cleaned;
      values[field] = value;
      if (!value) continue;
      filled = true;
      if (onlyPrefill && !PREFILL[field]?.(value)) onlyPrefill = false;
    }
    if (!filled) continue;
    if (onlyPrefill) prefill.push(p.rowNumber);
    else rows.push({ rowNumber: p.rowNumber, values, raw });
  }
  return { rows, prefill };
}
