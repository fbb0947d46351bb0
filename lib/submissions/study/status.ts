import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { submissions } from '@/db/schema';
import { getChecklistDefinition } from '@/lib/checklists/definitions';
import { getStudy } from '@/lib/studies';
import { readAccessions } from '@/lib/studies/accessions';
import { repositoryStates } from '@/lib/studies/status';
import type { Repository } from '@/lib/submissions/contract';
import type { UserRecord } from '@/lib/users/users';
import type { AccessionRow, StudySubmissionStatus } from './contract';
import { filesProgress } from './file-progress';
import { type StudyActionScope, stateOf, targetsOf } from './scope';

/** Per study and repository: what the status endpoint answers (docs/api-behaviour.md §3.3.5, "Sensible"). */
export async function studySubmissionStatus(
  db: Db,
  user: UserRecord,
  scope: StudyActionScope & { repository: Repository },
): Promise<StudySubmissionStatus> {
  const study = await getStudy(db, user, scope);
  const state = await stateOf(db, study, scope.repository);
  const [latest] = await db
    .select()
    .from(submissions)
    .where(and(eq(submissions.studyRowId, study.id), eq(submissions.repository, scope.repository)))
    .orderBy(desc(submissions.createdAt))
    .limit(1);
  // the files were sent by the latest submission, not by a later publication
  const [sent] =
    latest?.action === 'submit'
      ? [latest]
      : await db
          .select()
          .from(submissions)
          .where(and(eq(submissions.studyRowId, study.id), eq(submissions.repository, scope.repository), eq(submissions.action, 'submit')))
          .orderBy(desc(submissions.createdAt))
          .limit(1);
  return {
    study_id: study.studyId,
    repository: scope.repository,
    status: state.status,
    state: latest
      ? latest.status === 'pending'
        ? 'queued'
        : latest.status === 'processing'
          ? state.detail
            ? 'waiting'
            : 'sending'
          : latest.status
      : 'not_submitted',
    accession: state.accession,
    ...(state.doi && { doi: state.doi }),
    error: state.error,
    // while processing: what it waits for, e.g. "ENA could not be reached (…); next try at 2026-11-24T10:00:30Z."
    ...(state.detail && { detail: state.detail }),
    ...(latest && { submission_id: latest.id, updated: latest.updatedAt.toISOString() }),
    // how far each data file got in the latest submission: checked, sent (bytes), or failed and why
    files: Object.entries(sent ? filesProgress(sent.progress) : {})
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, p]) => ({ file_name: name, state: p.state, size: p.size, sent: p.sent, ...(p.error && { error: p.error }) })),
  };
}

/** The accession rows of docs/api-behaviour.md §3.3.6, one per repository the study goes to (or the one asked for). */
export async function studyAccessions(
  db: Db,
  user: UserRecord,
  scope: StudyActionScope & { repository: Repository | undefined },
): Promise<AccessionRow[]> {
  const study = await getStudy(db, user, scope);
  const targets = (await targetsOf(db, study)).filter((r) => !scope.repository || r === scope.repository);
  const states = await repositoryStates(db, [study], () => targets);
  const def = await getChecklistDefinition(db, study.schemaName, study.checklistId);
  return targets.flatMap((repo) => {
    const s = states.get(study.id)?.get(repo);
    const status = s?.status ?? 'pending';
    const studyRow: Record<string, string> = {
      study_id: study.studyId,
      repository: repo,
      [`study_status_${repo}`]: status,
      [`study_accession_${repo}`]: s?.accession ?? '',
      [`study_error_${repo}`]: s?.error ?? '',
      ...(repo === 'ena'
        ? { state_ena: study.accessions.ena?.state ?? '', release_date_ena: study.accessions.ena?.release_date ?? '' }
        : { state_zenodo: study.accessions.zenodo?.state ?? '', doi_zenodo: study.accessions.zenodo?.doi ?? '' }),
    };
    // the components this repository takes row by row (ENA: reads), each row joined to its study's
    const rowComponents = def.components.filter((c) => c.key !== 'study' && c.repositories[repo]);
    const joined = rowComponents.flatMap((c) => {
      const keys = c.fields.filter((f) => f.identifier || (f.referencedComponent && f.referencedComponent !== 'study'));
      const id = c.fields.find((f) => f.identifier)?.termName;
      const byRow = readAccessions(study.accessions, repo, c);
      return (study.components[c.key] ?? []).map((row) => {
        const acc = (id && byRow[row[id] ?? '']) || undefined;
        const rowStatus = acc?.run_accession ? 'accepted' : status === 'accepted' ? 'pending' : status;
        return {
          ...studyRow,
          ...Object.fromEntries(keys.map((f) => [f.termName, row[f.termName] ?? ''])),
          [`${c.key}_status_${repo}`]: rowStatus,
          [`${c.key}_accession_${repo}`]: acc?.run_accession ?? '',
          [`${c.key}_error_${repo}`]: rowStatus === 'rejected' ? (s?.error ?? '') : '',
          ...(repo === 'ena' && {
            run_accession_ena: acc?.run_accession ?? '',
            experiment_accession_ena: acc?.experiment_accession ?? '',
          }),
        };
      });
    });
    return joined.length ? joined : [studyRow];
  });
}
