import { EventLoopTurns } from '@/lib/concurrency';
import type { FieldChange, Issue, ParsedRow, RowMatch, TaxonomyLookup, TaxonRecord } from '@/lib/manifests/contract';
import { TaxonomyUnavailableError } from '@/lib/manifests/errors';
import { Reporter } from '@/lib/manifests/rules/context';
import type { ParsedManifest } from '@/lib/manifests/types';
import { earliestDay, latestToday, parseEnaDate } from '@/lib/manifests/values';
import type { ChecklistField, SampleChecklist } from '@/lib/sample-checklists/contract';
import { choiceKey, wholeMatch } from '@/lib/sample-checklists/match';
import { columnLetter } from '@/lib/spreadsheets/columns';
import { CELL_MAX_CHARS, cellTooLongMessage } from '@/lib/values/cell-bound';
import { SampleAliasSchema } from './contract';
import { ALIAS, SCIENTIFIC_NAME, type SheetColumn, sheetColumns, TAXON_ID } from './sheet';

/**
 * A sample sheet checked against its checklist, every problem at once with its row and column: the columns (unknown,
 * missing mandatory ones), each cell against its field (mandatory and present, INSDC's missing-value terms taken
 * anywhere, choices matched ignoring case and respelled, patterns as whole-value matches run on RE2, dates that exist
 * and are not in the future, units among the field's), the aliases (valid, once in the sheet, not a sample of the
 * profile under another checklist), and each row's taxon through ENA's taxonomy (TAXON_ID and SCIENTIFIC_NAME
 * agreeing, one filled from the other). A row whose alias is a sample of the profile updates it: its changed values
 * are the report's changes.
 */

/** A sample of the profile, as a re-upload meets it. */
export interface StoredSample {
  sampleId: string;
  alias: string;
  checklistId: string;
  values: Record<string, string>;
}

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

/** INSDC's missing-value terms (insdc.org/technical-specifications/missing-value-reporting), which any field takes. */
const MISSING_TERMS = [
  'not applicable',
  'not collected',
  'not provided',
  'restricted access',
  'missing: control sample',
  'missing: sample group',
  'missing: synthetic construct',
  'missing: lab stock',
  'missing: third party data',
  'missing: data agreement established pre-2023',
  'missing: endangered species',
  'missing: human-identifiable',
];
const MISSING_BY_KEY = new Map(MISSING_TERMS.map((t) => [t.replace(/[\s_]+/g, ' '), t]));
const missingTerm = (value: string) =>
  MISSING_BY_KEY.get(
    value
      .trim()
      .toLowerCase()
      .replace(/[\s_]+/g, ' '),
  ) ?? null;

const TAXON_ID_SHAPE = /^[0-9]+$/;

/** Sample names a few, or says how many (a list of 288 countries is the Guide sheet's to give). */
const listed = (values: readonly string[]) =>
  values.length <= 12 ? values.join(', ') : `${values.slice(0, 8).join(', ')} … (${values.length} values: see the template’s Guide sheet)`;

const isDateField = (f: ChecklistField) => /date/i.test(f.name);

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

function checkAlias(
  report: Reporter,
  rowNumber: number,
  values: Record<string, string>,
  firstRowOf: Map<string, number>,
  checklist: SampleChecklist,
  stored: ReadonlyMap<string, StoredSample>,
): void {
  const alias = (values[ALIAS] ?? '').trim();
  const at = { row: rowNumber, field: ALIAS, value: alias };
  if (!alias) {
    report.error('mandatory', {
      ...at,
      message: `Missing data detected in column sample at row ${rowNumber}: every sample needs a name, unique in the profile.`,
    });
    return;
  }
  values[ALIAS] = alias;
  const ownPattern = checklist.fields.find((f) => f.role === 'alias')?.regex;
  if (!SampleAliasSchema.safeParse(alias).success || (ownPattern && !wholeMatch(ownPattern, alias))) {
    const rule = ownPattern ? `matching ${ownPattern}` : 'of letters, digits, _, . and -, starting with a letter or digit, at most 100';
    report.error('alias', { ...at, message: `Invalid sample name ${alias} at row ${rowNumber}: a sample's name is ${rule}.` });
    return;
  }
  const key = alias.toLowerCase();
  const first = firstRowOf.get(key);
  if (first !== undefined) {
    report.error('alias_duplicate', {
      ...at,
      message: `The sample ${alias} at row ${rowNumber} is already at row ${first}: each sample once.`,
    });
    return;
  }
  firstRowOf.set(key, rowNumber);
  const other = stored.get(key);
  if (other && other.checklistId !== checklist.id) {
    report.error('alias_checklist', {
      ...at,
      message: `The profile already holds a sample ${other.alias}, of the checklist ${other.checklistId}: a sample keeps its checklist. Give this one another name, or upload it with a sheet of ${other.checklistId}.`,
    });
  }
}

