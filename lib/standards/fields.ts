import { TOL_PROJECTS, type TolProject } from '@/db/schema';
import { Invalid } from '@/lib/errors';
import { compareVersions, currentDefinition, loadManifestDefinitions, type ManifestDefinition } from '@/lib/manifests';
import type { Standard } from '@/lib/standards/contract';
import { humanList } from '@/lib/values/lists';
import { SYSTEM_KEYS } from './render';

/**
 * Field-name lists: names only, never values, so sensitive fields may appear (the reference's mapping lists
 * SAMPLE_COORDINATOR_ORCID_ID too, docs/api-behaviour.md §1.10).
 */

export const definitionsOf = (project: TolProject): ManifestDefinition[] =>
  loadManifestDefinitions()
    .filter((d) => d.project === project)
    .sort((a, b) => compareVersions(a.version, b.version));

/** A definition's field names in a standard, template order, fields without a name in it left out. */
export const namesIn = (def: ManifestDefinition, standard: Standard): string[] =>
  def.fields.flatMap((f) => {
    const name = f.standards[standard];
    return name ? [name] : [];
  });

/** `{tol, <standard>}` pairs: what a user mapping fields needs (the reference returned names only). */
export const pairsIn = (def: ManifestDefinition, standard: Standard): { tol: string; name: string }[] =>
  def.fields.flatMap((f) => {
    const name = f.standards[standard];
    return name ? [{ tol: f.name, name }] : [];
  });

/** The fields of the current version of a project in a standard (GET mapping). */
export const currentFieldNames = (project: TolProject, standard: Standard): string[] => namesIn(currentDefinition(project), standard);

/** The fields of one stored version (GET sample/project/manifest_version/fields). */
export function versionFieldNames(project: TolProject, version: string | undefined, standard: Standard): string[] {
  const defs = definitionsOf(project);
  const def = defs.find((d) => d.version === (version ?? '').trim());
  if (!def) {
    throw Invalid(
      `No fields exist for the manifest version, ${version ?? ''}. Available manifest versions are ${humanList(defs.map((d) => d.version))}.`,
    );
  }
  return namesIn(def, standard);
}

/**
 * Fields a re-uploaded manifest may change, over every version of the projects, sorted (docs/tol-manifests.md §4.3).
 * In another standard each takes its name at the project's current version and those without one are left out.
 */
export function updatableFields(projects: readonly TolProject[], standard: Standard): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const project of projects) {
    const names = [...new Set(definitionsOf(project).flatMap((d) => d.fields.filter((f) => f.updatable).map((f) => f.name)))].sort();
    const current = new Map(currentDefinition(project).fields.map((f) => [f.name, f]));
    for (const name of names) {
      const mapped = standard === 'tol' ? name : current.get(name)?.standards[standard];
      if (mapped && !seen.has(mapped)) {
        seen.add(mapped);
        out.push(mapped);
      }
    }
  }
  return projects.length > 1 ? out.sort() : out;
}

let searchable: Map<string, string> | null = null;

/**
 * Names accepted by `sample/sample_field/{field}`: every manifest field of every project and version, and the keys
 * the service adds; matched case-insensitively and returned in their canonical spelling.
 */
export function sampleFieldNames(): Map<string, string> {
  if (!searchable) {
    const names = new Set<string>();
    for (const d of loadManifestDefinitions()) for (const f of d.fields) if (f.export && !f.sensitive) names.add(f.name);
    for (const k of SYSTEM_KEYS) names.add(k);
    searchable = new Map([...names].map((n) => [n.toLowerCase(), n]));
  }
  return searchable;
}

/** The sentence for an unknown field, listing the accepted names as the reference does (§3.5.7). */
export function invalidFieldMessage(): string {
  const names = [...sampleFieldNames().values()].filter((n) => n !== 'tol_project');
  return `Invalid field provided. Please provide either ${names.join(', ')} or tol_project.`;
}

/** Every field that may appear in a rendered record, for the audit's "exported fields only" rule. */
export function exportedFieldSet(): Set<string> {
  const set = new Set<string>(SYSTEM_KEYS);
  for (const d of loadManifestDefinitions()) for (const f of d.fields) if (f.export && !f.sensitive) set.add(f.name);
  return set;
}

export const ALL_PROJECTS: readonly TolProject[] = TOL_PROJECTS;
