import { mapLimit } from '@/lib/concurrency';
import { messages } from '../messages';
import type { TaxonRecord } from '../types';
import { vocabularyKey } from '../values';
import type { RuleCode } from './catalogue';
import { cellKey, type RuleState, type WorkRow } from './context';
import { isTrue, type RankedLineage, rankedLineage, TaxonomyCache } from './taxonomy-lookup';

/**
 * TAXON_ID ↔ SCIENTIFIC_NAME consistency, submittability, rank and the lineage columns (docs/tol-manifests.md §2.3).
 * Verdicts are computed once per distinct taxon and per distinct (taxon, name) pair, then applied to every row.
 */

const CONCURRENCY = 8;
const LINEAGE_FIELDS: [field: string, rank: keyof RankedLineage][] = [
  ['GENUS', 'genus'],
  ['FAMILY', 'family'],
  ['ORDER_OR_GROUP', 'order'],
];

interface TaxonVerdict {
  record: TaxonRecord | null;
  lineage: RankedLineage | null;
}

type NameVerdict =
  | { kind: 'match' }
  | { kind: 'synonym'; official: string }
  | { kind: 'name_mismatch'; expected: string }
  | { kind: 'id_mismatch'; ids: string[] };

const isSymbiont = (row: WorkRow): boolean => row.values.SYMBIONT === 'SYMBIONT';
const pairKey = (taxId: string, name: string): string => `${taxId}\u0000${name.toLowerCase()}`;

export async function checkTaxonomy(s: RuleState): Promise<void> {
  if (!s.fields.has('TAXON_ID') || !s.present.has('TAXON_ID')) return;
  const taxonomy = new TaxonomyCache(s.ctx.taxonomy);
  const env = s.definition.project === 'dtolenv';
  const hasName = s.fields.has('SCIENTIFIC_NAME') && s.present.has('SCIENTIFIC_NAME');
  const error = (row: WorkRow, rule: RuleCode, field: string, message: string) => {
    s.failed.add(cellKey(row.rowNumber, field));
    s.report.error(rule, { row: row.rowNumber, field, value: row.values[field] ?? '', message });
  };

  // 1. rows whose TAXON_ID must come from the name
  const rows: WorkRow[] = [];
  const unresolvedNames = new Set<string>();
  for (const row of s.rows) {
    const taxId = row.values.TAXON_ID ?? '';
    const name = hasName ? (row.values.SCIENTIFIC_NAME ?? '') : '';
    if (!taxId && !name) {
      if (hasName) error(row, 'taxon_missing', 'TAXON_ID', messages.taxonBothMissing(row.rowNumber));
      else error(row, 'mandatory', 'TAXON_ID', messages.missing('TAXON_ID', row.rowNumber));
      requireLineage(s, row);
      continue;
    }
    if (taxId && !/^[0-9]+$/.test(taxId)) {
      error(row, 'taxon_id_integer', 'TAXON_ID', messages.taxonIdNotInteger(taxId, row.rowNumber));
      requireLineage(s, row);
      continue;
    }
    if (!taxId) unresolvedNames.add(name);
    rows.push(row);
  }
  await mapLimit([...unresolvedNames], CONCURRENCY, (n) => taxonomy.byScientificName(n));
  const withId: WorkRow[] = [];
  for (const row of rows) {
    if (!row.values.TAXON_ID) {
      const name = row.values.SCIENTIFIC_NAME ?? '';
      const hits = await taxonomy.byScientificName(name);
      const hit = hits.find((h) => h.scientificName.toLowerCase() === name.toLowerCase()) ?? hits[0];
      if (!hit) {
        error(row, 'name_unresolved', 'SCIENTIFIC_NAME', messages.nameUnresolved(name, row.rowNumber));
        requireLineage(s, row);
        continue;
      }
      row.values.TAXON_ID = hit.taxId;
      s.report.warn('taxon_filled', {
        row: row.rowNumber,
        field: 'TAXON_ID',
        value: '',
        message: messages.taxonFilled(row.rowNumber, name, hit.taxId),
      });
    }
    withId.push(row);
  }

  // 2. one verdict per distinct taxon
  const ids = [...new Set(withId.map((r) => r.values.TAXON_ID ?? ''))];
  const verdicts = new Map<string, TaxonVerdict>();
  await mapLimit(ids, CONCURRENCY, async (id) => {
    const record = await taxonomy.byTaxId(id);
    const lineage = record && !env && isAcceptedRank(record.rank, false) ? await rankedLineage(record, taxonomy) : null;
    verdicts.set(id, { record, lineage });
  });

  // 3. one verdict per distinct (taxon, name) whose name differs from the official one
  const pairs = new Map<string, NameVerdict>();
  if (hasName) {
    const todo = new Map<string, { taxId: string; name: string; official: string }>();
    for (const row of withId) {
      const taxId = row.values.TAXON_ID ?? '';
      const name = row.values.SCIENTIFIC_NAME ?? '';
      const official = verdicts.get(taxId)?.record?.scientificName;
      if (official === undefined || !name) continue;
      const key = pairKey(taxId, name);
      if (name.toLowerCase() === official.toLowerCase()) pairs.set(key, { kind: 'match' });
      else todo.set(key, { taxId, name, official });
    }
    await mapLimit([...todo.entries()], CONCURRENCY, async ([key, { taxId, name, official }]) => {
      const hits = await taxonomy.byScientificName(name);
      if (hits.some((h) => h.taxId === taxId)) pairs.set(key, { kind: 'synonym', official });
      else if (!hits.length) pairs.set(key, { kind: 'name_mismatch', expected: official });
      else pairs.set(key, { kind: 'id_mismatch', ids: [...new Set(hits.map((h) => h.taxId))] });
    });
  }

  // 4. apply
  for (const row of withId) {
    const taxId = row.values.TAXON_ID ?? '';
    const verdict = verdicts.get(taxId);
    const record = verdict?.record ?? null;
    if (!record) {
      error(row, 'taxon_not_found', 'TAXON_ID', messages.taxonNotFound(taxId, row.rowNumber));
      requireLineage(s, row);
      continue;
    }
    // DTOLENV checks the rank only, and not for symbionts (docs/tol-manifests.md §1.9)
    let usable = true;
    if (!env && !isTrue(record.submittable)) {
      error(row, 'taxon_not_submittable', 'TAXON_ID', messages.taxonNotSubmittable(taxId));
      usable = false;
    }
    if (!(env && isSymbiont(row)) && !isAcceptedRank(record.rank, env)) {
      error(row, 'taxon_rank', 'TAXON_ID', messages.taxonRank(taxId, env ? "'species'" : "'species' or 'subspecies'"));
      usable = false;
    }
    if (!env && record.binomial !== undefined && !isTrue(record.binomial)) {
      error(row, 'taxon_not_binomial', 'TAXON_ID', messages.taxonNotBinomial(taxId, record.scientificName));
      usable = false;
    }
    if (hasName && !applyName(s, row, pairs, error)) usable = false;
    if (usable && verdict?.lineage) applyLineage(s, row, verdict.lineage, record.scientificName, error);
    else requireLineage(s, row);
  }
}

