import type { Logger } from 'pino';
import type { FieldDefinition } from '@/lib/checklists/contract';
import type { ChecklistDefinition } from '@/lib/checklists/definitions';
import { mapLimit } from '@/lib/concurrency';
import { RepositoryError } from '@/lib/repositories/errors';
import type { OlsClient } from '@/lib/repositories/ols';
import { fieldForHeader } from './layout';
import type { ParsedWorkbook } from './read';
import { entry } from './report';
import type { OntologyVerdicts, ReportEntry, SheetData } from './types';

/**
 * A study's terms of type `ontology` (cell_type under CL:0000000, image_method under FBbi:00000222): each value must
 * be a term of that ontology under that ancestor, by its label, a synonym or its CURIE, as the Ontology Lookup Service
 * answers (lib/repositories/ols.ts). The look-ups happen before the rules run (ontologyVerdicts); the rule then reads
 * their answers (checkOntologyTerms). A value the service could not be asked about is listed in a warning, column by
 * column: never passed in silence.
 */

const ONTOLOGY_CONCURRENCY = 4;

/** The key of one value under one ancestor in the verdicts. */
export const verdictKey = (ancestor: string, value: string) => `${ancestor.trim()}|${value.trim().replace(/\s+/g, ' ').toLowerCase()}`;

/** The terms one cell names: a multi-valued term lists them separated by `|`. */
function termsOf(f: FieldDefinition, v: string): string[] {
  const parts = f.cardinality === 'multiple' ? v.split('|') : [v];
  return parts.map((p) => p.trim()).filter(Boolean);
}

const isOntologyTerm = (f: FieldDefinition | undefined): f is FieldDefinition & { reference: string } =>
  f?.type === 'ontology' && Boolean(f.reference);

/** Every (ancestor, value) pair the workbook's ontology columns hold, once. */
function ontologyValues(def: ChecklistDefinition, wb: ParsedWorkbook): { ancestor: string; value: string }[] {
  const out = new Map<string, { ancestor: string; value: string }>();
  for (const sheet of wb.sheets) {
    const component = def.components.find((c) => c.key === sheet.name.toLowerCase());
    if (!component) continue;
    for (const { col, header } of sheet.columns) {
      const f = fieldForHeader(component.fields, header);
      if (!isOntologyTerm(f)) continue;
      for (const r of sheet.rows) {
        const v = r.cells.get(col);
        if (v) for (const term of termsOf(f, v)) out.set(verdictKey(f.reference, term), { ancestor: f.reference, value: term });
      }
    }
  }
  return [...out.values()];
}

/**
 * Asks the service about every ontology value of the workbook. Once it fails, the values not yet asked about stay
 * unchecked (absent from the verdicts) rather than each waiting on a service that is down.
 */
export async function ontologyVerdicts(
  def: ChecklistDefinition,
  wb: ParsedWorkbook,
  ols: OlsClient,
  logger: Logger,
): Promise<OntologyVerdicts> {
  const verdicts = new Map<string, 'known' | 'unknown'>();
  let down: RepositoryError | undefined;
  await mapLimit(ontologyValues(def, wb), ONTOLOGY_CONCURRENCY, async ({ ancestor, value }) => {
    if (down) return;
    try {
      verdicts.set(verdictKey(ancestor, value), (await ols.termUnder(ancestor, value)) ? 'known' : 'unknown');
    } catch (err) {
      if (!(err instanceof RepositoryError)) throw err;
      down ??= err;
    }
  });
  if (down) logger.warn({ err: down }, 'the Ontology Lookup Service could not be asked; the study’s ontology terms are reported unchecked');
  return verdicts;
}

/** "rows 4, 5 and 9" */
const rowsWords = (rows: number[]) =>
  rows.length === 1 ? `row ${rows[0]}` : `rows ${rows.slice(0, -1).join(', ')} and ${rows[rows.length - 1]}`;

/** The rule: an unknown term is an error at its cell; the cells of a column the service could not check, one warning. */
export function checkOntologyTerms(
  data: Map<string, SheetData>,
  verdicts: OntologyVerdicts | undefined,
  errors: ReportEntry[],
  warnings: ReportEntry[],
) {
  for (const [key, d] of data) {
    for (const [col, f] of d.columns) {
      if (!isOntologyTerm(f)) continue;
      const unchecked: number[] = [];
      for (const r of d.rows) {
        const v = r.values[f.termName];
        if (v === undefined) continue;
        const terms = termsOf(f, v);
        const unknown = terms.filter((t) => verdicts?.get(verdictKey(f.reference, t)) === 'unknown');
        if (terms.some((t) => !verdicts?.has(verdictKey(f.reference, t)))) unchecked.push(r.rowNumber);
        if (!unknown.length) continue;
        const ontology = f.reference.split(':')[0];
        const message =
          `Sheet ${key}: Invalid value ${v} in column ${f.label} at row ${r.rowNumber}. Expected an ontology term listed for ` +
          `${f.reference}: ${unknown.map((t) => `'${t}'`).join(', ')} is not a term of ${ontology} under ${f.reference} (give the ` +
          'term’s label, one of its synonyms or its CURIE).';
        errors.push(entry(key, r.rowNumber, col, v, message, d.sheet));
      }
      if (unchecked.length) {
        const message =
          `Sheet ${key}: the Ontology Lookup Service could not be reached, so column ${f.label} (${rowsWords(unchecked)}) was not ` +
          `checked against ${f.reference}. Upload the sheet again later to have it checked.`;
        warnings.push(entry(key, null, col, null, message, d.sheet));
      }
    }
  }
}