function checkField(report: Reporter, rowNumber: number, values: Record<string, string>, f: ChecklistField, now: Date): void {
  const value = (values[f.name] ?? '').trim();
  const at = { row: rowNumber, field: f.name, value };
  if (!value) {
    if (f.requirement === 'mandatory') {
      report.error('mandatory', {
        ...at,
        message: `Missing data detected in column ${f.name} at row ${rowNumber}. The checklist requires it: where it is not known, give one of INSDC's missing-value terms (not collected, not provided, not applicable, restricted access).`,
      });
    }
    return;
  }
  values[f.name] = value;
  const term = missingTerm(value);
  if (term) {
    values[f.name] = term;
    return;
  }
  if (f.type === 'choice' && f.choices?.length) {
    if (f.choices.includes(value)) return;
    const canonical = f.choices.find((c) => choiceKey(c) === choiceKey(value));
    if (canonical === undefined) {
      report.error('vocabulary', {
        ...at,
        message: `Invalid data: ${value} in column ${f.name} at row ${rowNumber}. Allowed values are ${listed(f.choices)}.`,
      });
      return;
    }
    values[f.name] = canonical;
    report.warn('vocabulary_normalised', {
      ...at,
      message: `${value} in column ${f.name} at row ${rowNumber} is read as ${canonical}, as the checklist spells it.`,
    });
    return;
  }
  if (f.regex && !wholeMatch(f.regex, value)) {
    report.error('pattern', {
      ...at,
      message: `Invalid data: ${value} in column ${f.name} at row ${rowNumber}. ${f.description ? `${f.name}: ${f.description} ` : ''}It must match ${f.regex}.`,
    });
    return;
  }
  if (isDateField(f) && /^[0-9]/.test(value)) {
    const range = parseEnaDate(value);
    if (!range) {
      report.error('date', {
        ...at,
        message: `Invalid date: ${value} in column ${f.name} at row ${rowNumber}. This date does not exist: give YYYY-MM-DD, YYYY-MM or YYYY.`,
      });
    } else if (earliestDay(range.start) > latestToday(now) || (range.end && earliestDay(range.end) > latestToday(now))) {
      report.error('date_future', {
        ...at,
        message: `Invalid date: ${value} in column ${f.name} at row ${rowNumber}. Date cannot be in the future.`,
      });
    }
  }
}

function checkUnit(report: Reporter, rowNumber: number, values: Record<string, string>, f: ChecklistField): void {
  const units = f.units ?? [];
  const header = `${f.name} unit`;
  const value = values[f.name] ?? '';
  const given = (values[header] ?? '').trim();
  // a unit only means something beside a value
  if (!value || missingTerm(value)) {
    delete values[header];
    return;
  }
  if (!given) {
    if (units.length === 1) {
      values[header] = units[0] as string;
      return;
    }
    report.error('unit', {
      row: rowNumber,
      field: header,
      value: '',
      message: `Missing unit: ${f.name} at row ${rowNumber} is ${value}, in which unit? One of ${units.join(', ')}.`,
    });
    return;
  }
  const unit = units.find((u) => u.toLowerCase() === given.toLowerCase());
  if (!unit) {
    report.error('unit', {
      row: rowNumber,
      field: header,
      value: given,
      message: `Invalid unit: ${given} in column ${header} at row ${rowNumber}. ${f.name} is given in ${units.join(', ')}.`,
    });
    return;
  }
  values[header] = unit;
}

/**
 * Each row's TAXON_ID and SCIENTIFIC_NAME through ENA's taxonomy, each taxon asked once: the id must be one ENA takes
 * samples of, the name must be its name (a synonym is replaced by it), and either is filled from the other. The
 * checklist's taxon fields (a host's scientific name) must be names ENA knows.
 */
