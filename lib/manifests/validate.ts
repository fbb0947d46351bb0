import { EventLoopTurns } from '@/lib/concurrency';
import { CELL_MAX_CHARS, cellTooLongMessage } from '@/lib/values/cell-bound';
import { messages, rowRanges } from './messages';
import { checkCells } from './rules/cells';
import { mapColumns } from './rules/columns';
import { compileDefinition, Reporter, type RuleState } from './rules/context';
import { checkBiobankingVouchers, checkOriginalLocation } from './rules/cross-field';
import { checkErgaCoordinates, checkPermits, checkPopGenomics } from './rules/erga';
import { checkStoredTubes } from './rules/existing';
import { applyPopGenomicsDefaults, cutTimeSeconds, defaultSymbiont, overwriteBarcoding, POP_GENOMICS_DEFAULTS } from './rules/normalise';
import { checkRackTube, checkTargetsAndSymbionts, copyTargetIntoSymbionts } from './rules/rack-tube';
import { buildRows } from './rules/rows';
import { checkSpecimens, checkSpecimenTaxa } from './rules/specimen';
import { checkTaxonomy } from './rules/taxonomy';
import type { Issue, ManifestDefinition, ParsedManifest, ValidationContext, ValidationResult } from './types';

/** The reference refuses larger manifests (docs/tol-manifests.md §1.3.3). */
export const DEFAULT_MAX_ROWS = 1000;

/**
 * Validates a parsed manifest against one manifest definition: every check of docs/tol-manifests.md §2 (and the ERGA
 * rules of §1.5–1.8), with the "Sensible" corrections taken. Never throws for bad content; throws
 * TaxonomyUnavailableError when the taxonomy service fails, so the caller can retry.
 */
export async function validateManifest(
  parsed: ParsedManifest,
  definition: ManifestDefinition,
  ctx: ValidationContext,
): Promise<ValidationResult> {
  const types = ctx.associatedProjectTypes;
  const popGenomicsOnly = definition.project === 'erga' && types?.length === 1 && types[0] === 'POP_GENOMICS';
  const turns = new EventLoopTurns();
  const columns = mapColumns(parsed, definition, popGenomicsOnly ? new Set(Object.keys(POP_GENOMICS_DEFAULTS)) : new Set());
  const report = new Reporter(columns.columnOfField, columns.columnOfHeader);
  report.errors.push(...columns.errors);
  report.warnings.push(...columns.warnings);

  // no rule reads a sheet with a cell longer than the bound: each cell's cost is then bounded, whatever was uploaded
  if (reportLongCells(parsed, columns.fieldOfHeader, report)) {
    return {
      errors: report.listedErrors(),
      warnings: report.listedWarnings(),
      rows: parsed.rows.length,
      normalised: [],
      mode: 'create',
      matches: [],
    };
  }

  const { rows, prefill } = buildRows(parsed.rows, columns.fieldOfHeader);
  const result = (extra: Partial<ValidationResult> = {}): ValidationResult => ({
    errors: withTubes(report.listedErrors(), rows),
    warnings: withTubes(report.listedWarnings(), rows),
    rows: rows.length,
    // rows hold only the definition's fields (unknown columns are dropped, docs/tol-manifests.md §1.3.7)
    normalised: rows.map((r) => ({ rowNumber: r.rowNumber, values: r.values })),
    mode: 'create',
    matches: [],
    ...extra,
  });
  if (prefill.length) {
    const message = messages.templatePrefill(rowRanges(prefill));
    report.warn('template_prefill', { row: prefill[0] ?? null, field: null, message });
  }
  if (!rows.length) {
    report.error('empty', { row: null, field: null, message: messages.empty() });
    return result();
  }
  const maxRows = ctx.maxRows ?? DEFAULT_MAX_ROWS;
  if (rows.length > maxRows) {
    report.error('too_many_rows', { row: null, field: null, message: messages.tooManyRows(maxRows) });
    return result();
  }

  const s: RuleState = {
    definition,
    fields: compileDefinition(definition),
    present: new Set(columns.fieldOfHeader.values()),
    rows,
    report,
    ctx,
    now: ctx.now ?? new Date(),
    popGenomicsOnly,
    failed: new Set(),
    turns,
  };

  // auto-corrections first, so the checks judge what would be stored
  applyPopGenomicsDefaults(s);
  defaultSymbiont(s);
  cutTimeSeconds(s);
  overwriteBarcoding(s);

  await checkCells(s);
  // the rules over the whole sheet each take one pass over its rows; the event loop has a turn between them
  const groups = checkRackTube(s);
  await turns.maybeGive();
  checkTargetsAndSymbionts(s, groups);
  checkSpecimens(s);
  await turns.maybeGive();
  checkOriginalLocation(s);
  if (definition.project === 'erga') {
    checkErgaCoordinates(s);
    checkPermits(s);
    await turns.maybeGive();
    checkBiobankingVouchers(s);
    checkPopGenomics(s);
  }
  await turns.maybeGive();
  const stored = await checkStoredTubes(s, groups);
  await checkTaxonomy(s);
  await checkSpecimenTaxa(s, stored.sampleOfRow);
  copyTargetIntoSymbionts(s, groups);

  return result({ mode: stored.mode, matches: stored.matches });
}

/** Each issue of a row with its tube: a person finds a sample by its tube, not by its row of the sheet. */
function withTubes(issues: Issue[], rows: readonly { rowNumber: number; values: Record<string, string> }[]): Issue[] {
  const tubeOf = new Map<number, string>();
  for (const r of rows) if (r.values.TUBE_OR_WELL_ID) tubeOf.set(r.rowNumber, r.values.TUBE_OR_WELL_ID);
  return issues.map((i) => {
    const tube = i.row === null ? undefined : tubeOf.get(i.row);
    return tube ? { ...i, tube } : i;
  });
}

/** Each cell longer than CELL_MAX_CHARS as an error on that cell; whether there was one. */
function reportLongCells(parsed: ParsedManifest, fieldOfHeader: ReadonlyMap<string, string>, report: Reporter): boolean {
  let found = false;
  for (const row of parsed.rows) {
    for (const header in row.values) {
      const value = row.values[header] ?? '';
      if (value.length <= CELL_MAX_CHARS) continue;
      found = true;
      const field = fieldOfHeader.get(header) ?? null;
      report.error('cell_too_long', {
        row: row.rowNumber,
        field,
        header: field ? undefined : header,
        value,
        message: cellTooLongMessage(`in column ${field ?? header} at row ${row.rowNumber}`, value.length),
      });
    }
  }
  return found;
}
