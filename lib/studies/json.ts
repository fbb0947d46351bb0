import { REPOSITORIES } from '@/lib/repositories/contract';
import type { Study, StudyUploadResult } from './contract';
import type { StudySummary } from './studies';
import { SAVED_MESSAGE, type UploadResult } from './upload';

/**
 * A listed study as the reference answers it: the study sheet's columns by term name, then the columns of each
 * repository the study goes to, then the service's own fields (which win over a sheet column of the same name).
 */
export const studyJson = (s: StudySummary): Study => {
  const repos: Record<string, string> = {};
  for (const repo of REPOSITORIES) {
    const state = s.repositories[repo];
    if (!state) continue;
    repos[`status_${repo}`] = state.status;
    repos[`accession_${repo}`] = state.accession;
    repos[`error_${repo}`] = state.error;
    if (state.doi) repos[`doi_${repo}`] = state.doi;
    const stateAt = s.accessions[repo]?.state;
    if (stateAt) repos[`state_${repo}`] = stateAt;
  }
  // TypeScript cannot say "every other key is text" beside keys that are not; the schema (Study) does
  return {
    ...s.values,
    study_id: s.studyId,
    ...repos,
    checklist_id: s.checklistId,
    profile_id: s.profileId,
    schema_name: s.schemaName,
    components: s.counts,
    accessions: s.accessions,
    date_created: s.createdAt.toISOString(),
    date_modified: s.updatedAt.toISOString(),
  } as Study;
};

export const uploadResultJson = (r: UploadResult): StudyUploadResult => ({
  status: 'success',
  message: SAVED_MESSAGE,
  study_id: r.studyId,
  created: r.created,
  changed: r.changed,
  components: r.counts,
  warnings: r.warnings,
});
