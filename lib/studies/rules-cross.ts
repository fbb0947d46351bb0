import type { ParsedSheet } from './read';
import { entry } from './report';
import type { ReportEntry, SheetData, ValidationContext } from './types';

// file terms that name a data file of the study (sent to repositories); the barcode white list and the analysis
// input are shared between rows by nature
const SHARED_FILE_TERMS = new Set(['white_list_barcode_file', 'file_derived_from']);

/** References between sheets: the referenced sheet is there and holds each referenced identifier. */
export function checkReferences(data: Map<string, SheetData>, errors: ReportEntry[]) {
  const identifiers = new Map<string, { term: string; values: Set<string> }>();
  for (const [key, d] of data) {
    const id = d.component.fields.find((f) => f.identifier);
    if (!id) continue;
    const values = d.rows.map((r) => r.values[id.termName]).filter((v): v is string => v !== undefined);
    identifiers.set(key, { term: id.termName, values: new Set(values) });
  }
  for (const [key, d] of data) {
    for (const [col, f] of d.columns) {
      const target = f.referencedComponent;
      if (!target) continue;
      const used = d.rows.filter((r) => r.values[f.termName] !== undefined);
      if (!used.length) continue;
      const ref = identifiers.get(target);
      if (!ref) {
        // the study sheet's absence is reported once, on its own
        if (target !== 'study') {
          errors.push(entry(key, null, col, null, `Sheet ${key}: Referenced component: '${target}' is missing`, d.sheet));
        }
        continue;
      }
      for (const r of used) {
        const v = r.values[f.termName];
        if (v !== undefined && !ref.values.has(v)) {
          const message = `Sheet ${key}: ${v} at row ${r.rowNumber} is missing in the referenced sheet ${target} and column ${ref.term}.`;
          errors.push(entry(key, r.rowNumber, col, v, message, d.sheet));
        }
      }
    }
  }
}

/** Named data files carry their checksum and are named once; files not in the profile are warnings. */
export function checkFiles(data: Map<string, SheetData>, ctx: ValidationContext, errors: ReportEntry[], warnings: ReportEntry[]) {
  const named = new Map<string, { sheet: string; parsed: ParsedSheet; row: number; col: number }[]>();
  for (const [key, d] of data) {
    const terms = new Set(d.component.fields.map((f) => f.termName));
    for (const [col, f] of d.columns) {
      if (f.type !== 'file' || SHARED_FILE_TERMS.has(f.termName)) continue;
      const checksum = `${f.termName}_checksum`;
      for (const r of d.rows) {
        const name = r.values[f.termName];
        if (name === undefined) continue;
        named.set(name, [...(named.get(name) ?? []), { sheet: key, parsed: d.sheet, row: r.rowNumber, col }]);
        if (terms.has(checksum) && r.values[checksum] === undefined) {
          const message = `File name: ${name} is missing checksum ${checksum} in the manifest.`;
          errors.push(entry(key, r.rowNumber, col, name, message, d.sheet));
        }
      }
    }
  }
  const duplicated = [...named].filter(([, at]) => at.length > 1);
  for (const [name, at] of duplicated) {
    for (const a of at.slice(1)) {
      errors.push(entry(a.sheet, a.row, a.col, name, `Duplicated files: ${name} in the manifest.`, a.parsed));
    }
  }
  const { profileFiles } = ctx;
  if (profileFiles) {
    const missing = [...named].filter(([n]) => !profileFiles.has(n));
    for (const [name, [a]] of missing) {
      // every name is listed with where it first stands
      if (!a) continue;
      warnings.push(
        entry(
          a.sheet,
          a.row,
          a.col,
          name,
          `File ${name} is not among the data files of this profile; upload it before submitting the study.`,
          a.parsed,
        ),
      );
    }
  }
}
