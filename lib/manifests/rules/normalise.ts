import { messages } from '../messages';
import { vocabularyKey } from '../values';
import type { RuleState } from './context';

/**
 * Auto-corrections applied before the cell checks, each announced by a warning where the reference announces it,
 * so that the checks judge the values that will be stored.
 */

/** ERGA POP_GENOMICS-only profiles may leave these blank; the defaults fill them (docs/tol-manifests.md §1.6). */
export const POP_GENOMICS_DEFAULTS: Record<string, string> = {
  BARCODE_PLATE_PRESERVATIVE: 'NOT_APPLICABLE',
  BARCODING_STATUS: 'DNA_BARCODING_TO_BE_PERFORMED_GAL',
  BIOBANKED_TISSUE_PRESERVATIVE: 'NOT_APPLICABLE',
  COLLECTOR_ORCID_ID: 'NOT_PROVIDED',
  DATE_OF_PRESERVATION: 'NOT_COLLECTED',
  DESCRIPTION_OF_COLLECTION_METHOD: 'NOT_COLLECTED',
  DIFFICULT_OR_HIGH_PRIORITY_SAMPLE: 'NOT_COLLECTED',
  DNA_REMOVED_FOR_BIOBANKING: 'N',
  DNA_VOUCHER_ID_FOR_BIOBANKING: 'NOT_APPLICABLE',
  GAL: 'industry partner',
  // GAL_SAMPLE_ID takes the row's COLLECTOR_SAMPLE_ID
  GAL_SAMPLE_ID: '',
  IDENTIFIED_BY: 'NOT_COLLECTED',
  IDENTIFIED_HOW: 'NOT_COLLECTED',
  IDENTIFIER_AFFILIATION: 'NOT_COLLECTED',
  LATITUDE_START: 'NOT_COLLECTED',
  LATITUDE_END: 'NOT_COLLECTED',
  LONGITUDE_START: 'NOT_COLLECTED',
  LONGITUDE_END: 'NOT_COLLECTED',
  LIFESTAGE: 'not collected',
  PRESERVATION_APPROACH: 'NOT_COLLECTED',
  PRESERVED_BY: 'NOT_COLLECTED',
  PRESERVER_AFFILIATION: 'NOT_COLLECTED',
  SIZE_OF_TISSUE_IN_TUBE: 'NOT_COLLECTED',
  SYMBIONT: 'TARGET',
  TIME_ELAPSED_FROM_COLLECTION_TO_PRESERVATION: 'NOT_COLLECTED',
  TISSUE_FOR_BARCODING: 'NOT_APPLICABLE',
  TISSUE_FOR_BIOBANKING: 'NOT_APPLICABLE',
  TISSUE_REMOVED_FOR_BARCODING: 'N',
  TISSUE_REMOVED_FOR_BIOBANKING: 'N',
  TISSUE_VOUCHER_ID_FOR_BIOBANKING: 'NOT_APPLICABLE',
  TUBE_OR_WELL_ID_FOR_BARCODING: 'NOT_APPLICABLE',
  VOUCHER_ID: 'NOT_PROVIDED',
};

export const BARCODING_FIELDS = [
  'PLATE_ID_FOR_BARCODING',
  'TUBE_OR_WELL_ID_FOR_BARCODING',
  'TISSUE_FOR_BARCODING',
  'BARCODE_PLATE_PRESERVATIVE',
];

export function applyPopGenomicsDefaults(s: RuleState): void {
  if (!s.popGenomicsOnly) return;
  const fields = Object.keys(POP_GENOMICS_DEFAULTS).filter((f) => s.fields.has(f));
  for (const f of fields) s.present.add(f);
  for (const row of s.rows) {
    for (const field of fields) {
      if (row.values[field]) continue;
      const value = field === 'GAL_SAMPLE_ID' ? (row.values.COLLECTOR_SAMPLE_ID ?? '') : (POP_GENOMICS_DEFAULTS[field] ?? '');
      if (!value) continue;
      row.values[field] = value;
      s.report.warn('default_substituted', {
        row: row.rowNumber,
        field,
        message: messages.defaultSubstituted(field, row.rowNumber, value),
      });
    }
  }
}

/** A blank SYMBIONT means TARGET, silently (every project but DTOLENV, where it is required). */
export function defaultSymbiont(s: RuleState): void {
  if (!s.fields.has('SYMBIONT') || s.definition.project === 'dtolenv') return;
  s.present.add('SYMBIONT');
  for (const row of s.rows) if (!row.values.SYMBIONT) row.values.SYMBIONT = 'TARGET';
}

/** Excel times read as HH:MM:00 are cut back to HH:MM (docs/tol-manifests.md §1.3.8). */
export function cutTimeSeconds(s: RuleState): void {
  for (const row of s.rows) {
    const t = row.values.TIME_OF_COLLECTION;
    if (t && /^[0-9]{2}:[0-9]{2}:00$/.test(t)) row.values.TIME_OF_COLLECTION = t.slice(0, 5);
  }
}

/**
 * When no tissue went to barcoding the barcoding block is NOT_APPLICABLE whatever was typed, with a warning naming
 * the row. Done before the mandatory check so a blank block does not demand values that would be discarded.
 */
export function overwriteBarcoding(s: RuleState): void {
  const fields = BARCODING_FIELDS.filter((f) => s.fields.has(f));
  if (!s.fields.has('TISSUE_REMOVED_FOR_BARCODING') || !fields.length) return;
  for (const row of s.rows) {
    const removed = row.values.TISSUE_REMOVED_FOR_BARCODING ?? '';
    if (vocabularyKey(removed) !== 'n') continue;
    const changed = fields.filter((f) => row.values[f] !== 'NOT_APPLICABLE');
    if (!changed.length) continue;
    for (const f of changed) row.values[f] = 'NOT_APPLICABLE';
    s.report.warn('barcoding_overwrite', {
      row: row.rowNumber,
      field: changed[0] ?? null,
      value: removed,
      message: messages.barcodingOverwrite(changed, row.rowNumber, removed),
    });
  }
}
