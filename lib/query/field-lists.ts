import { currentDefinition } from '@/lib/manifests';
import { currentFieldNames, pairsIn, updatableFields, versionFieldNames } from '@/lib/standards/fields';
import type { MappingPair } from './contract';
import { parseProject, parseProjects, type Raw, type Standard, single } from './params';

/** GET sample/updatable_fields: a comma list of projects gives the sorted union. */
export function updatableFieldList(input: { project: Raw; standard: Standard }): string[] {
  return updatableFields(parseProjects(input.project, 'project', { required: true }), input.standard);
}

/** GET sample/project/manifest_version/fields */
export function versionFieldList(input: { project: Raw; manifestVersion: Raw; standard: Standard }): string[] {
  return versionFieldNames(parseProject(input.project, 'project'), single(input.manifestVersion), input.standard);
}

/**
 * GET mapping: the names of the current version's fields in a standard, or with `pairs`, which ToL field each
 * name comes from (what someone mapping their data needs; the reference gave names only).
 */
export function mappingList(input: { project: Raw; standard: Standard; pairs: boolean }): string[] | MappingPair[] {
  const project = parseProject(input.project, 'project');
  if (!input.pairs) return currentFieldNames(project, input.standard);
  return pairsIn(currentDefinition(project), input.standard).map((p) => ({ tol: p.tol, [input.standard]: p.name }));
}
