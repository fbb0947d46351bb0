import type { ChecklistDefinition } from '@/lib/checklists/definitions';
import { EventLoopTurns } from '@/lib/concurrency';
import { STUDY_ID_PATTERN } from './contract';
import { checkOntologyTerms } from './ontology-terms';
import type { ParsedWorkbook } from './read';
import { entry } from './report';
import { checkFiles, checkReferences } from './rules-cross';
import { checkSheet } from './rules-sheet';
import type { ReportEntry, SheetData, StudyComponents, ValidationContext, ValidationResult } from './types';

export type { KnownSample, ReportEntry, StudyComponents, ValidationContext, ValidationResult } from './types';

/** docs/architecture.md, Decision 4: a study id is addressed in paths, so it may hold only these characters. */
const STUDY_ID = new RegExp(`^${STUDY_ID_PATTERN}$`);

/**
 * Every rule of docs/studies-and-checklists.md §9 over a parsed workbook, all errors at once: sheets belong to the
 * checklist, mandatory columns and cells, unknown and duplicate columns, allowed values, patterns, identifier
 * uniqueness, exactly one study row, cross-sheet references, ontology terms under their ancestor, biosample
 * accessions registered in the profile (and their taxon and scientific name), checksums of named data files and
 * duplicate file names. Files missing from the profile, and ontology terms that could not be checked, are warnings. Sheets without data rows count as absent.
 */
export async function validateStudy(def: ChecklistDefinition, wb: ParsedWorkbook, ctx: ValidationContext): Promise<ValidationResult> {
  const turns = new EventLoopTurns();
  const errors: ReportEntry[] = [];
  const warnings: ReportEntry[] = [];
  const data = new Map<string, SheetData>();

  for (const sheet of wb.sheets) {
    // Excel itself treats sheet names without regard to case
    const component = def.components.find((c) => c.key === sheet.name.toLowerCase());
    if (!component) {
      errors.push(entry(sheet.name, null, null, null, `Invalid worksheet: ${sheet.name}`));
      continue;
    }
    if (!sheet.rows.length) continue;
    if (data.has(component.key)) {
      errors.push(entry(sheet.name, null, null, null, `Duplicate worksheet: ${sheet.name}`));
      continue;
    }
    data.set(component.key, await checkSheet(sheet, component, ctx, errors, turns));
  }

  const study = data.get('study');
  let studyId: string | null = null;
  if (!study) errors.push(entry('study', null, null, null, 'Study component is missing'));
  else {
    for (const r of study.rows.slice(1)) errors.push(entry('study', r.rowNumber, null, null, 'Only one study is allowed'));
    const first = study.rows[0];
    studyId = first?.values.study_id ?? null;
    if (first && studyId && !STUDY_ID.test(studyId)) {
      // a row holds a value only for a column it has
      const col = first.cols.study_id ?? null;
      const label = (col === null ? undefined : study.columns.get(col)?.label) ?? 'study_id';
      errors.push(
        entry(
          'study',
          first.rowNumber,
          col,
          studyId,
          `Sheet study: Invalid value ${studyId} in column ${label} at row ${first.rowNumber}. ` +
            "A study ID may contain only letters, digits, '_', '-' and '.'.",
          study.sheet,
        ),
      );
    }
  }

  checkReferences(data, errors);
  checkOntologyTerms(data, ctx.ontology, errors, warnings);
  checkFiles(data, ctx, errors, warnings);

  const order = new Map(def.components.map((c, i) => [c.key, i]));
  errors.sort((a, b) => (order.get(a.sheet) ?? -1) - (order.get(b.sheet) ?? -1) || (a.row ?? 0) - (b.row ?? 0));
  const components: StudyComponents = {};
  for (const c of def.components) {
    const d = data.get(c.key);
    if (d) components[c.key] = d.rows.map((r) => r.values);
  }
  return { studyId, components, errors, warnings };
}
