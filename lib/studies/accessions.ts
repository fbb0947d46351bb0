import type { ComponentDefinition } from '@/lib/checklists/contract';
import type { Repository } from '@/lib/repositories/contract';
import type { ReadAccessions, StudyAccessions } from './contract';

/**
 * `studies.accessions` holds what repositories returned, per repository: the study's own accession (ENA's PROJECT,
 * Zenodo's deposition) with its state, release date or DOI, and ENA's accessions of the read rows by row identifier:
 * `{"ena": {"study": "PRJEB1", "file": {"FILE001": {"run_accession": "ERR1", …}}}, "zenodo": {"study": "123", "doi": "10.5281/zenodo.123"}}`.
 */

/** The study's own accession at a repository, if any. */
export const studyAccession = (accessions: StudyAccessions, repo: Repository): string | undefined => accessions[repo]?.study || undefined;

/** A component's rows that a repository accessioned one by one, by row identifier: ENA's reads (the component it takes as `read`). */
export const readAccessions = (
  accessions: StudyAccessions,
  repo: Repository,
  component: ComponentDefinition,
): Record<string, ReadAccessions> => (repo === 'ena' && component.repositories.ena === 'read' && accessions.ena?.file) || {};

/** Identifiers of the rows of a component that carry an accession at some repository. */
export const accessionedRows = (accessions: StudyAccessions, component: ComponentDefinition): string[] =>
  Object.keys(readAccessions(accessions, 'ena', component));