async function checkTaxa(report: Reporter, rows: ParsedRow[], taxonomy: TaxonomyLookup, checklist: SampleChecklist): Promise<void> {
  const byId = new Map<string, Promise<TaxonRecord | null>>();
  const byName = new Map<string, Promise<TaxonRecord[]>>();
  const ask = async <T>(lookup: () => Promise<T>): Promise<T> => {
    try {
      return await lookup();
    } catch (err) {
      throw new TaxonomyUnavailableError(err instanceof Error ? err.message : String(err));
    }
  };
  const id = (taxId: string) => {
    let p = byId.get(taxId);
    if (!p) {
      p = ask(() => taxonomy.byTaxId(taxId));
      byId.set(taxId, p);
    }
    return p;
  };
  const named = (name: string) => {
    const key = name.toLowerCase();
    let p = byName.get(key);
    if (!p) {
      p = ask(() => taxonomy.byScientificName(name));
      byName.set(key, p);
    }
    return p;
  };
  const taxonFields = checklist.fields.filter((f) => f.type === 'taxon' && !f.role);
  for (const row of rows) {
    const r = row.rowNumber;
    const taxId = (row.values[TAXON_ID] ?? '').trim();
    const name = (row.values[SCIENTIFIC_NAME] ?? '').trim();
    if (!taxId && !name) {
      report.error('taxon_missing', {
        row: r,
        field: TAXON_ID,
        value: '',
        message: `Row ${r} names no organism: give its TAXON_ID or SCIENTIFIC_NAME.`,
      });
    } else if (taxId && !TAXON_ID_SHAPE.test(taxId)) {
      report.error('taxon_id_integer', {
        row: r,
        field: TAXON_ID,
        value: taxId,
        message: `Invalid TAXON_ID ${taxId} at row ${r}: a taxon id is a whole number.`,
      });
    } else if (taxId) {
      const record = await id(taxId);
      if (!record) {
        report.error('taxon_not_found', {
          row: r,
          field: TAXON_ID,
          value: taxId,
          message: `TAXON_ID ${taxId} at row ${r} is not a taxon ENA's taxonomy knows.`,
        });
      } else if (record.submittable !== 'true') {
        report.error('taxon_not_submittable', {
          row: r,
          field: TAXON_ID,
          value: taxId,
          message: `TAXON_ID ${taxId} (${record.scientificName}) at row ${r} is not one ENA registers samples of: give the species (or lower rank) the sample is of.`,
        });
      } else if (!name) {
        row.values[SCIENTIFIC_NAME] = record.scientificName;
        report.warn('name_filled', {
          row: r,
          field: SCIENTIFIC_NAME,
          value: '',
          message: `SCIENTIFIC_NAME at row ${r} is filled with ${record.scientificName}, ENA's name of TAXON_ID ${taxId}.`,
        });
      } else if (name.toLowerCase() !== record.scientificName.toLowerCase()) {
        const synonym = (await named(name)).some((t) => t.taxId === record.taxId);
        if (synonym) {
          row.values[SCIENTIFIC_NAME] = record.scientificName;
          report.warn('taxon_synonym', {
            row: r,
            field: SCIENTIFIC_NAME,
            value: name,
            message: `${name} at row ${r} is a synonym: it is stored as ${record.scientificName}, ENA's name of TAXON_ID ${taxId}.`,
          });
        } else {
          report.error('taxon_mismatch', {
            row: r,
            field: SCIENTIFIC_NAME,
            value: name,
            message: `SCIENTIFIC_NAME ${name} at row ${r} is not the name of TAXON_ID ${taxId}, which ENA's taxonomy calls ${record.scientificName}.`,
          });
        }
      } else row.values[SCIENTIFIC_NAME] = record.scientificName;
    } else {
      const found = await named(name);
      const ids = [...new Set(found.map((t) => t.taxId))];
      const only = found[0];
      if (ids.length !== 1 || !only) {
        report.error('name_unresolved', {
          row: r,
          field: SCIENTIFIC_NAME,
          value: name,
          message: ids.length
            ? `SCIENTIFIC_NAME ${name} at row ${r} names several taxa (${ids.join(', ')}): give the TAXON_ID of the one meant.`
            : `SCIENTIFIC_NAME ${name} at row ${r} is not a name ENA's taxonomy knows: check its spelling, or give its TAXON_ID.`,
        });
      } else if (only.submittable !== 'true') {
        report.error('taxon_not_submittable', {
          row: r,
          field: SCIENTIFIC_NAME,
          value: name,
          message: `${name} at row ${r} (TAXON_ID ${only.taxId}) is not one ENA registers samples of: give the species (or lower rank) the sample is of.`,
        });
      } else {
        row.values[TAXON_ID] = only.taxId;
        row.values[SCIENTIFIC_NAME] = only.scientificName;
        report.warn('taxon_filled', {
          row: r,
          field: TAXON_ID,
          value: '',
          message: `TAXON_ID at row ${r} is filled with ${only.taxId}, ENA's taxon of ${only.scientificName}.`,
        });
      }
    }
    for (const f of taxonFields) {
      const value = (row.values[f.name] ?? '').trim();
      if (!value || missingTerm(value)) continue;
      if (!(await named(value)).length) {
        report.error('taxon_field', {
          row: r,
          field: f.name,
          value,
          message: `${value} in column ${f.name} at row ${r} is not a name ENA's taxonomy knows.`,
        });
      }
    }
  }
}
