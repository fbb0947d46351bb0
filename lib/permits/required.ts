import type { FieldChange, ParsedRow } from '@/lib/manifests/contract';
import { PERMIT_KINDS, type PermitKind, type RequiredPermit } from './contract';

const requiredField = (k: PermitKind) => `${k}_PERMITS_REQUIRED`;
export const filenameField = (k: PermitKind) => `${k}_PERMITS_FILENAME`;

/**
 * The permit PDFs a validated manifest needs before it can be confirmed (docs/tol-manifests.md §1.6): every file named
 * where `*_REQUIRED` is Y. A re-upload asks again only for permits whose file name or REQUIRED changed (§2.6).
 */
export function requiredPermits(rows: ParsedRow[], update?: { changes: FieldChange[]; matches: { row: number }[] }): RequiredPermit[] {
  const changedRows = update
    ? new Map<number, Set<string>>(
        update.changes.reduce((m, c) => m.set(c.row, (m.get(c.row) ?? new Set<string>()).add(c.field)), new Map<number, Set<string>>()),
      )
    : undefined;
  const found = new Map<string, { specimens: Set<string>; kinds: Set<PermitKind> }>();
  for (const row of rows) {
    for (const kind of PERMIT_KINDS) {
      if ((row.values[requiredField(kind)] ?? '').trim().toUpperCase() !== 'Y') continue;
      const filename = (row.values[filenameField(kind)] ?? '').trim();
      if (!filename) continue;
      if (changedRows) {
        const changed = changedRows.get(row.rowNumber);
        if (!changed?.has(requiredField(kind)) && !changed?.has(filenameField(kind))) continue;
      }
      const entry = found.get(filename) ?? { specimens: new Set<string>(), kinds: new Set<PermitKind>() };
      if (row.values.SPECIMEN_ID) entry.specimens.add(row.values.SPECIMEN_ID);
      entry.kinds.add(kind);
      found.set(filename, entry);
    }
  }
  return [...found]
    .map(([filename, e]) => ({ filename, required_by: [...e.specimens].sort(), kinds: PERMIT_KINDS.filter((k) => e.kinds.has(k)) }))
    .sort((a, b) => a.filename.localeCompare(b.filename));
}
