import { messages, rowRanges } from '../messages';
import type { RackTube } from '../types';
import { missingTokenOf, NA_VALUES } from '../values';
import type { RuleCode } from './catalogue';
import { cellKey, matchesPattern, type RuleState, type WorkRow } from './context';

/**
 * RACK_OR_PLATE_ID + TUBE_OR_WELL_ID identify a physical tube (docs/tol-manifests.md §1.6). ERGA has no rack column, so
 * its key is "/" + TUBE_OR_WELL_ID, as in the reference.
 */
export const rackTubeKey = (rack: string, tube: string): string => `${rack}/${tube}`;

export interface TubeGroup {
  key: string;
  pair: RackTube;
  rows: WorkRow[];
}

/**
 * Fields a symbiont keeps; every other field is copied from its target when samples are saved. SERIES is the row's
 * own serial number, which the reference's copy would duplicate.
 */
const SYMBIONT_OWN_FIELDS = new Set([
  'SERIES',
  'ORDER_OR_GROUP',
  'FAMILY',
  'GENUS',
  'TAXON_ID',
  'SCIENTIFIC_NAME',
  'TAXON_REMARKS',
  'INFRASPECIFIC_EPITHET',
  'CULTURE_OR_STRAIN_ID',
  'COMMON_NAME',
  'LIFESTAGE',
  'SEX',
  'SYMBIONT',
]);

const isTokenOrNa = (raw: string): boolean => missingTokenOf(raw) !== null || NA_VALUES.has(raw);
const hasSlash = (v: string): boolean => v.includes('/') || v.includes('\\');

/** Checks each row's pair and groups the rows by pair; rows with an unusable pair are left out of the groups. */
export function checkRackTube(s: RuleState): Map<string, TubeGroup> {
  const hasRack = s.fields.has('RACK_OR_PLATE_ID');
  const rackField = s.fields.get('RACK_OR_PLATE_ID');
  const tubeField = s.fields.get('TUBE_OR_WELL_ID');
  const groups = new Map<string, TubeGroup>();
  if (!tubeField || !s.present.has('TUBE_OR_WELL_ID') || (hasRack && !s.present.has('RACK_OR_PLATE_ID'))) return groups;

  const error = (row: WorkRow, rule: RuleCode, field: string, message: string) => {
    s.failed.add(cellKey(row.rowNumber, field));
    s.report.error(rule, { row: row.rowNumber, field, value: row.raw[field] ?? '', message });
  };
  for (const row of s.rows) {
    const rawRack = hasRack ? (row.raw.RACK_OR_PLATE_ID ?? '') : '';
    const rawTube = row.raw.TUBE_OR_WELL_ID ?? '';
    const rackBad = hasRack && isTokenOrNa(rawRack);
    const tubeBad = isTokenOrNa(rawTube);
    if (rackBad && tubeBad && missingTokenOf(rawRack) && missingTokenOf(rawTube)) {
      error(row, 'rack_tube_token', 'RACK_OR_PLATE_ID', messages.rackTubeBothTokens(row.rowNumber));
      continue;
    }
    if (rackBad || tubeBad) {
      error(row, 'rack_tube_token', rackBad ? 'RACK_OR_PLATE_ID' : 'TUBE_OR_WELL_ID', messages.rackTubeToken(row.rowNumber));
      continue;
    }
    let blank = false;
    if (hasRack && !rawRack) {
      error(row, 'mandatory', 'RACK_OR_PLATE_ID', messages.missing('RACK_OR_PLATE_ID', row.rowNumber));
      blank = true;
    }
    if (!rawTube) {
      error(row, 'mandatory', 'TUBE_OR_WELL_ID', messages.missing('TUBE_OR_WELL_ID', row.rowNumber));
      blank = true;
    }
    if (blank) continue;
    if (hasSlash(rawRack) || hasSlash(rawTube)) {
      error(row, 'rack_tube_slash', hasSlash(rawRack) ? 'RACK_OR_PLATE_ID' : 'TUBE_OR_WELL_ID', messages.rackTubeSlash(row.rowNumber));
      continue;
    }
    for (const [f, v] of [
      [rackField, rawRack],
      [tubeField, rawTube],
    ] as const) {
      if (f && v && !matchesPattern(f, v)) {
        s.report.warn('fluidx', {
          row: row.rowNumber,
          field: f.def.name,
          value: v,
          message: messages.fluidx(v, f.def.name, row.rowNumber),
        });
      }
    }
    const key = rackTubeKey(rawRack, rawTube);
    const group = groups.get(key);
    if (group) group.rows.push(row);
    else groups.set(key, { key, pair: { rackOrPlateId: rawRack, tubeOrWellId: rawTube }, rows: [row] });
  }
  return groups;
}

