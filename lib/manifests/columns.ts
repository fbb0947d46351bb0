import type { FieldDefinition, ManifestDefinition } from './types';

export { columnLetter } from '@/lib/spreadsheets/columns';

/**
 * The reference strips spaces, newlines and `: . ( ) / , ; ' " ’ “ ”` from headers (docs/tol-manifests.md §1.3.6); we
 * also ignore case, `_` and `-`, so "Proxy voucher id" still finds PROXY_VOUCHER_ID.
 */
export const headerKey = (header: string): string => header.replace(/[\s:.()/,;'"’“”_-]/g, '').toUpperCase();

/** The field a sheet header names, exactly or after the reference's header normalisation; null if none. */
export function fieldForHeader(definition: ManifestDefinition, header: string): FieldDefinition | null {
  const key = headerKey(header);
  const exact = definition.fields.find((f) => f.name === header);
  return exact ?? definition.fields.find((f) => headerKey(f.name) === key) ?? null;
}