const isAcceptedRank = (rank: string, speciesOnly: boolean): boolean => {
  const r = rank.toLowerCase();
  return r === 'species' || (!speciesOnly && r === 'subspecies');
};

type ErrorFn = (row: WorkRow, rule: RuleCode, field: string, message: string) => void;

/** Checks SCIENTIFIC_NAME against the taxon; false when the pair is wrong. A synonym is replaced, with a warning. */
function applyName(s: RuleState, row: WorkRow, pairs: ReadonlyMap<string, NameVerdict>, error: ErrorFn): boolean {
  const name = row.values.SCIENTIFIC_NAME ?? '';
  if (!name) {
    error(row, 'mandatory', 'SCIENTIFIC_NAME', messages.missing('SCIENTIFIC_NAME', row.rowNumber));
    return false;
  }
  const v = pairs.get(pairKey(row.values.TAXON_ID ?? '', name));
  if (!v || v.kind === 'match') return true;
  if (v.kind === 'name_mismatch') {
    error(row, 'taxon_mismatch', 'SCIENTIFIC_NAME', messages.nameMismatch(name, row.rowNumber, v.expected));
    return false;
  }
  if (v.kind === 'id_mismatch') {
    error(row, 'taxon_mismatch', 'TAXON_ID', messages.taxonIdMismatch(row.values.TAXON_ID ?? '', row.rowNumber, v.ids));
    return false;
  }
  s.report.warn('taxon_synonym', {
    row: row.rowNumber,
    field: 'SCIENTIFIC_NAME',
    value: name,
    message: messages.synonym(name, row.rowNumber, v.official),
  });
  row.values.SCIENTIFIC_NAME = v.official;
  if (s.fields.has('OTHER_INFORMATION')) {
    const note = `Scientific name synonym ${name} was replaced by ${v.official}`;
    const other = row.values.OTHER_INFORMATION ?? '';
    row.values.OTHER_INFORMATION = other ? `${other} | ${note}` : note;
  }
  return true;
}

/**
 * GENUS, FAMILY and ORDER_OR_GROUP must be the taxon's (case ignored); blanks are filled from the lineage, and
 * ranks the lineage lacks default to NOT_APPLICABLE. ORDER_OR_GROUP may name any group when there is no order.
 */
function applyLineage(s: RuleState, row: WorkRow, lineage: RankedLineage, name: string, error: ErrorFn): void {
  for (const [field, rank] of LINEAGE_FIELDS) {
    if (!s.present.has(field)) continue;
    const expected = lineage[rank];
    const value = row.values[field] ?? '';
    if (!value) {
      const fill = expected ?? 'NOT_APPLICABLE';
      row.values[field] = fill;
      s.report.warn('lineage_filled', {
        row: row.rowNumber,
        field,
        value: '',
        message: messages.lineageFilled(field, row.rowNumber, name, fill),
      });
      continue;
    }
    if (expected !== null) {
      if (value.toLowerCase() !== expected.toLowerCase())
        error(row, 'lineage', field, messages.lineageMismatch(value, field, row.rowNumber, expected));
    } else if (field !== 'ORDER_OR_GROUP' && vocabularyKey(value) !== 'not applicable') {
      error(row, 'lineage', field, messages.lineageAbsent(value, field, row.rowNumber));
    }
  }
}

/** Without a usable taxon nothing can be filled in, so blank lineage cells are plain missing data. */
function requireLineage(s: RuleState, row: WorkRow): void {
  for (const [field] of LINEAGE_FIELDS) {
    const def = s.fields.get(field)?.def;
    if (!def?.required || !s.present.has(field) || row.values[field]) continue;
    s.failed.add(cellKey(row.rowNumber, field));
    s.report.error('mandatory', { row: row.rowNumber, field, value: '', message: messages.missing(field, row.rowNumber) });
  }
}
