import { messages } from '../messages';
import type { ExistingSample } from '../types';
import type { RuleCode } from './catalogue';
import type { RuleState, WorkRow } from './context';
import { rackTubeKey, type TubeGroup } from './rack-tube';

export interface UpdateMatches {
  mode: 'create' | 'update';
  matches: { row: number; sampleId: string }[];
  /** row → the stored sample it updates, so the specimen check can ignore that sample's old taxon */
  sampleOfRow: Map<number, ExistingSample>;
}

/**
 * Tubes already stored: in another profile they are taken (error); in this profile the upload updates those samples
 * (docs/tol-manifests.md §1.6, §2.6), and then every row must be an existing target sample.
 */
export async function checkStoredTubes(s: RuleState, groups: ReadonlyMap<string, TubeGroup>): Promise<UpdateMatches> {
  const result: UpdateMatches = { mode: 'create', matches: [], sampleOfRow: new Map() };
  if (!groups.size) return result;
  const stored = await s.ctx.existingSamples.byRackTube([...groups.values()].map((g) => g.pair));
  const own = new Map<string, ExistingSample>();
  const foreign = new Set<string>();
  for (const e of stored) {
    const key = rackTubeKey(e.rackOrPlateId, e.tubeOrWellId);
    if (e.profileId === s.ctx.profileId) {
      if (e.symbiont === 'TARGET') own.set(key, e);
    } else {
      foreign.add(key);
    }
  }
  const ownKeys = new Set(stored.filter((e) => e.profileId === s.ctx.profileId).map((e) => rackTubeKey(e.rackOrPlateId, e.tubeOrWellId)));
  result.mode = ownKeys.size ? 'update' : 'create';

  const report = (row: WorkRow, rule: RuleCode, message: string) =>
    s.report.error(rule, { row: row.rowNumber, field: 'TUBE_OR_WELL_ID', value: row.values.TUBE_OR_WELL_ID ?? '', message });
  for (const g of groups.values()) {
    for (const row of g.rows) {
      if (foreign.has(g.key)) {
        report(row, 'rack_tube_exists', messages.rackTubeExists(g.key));
        continue;
      }
      if (result.mode === 'create') continue;
      if ((row.values.SYMBIONT ?? 'TARGET') === 'SYMBIONT') {
        s.report.error('update_symbiont', {
          row: row.rowNumber,
          field: 'SYMBIONT',
          value: 'SYMBIONT',
          message: messages.updateSymbiont(row.rowNumber),
        });
        continue;
      }
      const sample = own.get(g.key);
      if (!sample) {
        report(row, 'update_new_sample', messages.updateNewSample(g.key));
        continue;
      }
      result.matches.push({ row: row.rowNumber, sampleId: sample.sampleId });
      result.sampleOfRow.set(row.rowNumber, sample);
    }
  }
  result.matches.sort((a, b) => a.row - b.row);
  return result;
}
