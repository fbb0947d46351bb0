import type { TolProject } from '@/lib/projects/contract';

/**
 * The rights hold on ERGA samples under traditional-knowledge or biocultural rights: a sample whose
 * ASSOCIATED_TRADITIONAL_KNOWLEDGE_OR_BIOCULTURAL_RIGHTS_APPLICABLE is not N and that names a Local Contexts Hub
 * project is `private` until the hub says the community made that project public (samples.rights_cleared_at). Until
 * then it is not decided, not sent to ENA and not shown by the public API. Pure rules, shared by ingest, decisions
 * and the rights check (lib/samples/rights.ts).
 */

export const RIGHTS_APPLICABLE = 'ASSOCIATED_TRADITIONAL_KNOWLEDGE_OR_BIOCULTURAL_RIGHTS_APPLICABLE';
export const RIGHTS_PROJECT_ID = 'ASSOCIATED_TRADITIONAL_KNOWLEDGE_OR_BIOCULTURAL_PROJECT_ID';

/** The Local Contexts Hub project whose rights hold this sample, or null when none does. */
export function traditionalKnowledgeProject(project: TolProject, fields: Record<string, string>): string | null {
  if (project !== 'erga') return null;
  const applicable = (fields[RIGHTS_APPLICABLE] ?? '').trim().toUpperCase();
  const projectId = (fields[RIGHTS_PROJECT_ID] ?? '').trim();
  return applicable && applicable !== 'N' && projectId ? projectId : null;
}

/** The project id as the manifest gives it ('' for none): a change of it asks for a new clearance. */
export const rightsProjectField = (fields: Record<string, string>): string => (fields[RIGHTS_PROJECT_ID] ?? '').trim();

/** Held: its rights apply and the hub has not (yet) said its project is public. */
export const onRightsHold = (sample: { project: TolProject; fields: Record<string, string>; rightsClearedAt: Date | null }): boolean =>
  sample.rightsClearedAt === null && traditionalKnowledgeProject(sample.project, sample.fields) !== null;

/** Why a held sample cannot be decided or sent on, in words. */
export const privateReason = (svcId: string, projectId: string | null): string =>
  `${svcId} is private: its traditional-knowledge project ${projectId ?? '(none named)'} is not public at the Local Contexts Hub yet; ` +
  'its rights must be cleared before it can be decided';
