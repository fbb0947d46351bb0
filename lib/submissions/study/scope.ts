import type { Db } from '@/db/client';
import { getChecklistDefinition } from '@/lib/checklists/definitions';
import type { EnaClient } from '@/lib/repositories/ena';
import type { ZenodoClient } from '@/lib/repositories/zenodo';
import type { StudyRow } from '@/lib/studies';
import { type RepositoryState, repositoryStates } from '@/lib/studies/status';
import { REPOSITORIES, type Repository } from '@/lib/submissions/contract';

export interface StudyActionScope {
  profileId: string;
  schemaName: string;
  studyId: string;
}

export interface StudyClients {
  ena: () => EnaClient;
  zenodo: () => ZenodoClient;
}

/** The repositories the checklist's study component goes to (REMBI: Zenodo only). */
export async function targetsOf(db: Db, study: StudyRow): Promise<Repository[]> {
  const def = await getChecklistDefinition(db, study.schemaName, study.checklistId);
  const component = def.components.find((c) => c.key === 'study');
  return REPOSITORIES.filter((r) => component?.repositories[r]);
}

export async function stateOf(db: Db, study: StudyRow, repository: Repository): Promise<RepositoryState> {
  const states = await repositoryStates(db, [study], () => [repository]);
  return states.get(study.id)?.get(repository) ?? { status: 'pending', accession: '', error: '' };
}