const symbiontOf = (row: WorkRow): string => row.values.SYMBIONT ?? 'TARGET';

/**
 * Rows sharing a tube form a target + symbionts group: exactly one TARGET; a SYMBIONT needs a TARGET in its tube.
 */
export function checkTargetsAndSymbionts(s: RuleState, groups: ReadonlyMap<string, TubeGroup>): void {
  for (const g of groups.values()) {
    const targets = g.rows.filter((r) => symbiontOf(r) === 'TARGET');
    const rows = rowRanges(g.rows.map((r) => r.rowNumber));
    const first = g.rows[0];
    if (!first) continue;
    if (g.rows.length === 1) {
      if (symbiontOf(first) === 'SYMBIONT') {
        s.report.error('orphan_symbiont', {
          row: first.rowNumber,
          field: 'SYMBIONT',
          value: 'SYMBIONT',
          message: messages.orphanSymbiont(g.pair.tubeOrWellId),
        });
      }
      continue;
    }
    if (targets.length === 0) {
      s.report.error('rack_tube_duplicate', {
        row: first.rowNumber,
        field: 'TUBE_OR_WELL_ID',
        value: g.pair.tubeOrWellId,
        message: messages.duplicateWithoutTarget(g.key, rows),
      });
    }
    for (const extra of targets.slice(1)) {
      s.report.error('rack_tube_duplicate', {
        row: extra.rowNumber,
        field: 'TUBE_OR_WELL_ID',
        value: g.pair.tubeOrWellId,
        message: messages.multipleTargets(g.key, rows),
      });
    }
  }
}

/**
 * Symbionts take every field but the taxonomy and biology block from their target, ORGANISM_PART becomes
 * WHOLE_ORGANISM and ASG symbionts are SEX NOT_COLLECTED (docs/tol-manifests.md §1.6). Applied to the normalised rows;
 * a warning lists the symbiont's own values that are replaced.
 */
export function copyTargetIntoSymbionts(s: RuleState, groups: ReadonlyMap<string, TubeGroup>): void {
  for (const g of groups.values()) {
    const targets = g.rows.filter((r) => symbiontOf(r) === 'TARGET');
    const target = targets[0];
    if (targets.length !== 1 || !target) continue;
    for (const row of g.rows) {
      if (row === target || symbiontOf(row) !== 'SYMBIONT') continue;
      const replaced: string[] = [];
      for (const field of s.fields.keys()) {
        if (SYMBIONT_OWN_FIELDS.has(field)) continue;
        const own = row.values[field] ?? '';
        const theirs = field === 'ORGANISM_PART' ? 'WHOLE_ORGANISM' : (target.values[field] ?? '');
        if (own === theirs) continue;
        if (own) replaced.push(field);
        row.values[field] = theirs;
      }
      if (s.definition.project === 'asg') row.values.SEX = 'NOT_COLLECTED';
      if (replaced.length) {
        s.report.warn('symbiont_overwrite', {
          row: row.rowNumber,
          field: 'SYMBIONT',
          value: 'SYMBIONT',
          message: messages.symbiontOverwrite(row.rowNumber, target.rowNumber, replaced),
        });
      }
    }
  }
}
