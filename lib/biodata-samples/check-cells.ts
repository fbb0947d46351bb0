import type { Reporter } from '@/lib/manifests/rules/context';
import { earliestDay, latestToday, parseEnaDate } from '@/lib/manifests/values';
import type { ChecklistField, SampleChecklist } from '@/lib/sample-checklists/contract';
import { choiceKey, wholeMatch } from '@/lib/sample-checklists/match';
import { SampleAliasSchema } from './contract';
import { missingTerm } from './missing-terms';
import { ALIAS } from './sheet';
import type { StoredSample } from './stored';

/**
 * A row's cells against the checklist's fields: its alias (valid, once in the sheet, not a sample of the profile under
 * another checklist), each field's value (mandatory, a missing-value term, a choice, a pattern, a date) and each
 * field's unit. What is respelled or filled is written back into the row's values.
 */

/** Sample names a few, or says how many (a list of every country is the Guide sheet's to give). */
const listed = (values: readonly string[]) =>
  values.length <= 12 ? values.join(', ') : `${values.slice(0, 8).join(', ')} … (${values.length} values: see the template’s Guide sheet)`;

const isDateField = (f: ChecklistField) => /date/i.test(f.name);

export function checkAlias(
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

export function checkField(report: Reporter, rowNumber: number, values: Record<string, string>, f: ChecklistField, now: Date): void {
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

export function checkUnit(report: Reporter, rowNumber: number, values: Record<string, string>, f: ChecklistField): void {
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
