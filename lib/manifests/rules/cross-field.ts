import { messages } from '../messages';
import { missingTokenOf } from '../values';
import type { RuleState } from './context';

/** An original collection date needs the original place (docs/tol-manifests.md §1.6). */
export function checkOriginalLocation(s: RuleState): void {
  if (!s.present.has('ORIGINAL_COLLECTION_DATE') || !s.fields.has('ORIGINAL_GEOGRAPHIC_LOCATION')) return;
  for (const row of s.rows) {
    if (row.values.ORIGINAL_COLLECTION_DATE && !row.values.ORIGINAL_GEOGRAPHIC_LOCATION) {
      s.report.error('original_location', {
        row: row.rowNumber,
        field: 'ORIGINAL_GEOGRAPHIC_LOCATION',
        value: '',
        message: messages.originalLocation(row.rowNumber),
      });
    }
  }
}

const BIOBANKING: [removed: string, voucher: string][] = [
  ['TISSUE_REMOVED_FOR_BIOBANKING', 'TISSUE_VOUCHER_ID_FOR_BIOBANKING'],
  ['DNA_REMOVED_FOR_BIOBANKING', 'DNA_VOUCHER_ID_FOR_BIOBANKING'],
];

/** ERGA: biobanked tissue or DNA should carry a voucher id; a warning, as in the reference. */
export function checkBiobankingVouchers(s: RuleState): void {
  for (const [removed, voucher] of BIOBANKING) {
    if (!s.present.has(removed) || !s.fields.has(voucher)) continue;
    for (const row of s.rows) {
      const id = row.values[voucher] ?? '';
      if (row.values[removed] === 'Y' && (!id || missingTokenOf(id) !== null)) {
        s.report.warn('biobanking_voucher', {
          row: row.rowNumber,
          field: voucher,
          value: id,
          message: messages.biobankingVoucher(row.rowNumber, removed, voucher),
        });
      }
    }
  }
}
