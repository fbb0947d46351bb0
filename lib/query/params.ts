import { TOL_PROJECTS, type TolProject } from '@/db/schema';
import { Invalid } from '@/lib/errors';
import { isSvcId, isUuid } from '@/lib/identifiers/contract';
import { isTolProject } from '@/lib/projects/contract';
import { humanList, single, splitList } from '../values/lists';
import { type Raw, type ReturnType, STANDARDS, type Standard } from './contract';

export { humanList, single, splitList } from '../values/lists';
export type { Raw, ReturnType, Standard } from './contract';

// ---------------------------------------------------------------------------------------------------------------
// Projects

const PROJECTS_UPPER = humanList(
  TOL_PROJECTS.map((p) => p.toUpperCase()),
  'or',
);
export const isProject = isTolProject;

/** Several projects named by one parameter; `param` names it in the reference's sentences. */
export function parseProjects(raw: Raw, param: string, opts: { required: boolean }): TolProject[] {
  const values = splitList(raw, { lower: true });
  if (!values.length) {
    if (opts.required) throw Invalid(`'${param}' is required but not provided.`);
    return [];
  }
  for (const v of values) if (!isProject(v)) throw Invalid(`Invalid value for '${param}'. Must be one of: ${PROJECTS_UPPER}`);
  return values as TolProject[];
}

/** A parameter that names exactly one project: a list is refused as the reference refuses it. */
export function parseProject(raw: Raw, param: string): TolProject {
  const projects = parseProjects(raw, param, { required: true });
  if (projects.length > 1) throw Invalid(`Invalid value for '${param}'. Must be one of: ${PROJECTS_UPPER}`);
  return projects[0] as TolProject;
}

// ---------------------------------------------------------------------------------------------------------------
// Output options

/** return_type, checked before standard as the reference does (docs/api-behaviour.md §1.4). */
export function parseReturnType<T extends ReturnType>(raw: Raw, allowed: readonly T[]): T {
  const v = (single(raw) ?? 'json').toLowerCase();
  if (!(allowed as readonly string[]).includes(v)) {
    throw Invalid(`Invalid value for 'return_type'. Accepted values are: ${humanList(allowed)}`);
  }
  return v as T;
}

export function parseStandard(raw: Raw): Standard {
  const v = (single(raw) ?? 'tol').toLowerCase();
  if (!(STANDARDS as readonly string[]).includes(v)) {
    throw Invalid(`Invalid value for 'standard'. Accepted values are: ${humanList(STANDARDS)}`);
  }
  return v as Standard;
}

/**
 * `limit` and `offset` narrow any list (an extension: the reference has no paging). Without them every match is
 * returned; `number_found` is always the number of matches, not the length of the page.
 */
export interface Page {
  limit?: number;
  offset: number;
}

function nonNegative(raw: Raw, name: string): number | undefined {
  const v = single(raw);
  if (v === undefined) return undefined;
  if (!/^\d{1,9}$/.test(v)) throw Invalid(`Invalid value for '${name}'. Must be a non-negative integer.`);
  return Number(v);
}

export function parsePage(limit: Raw, offset: Raw): Page {
  return { limit: nonNegative(limit, 'limit'), offset: nonNegative(offset, 'offset') ?? 0 };
}

// ---------------------------------------------------------------------------------------------------------------
// Identifiers

/** One manifest id: any RFC 4122 UUID in any case, normalised to lower case (docs/api-behaviour.md §3.4 Sensible). */
export function parseManifestId(raw: string): string {
  const v = raw.trim().toLowerCase();
  if (v.length !== 36) {
    throw Invalid("Invalid value for 'manifest_id'. Must be a string UUID of length 36 (including hyphens).");
  }
  if (!isUuid(v)) throw Invalid("Invalid value for 'manifest_id'. Must be a valid UUID.");
  return v;
}

/** svc ids of a path or query list; every one must be 24 hex characters. */
export function parseSvcIds(raw: Raw, message: (bad: string[]) => string): string[] {
  const ids = splitList(raw, { lower: true });
  const bad = ids.filter((id) => !isSvcId(id));
  if (bad.length || !ids.length) throw Invalid(message(bad));
  return ids;
}
