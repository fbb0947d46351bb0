import type { ComponentDefinition, FieldDefinition } from '@/lib/checklists/contract';
import { matchesPattern } from '@/lib/checklists/patterns';
import type { EventLoopTurns } from '@/lib/concurrency';
import { CELL_MAX_CHARS, cellTooLongMessage } from '@/lib/values/cell-bound';
import { fieldForHeader } from './layout';
import type { ParsedSheet } from './read';
import { entry } from './report';
import type { KnownSample, ReportEntry, SheetData, ValidationContext } from './types';

/**
 * The rules of one sheet: its columns (unknown, duplicate, mandatory ones missing), its cells (mandatory, allowed
 * values, patterns, biosample accessions of the profile and their taxon and name) and identifier uniqueness.
 */
export async function checkSheet(
  sheet: ParsedSheet,
  component: ComponentDefinition,
  ctx: ValidationContext,
  errors: ReportEntry[],
  turns: EventLoopTurns,
): Promise<SheetData> {
  const c = component.key;
  const columns = new Map<number, FieldDefinition>();
  const headerOfTerm = new Map<string, string>();
  for (const { col, header } of sheet.columns) {
    const field = fieldForHeader(component.fields, header);
    if (!field) {
      errors.push(entry(c, 1, col, header, `Sheet ${c}: Invalid column '${header}'`, sheet));
      continue;
    }
    if (headerOfTerm.has(field.termName)) {
      errors.push(entry(c, 1, col, header, `Sheet ${c}: Duplicate column '${header}'`, sheet));
      continue;
    }
    columns.set(col, field);
    headerOfTerm.set(field.termName, header);
  }
  for (const f of component.fields) {
    if (f.mandatory && !headerOfTerm.has(f.termName)) {
      const message = `Sheet ${c}: Mandatory column '${f.termName}' is missing`;
      errors.push({ ...entry(c, null, null, null, message), column: f.label });
    }
  }

  const rows = sheet.rows.map((r) => {
    const values: Record<string, string> = {};
    const cols: Record<string, number> = {};
    for (const [col, field] of columns) {
      cols[field.termName] = col;
      const v = r.cells.get(col);
      if (v !== undefined) values[field.termName] = v;
    }
    return { rowNumber: r.rowNumber, values, cols };
  });

  for (const r of rows) {
    // a large sheet is checked in slices, so that the service answers others meanwhile
    await turns.maybeGive();
    for (const [col, f] of columns) {
      const v = r.values[f.termName];
      const at = (message: string) => errors.push(entry(c, r.rowNumber, col, v ?? null, message, sheet));
      // no rule reads a cell longer than the bound; the row's other cells are still checked
      if (v !== undefined && v.length > CELL_MAX_CHARS) {
        at(`Sheet ${c}: ${cellTooLongMessage(`in column ${f.label} at row ${r.rowNumber}`, v.length)}`);
        delete r.values[f.termName];
        continue;
      }
      if (v === undefined) {
        if (f.mandatory) at(`Sheet ${c}: Missing data detected in column ${f.label} at row ${r.rowNumber}.`);
        continue;
      }
      const invalid = `Sheet ${c}: Invalid value ${v} in column ${f.label} at row ${r.rowNumber}.`;
      if (f.type === 'enum' && f.allowedValues) {
        const listed = enumValue(f, v);
        // stored as the list spells it, whatever case or number format was typed
        if (listed !== undefined) r.values[f.termName] = listed;
        else at(`${invalid} Valid values are: [${f.allowedValues.map((a) => `'${a}'`).join(', ')}]`);
      } else if (f.type === 'string' && f.regex && !matchesPattern(f.regex, v)) {
        at(`${invalid} ${f.errorMessage ?? `Expected a value matching the pattern: ${f.regex}`}`);
      } else if (f.type === 'BIOSAMPLEACCESSION_FIELD' && !ctx.samples.has(v)) {
        const waiting = ctx.unregistered?.get(v.toLowerCase());
        if (waiting) at(`${invalid} ${notRegisteredYet(waiting)}`);
        else at(`${invalid} Invalid ENA sample: neither this profile nor ENA holds a sample with this accession.`);
      }
    }
    checkBiosampleExtensions(c, sheet, columns, r, ctx, errors);
  }

  const id = component.fields.find((f) => f.identifier);
  if (id && headerOfTerm.has(id.termName)) {
    const counts = new Map<string, number>();
    for (const r of rows) {
      const v = r.values[id.termName];
      if (v !== undefined) counts.set(v, (counts.get(v) ?? 0) + 1);
    }
    // every repeat after the first occurrence is reported where it stands
    const seen = new Set<string>();
    for (const r of rows) {
      const v = r.values[id.termName];
      if (v === undefined) continue;
      // every value was counted above
      const n = counts.get(v);
      if (n !== undefined && seen.has(v)) {
        const times = n === 2 ? 'twice' : `${n} times`;
        const message = `Sheet ${c}: Invalid value ${v} in column ${id.termName}: duplicated ${times}.`;
        // a row holds a value only for a column it has
        errors.push(entry(c, r.rowNumber, r.cols[id.termName] ?? null, v, message, sheet));
      }
      seen.add(v);
    }
  }
  return { sheet, component, columns, rows };
}

