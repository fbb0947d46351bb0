import { messages, rowRanges } from '../messages';
import { missingTokenOf, parseDecimal, vocabularyKey } from '../values';
import { cellKey, type RuleState, type WorkRow } from './context';

/** ERGA-only rules (docs/tol-manifests.md §1.6, §1.8). */

const DECIMAL_GROUP = ['DECIMAL_LATITUDE', 'DECIMAL_LONGITUDE'];
const START_END_GROUP = ['LATITUDE_START', 'LONGITUDE_START', 'LATITUDE_END', 'LONGITUDE_END'];

type CoordinateState = 'number' | 'not_collected' | 'blank' | 'invalid';

function coordinateState(s: RuleState, row: WorkRow, field: string): CoordinateState {
  const v = row.values[field] ?? '';
  if (!v) return 'blank';
  if (s.failed.has(cellKey(row.rowNumber, field))) return 'invalid';
  if (missingTokenOf(v) === 'NOT_COLLECTED') return 'not_collected';
  return parseDecimal(v) ? 'number' : 'invalid';
}

/**
 * Exactly one of the two coordinate groups holds numbers and the other is entirely NOT_COLLECTED; no group mixes the
 * two; all six cells are filled. POP_GENOMICS-only profiles may leave the start/end group blank.
 */
export function checkErgaCoordinates(s: RuleState): void {
  if (!DECIMAL_GROUP.every((f) => s.fields.has(f)) || !START_END_GROUP.every((f) => s.fields.has(f))) return;
  for (const row of s.rows) {
    const error = (field: string, message: string) =>
      s.report.error('erga_coordinates', { row: row.rowNumber, field, value: row.values[field] ?? '', message });
    const decimal = DECIMAL_GROUP.map((f) => coordinateState(s, row, f));
    const startEnd = START_END_GROUP.map((f) => coordinateState(s, row, f));
    if ([...decimal, ...startEnd].includes('invalid')) continue;
    const startEndOptional = s.popGenomicsOnly && startEnd.every((x) => x === 'blank');
    const blank = [...DECIMAL_GROUP, ...(startEndOptional ? [] : START_END_GROUP)].find((f) => coordinateState(s, row, f) === 'blank');
    if (blank) {
      error(blank, messages.latLongMissing(blank, row.rowNumber));
      continue;
    }
    const decimalNumbers = decimal.every((x) => x === 'number');
    const decimalNone = decimal.every((x) => x === 'not_collected');
    const startEndNumbers = !startEndOptional && startEnd.every((x) => x === 'number');
    const startEndNone = startEndOptional || startEnd.every((x) => x === 'not_collected');
    if (!decimalNumbers && !decimalNone) error('DECIMAL_LATITUDE', messages.latLongDecimalMixed(row.rowNumber));
    else if (!startEndNumbers && !startEndNone) error('LATITUDE_START', messages.latLongStartEndMixed(row.rowNumber));
    else if (decimalNumbers && startEndNumbers) error('DECIMAL_LATITUDE', messages.latLongBoth(row.rowNumber));
    else if (decimalNone && startEndNone) error('DECIMAL_LATITUDE', messages.latLongNone(row.rowNumber));
  }
}

const PERMITS = ['ETHICS_PERMITS', 'SAMPLING_PERMITS', 'NAGOYA_PERMITS'];

/**
 * REQUIRED = Y needs a PDF file name, REQUIRED = N needs NOT_APPLICABLE; all rows of a specimen share one
 * REQUIRED/FILENAME pair.
 */
export function checkPermits(s: RuleState): void {
  for (const prefix of PERMITS) {
    const requiredField = `${prefix}_REQUIRED`;
    const fileField = `${prefix}_FILENAME`;
    const file = s.fields.get(fileField);
    if (!s.present.has(requiredField) || !file || !s.present.has(fileField)) continue;
    const pairBySpecimen = new Map<string, string>();
    for (const row of s.rows) {
      const required = row.values[requiredField] ?? '';
      const name = row.values[fileField] ?? '';
      if (!required || !name || s.failed.has(cellKey(row.rowNumber, requiredField))) continue;
      const notApplicable = missingTokenOf(name) === 'NOT_APPLICABLE';
      const ok = required === 'Y' ? !notApplicable && file.regex !== null && file.regex.test(name) : notApplicable;
      if (!ok) {
        s.failed.add(cellKey(row.rowNumber, fileField));
        s.report.error('permit_filename', {
          row: row.rowNumber,
          field: fileField,
          value: name,
          message: messages.permitFilename(name, fileField, row.rowNumber),
        });
        continue;
      }
      const specimen = row.values.SPECIMEN_ID;
      if (!specimen) continue;
      const pair = `${required}|${name}`;
      const first = pairBySpecimen.get(specimen);
      if (first === undefined) pairBySpecimen.set(specimen, pair);
      else if (first !== pair) {
        s.report.error('permit_conflict', {
          row: row.rowNumber,
          field: fileField,
          value: pair,
          message: messages.permitConflict(pair, prefix, specimen),
        });
      }
    }
  }
}

/**
 * POP_GENOMICS-only profiles sequence populations: every sample must be RESEQUENCING. RESEQUENCING elsewhere, or
 * POP_GENOMICS mixed with other types, is a profile error reported once at the top.
 */
export function checkPopGenomics(s: RuleState): void {
  const types = s.ctx.associatedProjectTypes;
  if (!types || !s.present.has('PURPOSE_OF_SPECIMEN')) return;
  const profile = s.ctx.profileTitle ?? s.ctx.profileId;
  const pop = types.includes('POP_GENOMICS');
  if (pop && types.length > 1) {
    s.report.error('pop_genomics', { row: null, field: null, message: messages.popGenomicsCombined(profile) });
    return;
  }
  const resequencing: number[] = [];
  for (const row of s.rows) {
    const purpose = row.values.PURPOSE_OF_SPECIMEN ?? '';
    if (!purpose || s.failed.has(cellKey(row.rowNumber, 'PURPOSE_OF_SPECIMEN'))) continue;
    const isResequencing = vocabularyKey(purpose) === 'resequencing';
    if (pop && !isResequencing) {
      s.report.error('pop_genomics', {
        row: row.rowNumber,
        field: 'PURPOSE_OF_SPECIMEN',
        value: purpose,
        message: messages.popGenomicsPurpose(purpose, row.rowNumber),
      });
    }
    if (!pop && isResequencing) resequencing.push(row.rowNumber);
  }
  if (resequencing.length) {
    s.report.error('pop_genomics', {
      row: null,
      field: 'PURPOSE_OF_SPECIMEN',
      message: messages.resequencingWithoutPopGenomics(profile, rowRanges(resequencing)),
    });
  }
}
