import { EventLoopTurns } from '@/lib/concurrency';
import type { FieldChange, Issue, ParsedRow, RowMatch, TaxonomyLookup } from '@/lib/manifests/contract';
import { Reporter } from '@/lib/manifests/rules/context';
import type { ParsedManifest } from '@/lib/manifests/types';
import type { SampleChecklist } from '@/lib/sample-checklists/contract';
import { columnLetter } from '@/lib/spreadsheets/columns';
import { CELL_MAX_CHARS, cellTooLongMessage } from '@/lib/values/cell-bound';
import { checkAlias, checkField, checkUnit } from './check-cells';
import { checkTaxa } from './check-taxa';
import { ALIAS, SCIENTIFIC_NAME, type SheetColumn, sheetColumns, TAXON_ID } from './sheet';
import type { StoredSample } from './stored';

/**
 * A sample sheet checked against its checklist, every problem at once with its row and column: the columns (unknown,
 * missing mandatory ones), each cell against its field (mandatory and present, INSDC's missing-value terms taken
 * anywhere, choices matched ignoring case and respelled, patterns as whole-value matches run on RE2, dates that exist
 * and are not in the future, units among the field's), the aliases (valid, once in the sheet, not a sample of the
 * profile under another checklist), and each row's taxon through ENA's taxonomy (TAXON_ID and SCIENTIFIC_NAME
 * agreeing, one filled from the other). A row whose alias is a sample of the profile updates it: its changed values
 * are the report's changes.
 */

export interface SheetContext {
  taxonomy: TaxonomyLookup;
  /** the profile's samples by alias, lower-cased */
  stored: ReadonlyMap<string, StoredSample>;
  maxRows: number;
  now?: Date;
}

export interface SheetResult {
  errors: Issue[];
  warnings: Issue[];
  rows: number;
  /** each row's values by column, as they would be stored (respelled, filled) */
  normalised: ParsedRow[];
  /** rows whose alias is a sample of the profile */
  matches: RowMatch[];
  changes: FieldChange[];
}

export async function validateSampleSheet(parsed: ParsedManifest, checklist: SampleChecklist, ctx: SheetContext): Promise<SheetResult> {
  const turns = new EventLoopTurns();
  const columns = sheetColumns(checklist);
  const byHeader = new Map(columns.map((c) => [c.header.toLowerCase(), c]));
  // the sheet's headers, each to its column of the checklist's sheet (ignoring case) and its letter
  const letterOf = new Map<string, string>();
  const columnOfHeader = new Map<string, SheetColumn>();
  const unknown: { header: string; letter: string }[] = [];
  parsed.headers.forEach((h, i) => {
    const letter = parsed.columns?.[i] ?? columnLetter(i + 1);
    const c = byHeader.get(h.trim().toLowerCase());
    if (c) {
      columnOfHeader.set(h, c);
      letterOf.set(c.header, letter);
    } else unknown.push({ header: h, letter });
  });
  const report = new Reporter(letterOf, new Map(unknown.map((u) => [u.header, u.letter])));
  const result = (normalised: ParsedRow[], matches: RowMatch[], changes: FieldChange[]): SheetResult => ({
    errors: report.listedErrors(),
    warnings: report.listedWarnings(),
    rows: parsed.rows.length,
    normalised,
    matches,
    changes,
  });

  for (const u of unknown) {
    report.warn('unknown_column', {
      row: null,
      field: null,
      header: u.header,
      message: `Unknown column '${u.header}': it is not a field of the checklist ${checklist.id} and its values will be ignored.`,
    });
  }
  const present = new Set([...columnOfHeader.values()].map((c) => c.header));
  for (const c of columns) {
    const missing =
      c.kind === 'taxon_id' || c.kind === 'scientific_name'
        ? !present.has(TAXON_ID) && !present.has(SCIENTIFIC_NAME)
        : c.kind !== 'unit' && c.required && !present.has(c.header);
    if (missing && c.kind !== 'scientific_name') {
      const what = c.kind === 'taxon_id' ? 'TAXON_ID or SCIENTIFIC_NAME' : c.header;
      report.error('missing_column', {
        row: null,
        field: null,
        message: `The sheet has no column ${what}, which the checklist ${checklist.id} requires.`,
      });
    }
  }
  if (!parsed.rows.length) {
    report.error('empty', { row: null, field: null, message: 'The sheet has no samples: fill a row under the header for each.' });
    return result([], [], []);
  }
  if (parsed.rows.length > ctx.maxRows) {
    report.error('too_many_rows', { row: null, field: null, message: `A sheet may hold at most ${ctx.maxRows} samples; split it.` });
    return result([], [], []);
  }

  // no rule reads a sheet with a cell longer than the bound
  let tooLong = false;
  for (const row of parsed.rows) {
    for (const [header, value] of Object.entries(row.values)) {
      if (value.length <= CELL_MAX_CHARS) continue;
      tooLong = true;
      const c = columnOfHeader.get(header);
      report.error('cell_too_long', {
        row: row.rowNumber,
        field: c?.header ?? null,
        header: c ? undefined : header,
        value,
        message: cellTooLongMessage(`in column ${header} at row ${row.rowNumber}`, value.length),
      });
    }
  }
  if (tooLong) return result([], [], []);

  const now = ctx.now ?? new Date();
  const firstRowOf = new Map<string, number>();
  const normalised: ParsedRow[] = [];
  for (const row of parsed.rows) {
    await turns.maybeGive();
    const values: Record<string, string> = {};
    for (const [header, value] of Object.entries(row.values)) {
      const c = columnOfHeader.get(header);
      if (c && value !== '') values[c.header] = value;
    }
    checkAlias(report, row.rowNumber, values, firstRowOf, checklist, ctx.stored);
    for (const c of columns) if (c.kind === 'field') checkField(report, row.rowNumber, values, c.field, now);
    for (const c of columns) if (c.kind === 'unit') checkUnit(report, row.rowNumber, values, c.field);
    normalised.push({ rowNumber: row.rowNumber, values });
  }
  await checkTaxa(report, normalised, ctx.taxonomy, checklist);

  const matches: RowMatch[] = [];
  const changes: FieldChange[] = [];
  for (const row of normalised) {
    const stored = ctx.stored.get((row.values[ALIAS] ?? '').toLowerCase());
    if (!stored || stored.checklistId !== checklist.id) continue;
    matches.push({ row: row.rowNumber, sampleId: stored.sampleId });
    const keys = new Set([...Object.keys(stored.values), ...Object.keys(row.values)]);
    keys.delete(ALIAS);
    for (const field of keys) {
      const oldValue = stored.values[field] ?? '';
      const newValue = row.values[field] ?? '';
      if (oldValue !== newValue) changes.push({ sampleId: stored.sampleId, row: row.rowNumber, field, oldValue, newValue });
    }
  }
  return result(normalised, matches, changes);
}
