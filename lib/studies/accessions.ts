import { REPOSITORIES, type Repository } from '@/db/schema';

/**
 * `studies.accessions` holds what repositories returned, per repository and component:
 * `{"ena": {"study": "PRJEB1", "file": {"FILE001": "ERR1"}}, "zenodo": {"study": "123", "doi": "10.5281/zenodo.123"}}`.
 * A component's value is either one accession (the study row) or an object keyed by the row's identifier; other
 * keys (doi, state, release dates…) are the submitter's own.
 */
export type StudyAccessions = Partial<Record<Repository, Record<string, unknown>>>;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function asAccessions(raw: unknown): StudyAccessions {
  if (!isRecord(raw)) return {};
  const out: StudyAccessions = {};
  for (const repo of REPOSITORIES) if (isRecord(raw[repo])) out[repo] = raw[repo];
  return out;
}

/** The study's own accession at a repository, if any. */
export function studyAccession(accessions: StudyAccessions, repo: Repository): string | undefined {
  const v = accessions[repo]?.study;
  return typeof v === 'string' && v ? v : undefined;
}

/** Identifiers of the rows of a component that carry an accession at some repository. */
export function accessionedRows(accessions: StudyAccessions, component: string): Map<string, Repository[]> {
  const out = new Map<string, Repository[]>();
  for (const repo of REPOSITORIES) {
    const byRow = accessions[repo]?.[component];
    if (!isRecord(byRow)) continue;
    for (const [id, acc] of Object.entries(byRow)) {
      if (acc === null || acc === undefined || acc === '') continue;
      out.set(id, [...(out.get(id) ?? []), repo]);
    }
  }
  return out;
}

/** A copy of `accessions` with one row's accession recorded, for the submission workers. */
export function withRowAccession(
  accessions: StudyAccessions,
  repo: Repository,
  component: string,
  identifier: string,
  accession: unknown,
): StudyAccessions {
  const atRepo = { ...(accessions[repo] ?? {}) };
  const byRow = isRecord(atRepo[component]) ? { ...atRepo[component] } : {};
  byRow[identifier] = accession;
  atRepo[component] = byRow;
  return { ...accessions, [repo]: atRepo };
}