const NUMBER = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/;

/** Two cell texts that mean the same: equal, equal but for case and spacing, or the same number. */
export function sameValue(a: string, b: string): boolean {
  if (a === b) return true;
  const x = a.trim().replace(/\s+/g, ' ');
  const y = b.trim().replace(/\s+/g, ' ');
  if (x.toLowerCase() === y.toLowerCase()) return true;
  return NUMBER.test(x) && NUMBER.test(y) && Number(x) === Number(y);
}

/**
 * The allowed value a typed value stands for (exactly, in another case, or as the same number: `3.0` for `3`), or
 * undefined. A multi-valued enum may list several allowed values separated by `|` or `,`.
 */
function enumValue(f: FieldDefinition, v: string): string | undefined {
  const allowed = f.allowedValues ?? [];
  const one = (p: string) => (allowed.includes(p) ? p : allowed.find((a) => sameValue(a, p)));
  const whole = one(v);
  if (whole !== undefined || f.cardinality !== 'multiple') return whole;
  const parts = v.split(/([|,])/);
  const out: string[] = [];
  for (const [i, part] of parts.entries()) {
    if (i % 2) {
      out.push(part);
      continue;
    }
    const listed = part.trim() ? one(part.trim()) : undefined;
    if (listed === undefined) return undefined;
    out.push(listed);
  }
  return out.join('');
}

/** Taxon and scientific name of a row must agree with the registered sample of its biosample accession. */
function checkBiosampleExtensions(
  c: string,
  sheet: ParsedSheet,
  columns: Map<number, FieldDefinition>,
  r: { rowNumber: number; values: Record<string, string> },
  ctx: ValidationContext,
  errors: ReportEntry[],
) {
  const accessionField = [...columns.values()].find((f) => f.type === 'BIOSAMPLEACCESSION_FIELD');
  const accession = accessionField && r.values[accessionField.termName];
  const sample = accession ? ctx.samples.get(accession) : undefined;
  if (!sample) return;
  for (const [col, f] of columns) {
    if (f.type !== 'BIOSAMPLEACCESSION_EXT_FIELD') continue;
    const v = r.values[f.termName];
    const stored = storedValue(sample, f);
    if (v !== undefined && stored && !sameValue(v, stored)) {
      const where = sample.source === 'ena' ? `ENA's sample ${accession}` : `the profile's sample ${accession}`;
      const message = `Sheet ${c}: Invalid value ${v} not match with ${stored} in column ${f.termName} at row ${r.rowNumber} (${where}).`;
      errors.push(entry(c, r.rowNumber, col, v, message, sheet));
    }
  }
}

function storedValue(sample: KnownSample, f: FieldDefinition): string | null {
  if (f.termName === 'taxon_id') return sample.taxonId;
  if (f.termName === 'scientific_name') return sample.scientificName;
  return sample.fields[f.enaName ?? f.termName] ?? sample.fields[f.termName] ?? null;
}

/** Why a study may not name one of the profile's samples yet, and what to do: register it, then use its accession. */
function notRegisteredYet(sample: { alias: string; status: string }): string {
  if (sample.status === 'processing') {
    return `Sample ${sample.alias} of this profile is being registered at ENA: upload the sheet again with its BioSample accession once it has one.`;
  }
  const refused =
    sample.status === 'refused' ? ', and ENA refused it last time' : sample.status === 'failed' ? ', and its last registration failed' : '';
  return `Sample ${sample.alias} of this profile is not registered at ENA yet${refused}: register it first (the profile’s Samples), then name it by its BioSample accession.`;
}
