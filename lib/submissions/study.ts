import { and, desc, eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '@/db/client';
import { isUniqueViolation } from '@/db/errors';
import { REPOSITORIES, studies, submissions, type Repository } from '@/db/schema';
import { getChecklistDefinition } from '@/lib/checklists/definitions';
import { AppError, Conflict, Invalid } from '@/lib/errors';
import type { JobQueue } from '@/lib/jobs/queue';
import type { EnaClient, EnaReceipt } from '@/lib/repositories/ena';
import type { ZenodoClient, ZenodoCreator } from '@/lib/repositories/zenodo';
import { RepositoryError } from '@/lib/repositories/errors';
import { asAccessions, getStudy, writeStudyWorkbook, type StudyAccessions, type StudyRow } from '@/lib/studies';
import { repositoryStates, type RepositoryState } from '@/lib/studies/status';
import type { UserRecord } from '@/lib/users/users';
import { beginAttempt, finishSubmission, MAX_ATTEMPTS, recordProgress } from './submissions';

export interface StudyActionScope {
  profileId: string;
  schemaName: string;
  studyId: string;
}

export interface StudyClients {
  ena: () => EnaClient;
  zenodo: () => ZenodoClient;
}

export function parseRepository(raw: string | undefined, fallback: Repository | null = 'ena'): Repository | null {
  const value = raw?.trim().toLowerCase();
  if (!value) return fallback;
  const repo = REPOSITORIES.find((r) => r === value);
  if (!repo) throw Invalid(`Invalid value for 'repository'. Accepted values are: ena and zenodo`, [{ path: 'repository', message: 'ena or zenodo' }]);
  return repo;
}

/** The repositories the checklist's study component goes to (REMBI: Zenodo only). */
async function targetsOf(db: Db, study: StudyRow): Promise<Repository[]> {
  const def = await getChecklistDefinition(db, study.schemaName, study.checklistId);
  const component = def.components.find((c) => c.key === 'study');
  return REPOSITORIES.filter((r) => component?.repositories[r]);
}

async function stateOf(db: Db, study: StudyRow, repository: Repository): Promise<RepositoryState> {
  const states = await repositoryStates(db, [study], () => [repository]);
  return states.get(study.id)?.get(repository) ?? { status: 'pending', accession: '', error: '' };
}

/**
 * Queues a study's submission to one repository. 409 and nothing queued when the repository is not a target of the
 * checklist, its credentials are missing, a submission is already running, or nothing changed since the last one.
 */
export async function queueStudySubmission(
  deps: { db: Db; jobs: JobQueue; requireCredentials: (repository: Repository) => void },
  user: UserRecord,
  scope: StudyActionScope & { repository: Repository },
) {
  const { db } = deps;
  const study = await getStudy(db, user, scope);
  const { repository } = scope;
  if (!(await targetsOf(db, study)).includes(repository)) {
    throw Conflict(`Repository ${repository} is not supported for study submission!`);
  }
  deps.requireCredentials(repository);
  const state = await stateOf(db, study, repository);
  if (state.status === 'processing') throw Conflict('Submission is in progress, please wait until it is completed!');
  if (state.status === 'accepted' || state.status === 'published') throw Conflict('There is no pending change for submission!');
  try {
    const [row] = await db
      .insert(submissions)
      .values({ kind: 'study', repository, profileId: study.profileId, studyRowId: study.id, createdBy: user.id })
      .returning({ id: submissions.id });
    await deps.jobs.send('study.submit', { submissionId: row!.id });
    return { status: 'success', message: 'Submission has been scheduled.', state: 'queued', submission_id: row!.id, repository };
  } catch (err) {
    // the partial unique index: another request queued it a moment ago
    if (!(err instanceof AppError) && isUniqueViolation(err)) {
      throw Conflict('Submission is in progress, please wait until it is completed!');
    }
    throw err;
  }
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** The study's own accessions are written without touching updated_at: it is the study's data, not a change by the user. */
async function saveAccessions(db: Db, studyRowId: string, change: (a: StudyAccessions) => StudyAccessions) {
  await db.transaction(async (tx) => {
    const [row] = await tx.select({ accessions: studies.accessions }).from(studies).where(eq(studies.id, studyRowId)).for('update');
    if (!row) return;
    await tx.update(studies).set({ accessions: change(asAccessions(row.accessions)) }).where(eq(studies.id, studyRowId));
  });
}

const merge = (a: StudyAccessions, repo: Repository, values: Record<string, unknown>): StudyAccessions => ({
  ...a,
  [repo]: { ...(a[repo] ?? {}), ...values },
});

class Rejected extends Error {}

/** The `study.submit` job: an ENA PROJECT (added once, modified afterwards) or a Zenodo deposition with the study's files. */
export async function runStudySubmission(deps: { db: Db; logger: Logger; baseUrl: string } & StudyClients, submissionId: string) {
  const { db } = deps;
  const sub = await beginAttempt(db, submissionId);
  if (!sub || !sub.studyRowId) return;
  const [study] = await db.select().from(studies).where(eq(studies.id, sub.studyRowId));
  if (!study) {
    await finishSubmission(db, submissionId, { status: 'rejected', error: 'The study no longer exists.' });
    return;
  }
  try {
    const accessions =
      sub.repository === 'ena'
        ? await submitToEna(deps, deps.ena(), submissionId, study, sub.progress as Record<string, unknown>)
        : await submitToZenodo(deps, deps.zenodo(), submissionId, study, sub.progress as Record<string, unknown>);
    await finishSubmission(db, submissionId, { status: 'accepted', accessions });
  } catch (err) {
    const [fresh] = await db.select({ attempts: submissions.attempts }).from(submissions).where(eq(submissions.id, submissionId));
    const message = err instanceof Error ? err.message : String(err);
    if (err instanceof Rejected || (err instanceof RepositoryError && !('transient' in err && err.transient))) {
      await finishSubmission(db, submissionId, { status: 'rejected', error: message });
      return;
    }
    if ((fresh?.attempts ?? 0) >= MAX_ATTEMPTS) {
      await finishSubmission(db, submissionId, { status: 'rejected', error: `${sub.repository} could not be reached: ${message}` });
      return;
    }
    deps.logger.warn({ err, submission_id: submissionId }, 'study submission will be retried');
    throw err;
  }
}

function projectAccession(receipt: EnaReceipt, alias: string): { accession?: string; status?: string; holdUntilDate?: string } {
  const p = receipt.byAlias.PROJECT?.[alias] ?? receipt.byAlias.STUDY?.[alias];
  return { accession: p?.accession, status: p?.status, holdUntilDate: p?.holdUntilDate };
}

async function submitToEna(
  deps: { db: Db },
  client: EnaClient,
  submissionId: string,
  study: StudyRow,
  progress: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const values = study.components.study?.[0] ?? {};
  // stable per account: the same study is always the same ENA object
  const alias = `${study.profileId}:${study.studyId}`;
  const existing = asAccessions(study.accessions).ena?.study;
  const spec = {
    alias,
    name: values.project_name || values.title || study.studyId,
    title: values.title || values.project_name || study.studyId,
    description: values.description || values.title || study.studyId,
  };
  let result: { accession?: string; status?: string; holdUntilDate?: string } = {};
  if (typeof existing === 'string' && existing) {
    const receipt = await client.submit({ submission: { actions: [{ type: 'MODIFY' }] }, projects: [spec] });
    await recordProgress(deps.db, submissionId, { receipt: { kind: 'MODIFY', success: receipt.success, errors: receipt.errors } });
    if (!receipt.success) throw new Rejected(`Couldn't update the study at ENA: ${receipt.errors.join(' ')}`);
    result = { ...projectAccession(receipt, alias), accession: existing };
  } else {
    if (progress.sent === alias) {
      // an earlier run sent the ADD and died before recording the answer: ask for it
      const receipt = await client.fetchReceipt(alias);
      await recordProgress(deps.db, submissionId, { receipt: { kind: 'RECEIPT', success: receipt.success, errors: receipt.errors } });
      result = projectAccession(receipt, alias);
    }
    if (!result.accession) {
      await recordProgress(deps.db, submissionId, { progress: { sent: alias } });
      const receipt = await client.submit({ submission: { actions: [{ type: 'ADD' }] }, projects: [spec] });
      await recordProgress(deps.db, submissionId, {
        receipt: { kind: 'ADD', success: receipt.success, submission: receipt.submission?.accession, errors: receipt.errors, infos: receipt.infos },
      });
      if (receipt.outcome === 'alias_exists') {
        result = projectAccession(await client.fetchReceipt(alias), alias);
      } else if (!receipt.success) {
        throw new Rejected(`Couldn't register STUDY due to the following errors: ${receipt.errors.join(' ')}`);
      } else {
        result = projectAccession(receipt, alias);
      }
    }
  }
  if (!result.accession) throw new Rejected('ENA returned no accession for the study.');
  const ena = { study: result.accession, state: result.status ?? 'PRIVATE', release_date: result.holdUntilDate ?? '' };
  await saveAccessions(deps.db, study.id, (a) => merge(a, 'ena', ena));
  return ena;
}

function creatorsOf(study: StudyRow): ZenodoCreator[] {
  const people = (study.components.person ?? [])
    .filter((p) => p.familyName || p.givenName)
    .map((p) => ({
      name: [p.familyName, p.givenName].filter(Boolean).join(', '),
      ...(p.affiliation && { affiliation: p.affiliation }),
      ...(p.orcid_id && { orcid: p.orcid_id.replace(/^https?:\/\/orcid\.org\//, '') }),
    }));
  return people.length ? people : [{ name: 'Research Metadata Broker' }];
}

async function submitToZenodo(
  deps: { db: Db; baseUrl: string },
  client: ZenodoClient,
  submissionId: string,
  study: StudyRow,
  progress: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const values = study.components.study?.[0] ?? {};
  const metadata = {
    upload_type: 'dataset' as const,
    title: values.title || values.project_name || study.studyId,
    description: values.description || values.title || study.studyId,
    creators: creatorsOf(study),
    access_right: 'open' as const,
    license: 'cc-zero',
    keywords: [study.studyId, study.schemaName],
  };
  const own = asAccessions(study.accessions).zenodo ?? {};
  let depositionId = str(progress.deposition_id) || str(own.study);
  let deposition;
  if (depositionId) {
    deposition = await client.getDeposition(depositionId);
    // a published record cannot change: a new version carries the change
    if (deposition.state === 'done') deposition = await client.newVersion(depositionId);
  } else {
    deposition = await client.createDeposition(metadata);
  }
  depositionId = String(deposition.id);
  await recordProgress(deps.db, submissionId, { progress: { deposition_id: depositionId }, receipt: { kind: 'deposition', success: true, deposition: depositionId } });
  deposition = await client.updateMetadata(depositionId, metadata);
  const def = await getChecklistDefinition(deps.db, study.schemaName, study.checklistId);
  const workbook = await writeStudyWorkbook(def, study.components);
  await client.uploadFile(deposition, `${study.studyId}.xlsx`, new Uint8Array(workbook));
  const zenodo = { study: depositionId, state: deposition.state, doi: deposition.doi ?? '' };
  await saveAccessions(deps.db, study.id, (a) => merge(a, 'zenodo', zenodo));
  return { ...zenodo, deposition_id: depositionId };
}

/** Per study and repository: what the status endpoint answers (api-behaviour.md §3.3.5, "Sensible"). */
export async function studySubmissionStatus(db: Db, user: UserRecord, scope: StudyActionScope & { repository: Repository }) {
  const study = await getStudy(db, user, scope);
  const state = await stateOf(db, study, scope.repository);
  const [latest] = await db
    .select()
    .from(submissions)
    .where(and(eq(submissions.studyRowId, study.id), eq(submissions.repository, scope.repository)))
    .orderBy(desc(submissions.createdAt))
    .limit(1);
  return {
    study_id: study.studyId,
    repository: scope.repository,
    status: state.status,
    state: latest ? (latest.status === 'pending' ? 'queued' : latest.status === 'processing' ? 'sending' : latest.status) : 'not_submitted',
    accession: state.accession,
    ...(state.doi && { doi: state.doi }),
    error: state.error,
    ...(latest && { submission_id: latest.id, updated: latest.updatedAt.toISOString() }),
  };
}

/** The accession rows of api-behaviour.md §3.3.6, one per repository the study goes to (or the one asked for). */
export async function studyAccessions(db: Db, user: UserRecord, scope: StudyActionScope & { repository: Repository | null }) {
  const study = await getStudy(db, user, scope);
  const targets = (await targetsOf(db, study)).filter((r) => !scope.repository || r === scope.repository);
  const states = await repositoryStates(db, [study], () => targets);
  const own = asAccessions(study.accessions);
  return targets.map((repo) => {
    const s = states.get(study.id)?.get(repo);
    const extra = own[repo] ?? {};
    return {
      study_id: study.studyId,
      repository: repo,
      [`study_status_${repo}`]: s?.status ?? 'pending',
      [`study_accession_${repo}`]: s?.accession ?? '',
      [`study_error_${repo}`]: s?.error ?? '',
      ...(repo === 'ena'
        ? { state_ena: str(extra.state), release_date_ena: str(extra.release_date) }
        : { state_zenodo: str(extra.state), doi_zenodo: str(extra.doi) }),
    };
  });
}

/**
 * ENA: releases the held project now, or moves its hold date; Zenodo: publishes the deposition (DOI). Synchronous:
 * the repository answers in one call.
 */
export async function publishStudy(
  deps: { db: Db } & StudyClients,
  user: UserRecord,
  scope: StudyActionScope & { repository: Repository; holdUntil?: string },
) {
  const { db } = deps;
  const study = await getStudy(db, user, scope);
  if (!(await targetsOf(db, study)).includes(scope.repository)) throw Conflict(`Repository ${scope.repository} is not supported for study submission!`);
  const state = await stateOf(db, study, scope.repository);
  if (state.status === 'processing') throw Conflict('Submission is in progress, please wait until it is completed!');
  if (state.status === 'published') throw Conflict('Submission is already published!');
  if (state.status === 'rejected') throw Conflict('Submission is rejected, please fix the errors and resubmit!');
  if (!state.accession) throw Conflict('Please do the submission first!');
  const own = asAccessions(study.accessions);

  if (scope.repository === 'ena') {
    if (scope.holdUntil && !/^\d{4}-\d{2}-\d{2}$/.test(scope.holdUntil)) throw Invalid("'hold_until' must be a date YYYY-MM-DD");
    if (!scope.holdUntil && str(own.ena?.state) === 'PUBLIC') throw Conflict(`Study ${study.studyId} is already released. No action taken.`);
    const client = deps.ena();
    const receipt = scope.holdUntil ? await client.hold(state.accession, scope.holdUntil) : await client.release(state.accession);
    if (!receipt.success) throw Conflict(`Couldn't release project due to the following errors: ${receipt.errors.join(' ')}`);
    const ena = scope.holdUntil
      ? { state: 'PRIVATE', release_date: scope.holdUntil }
      : { state: 'PUBLIC', release_date: new Date().toISOString() };
    await saveAccessions(db, study.id, (a) => merge(a, 'ena', ena));
    await recordPublication(db, user, study, 'ena', 'accepted', { study: state.accession, ...ena });
    return {
      status: 'success',
      message: scope.holdUntil
        ? `Study ${study.studyId} will be released by ENA on ${scope.holdUntil}.`
        : `Study ${study.studyId} has been released successfully to ENA.`,
      accession: state.accession,
      ...ena,
    };
  }
  const published = await deps.zenodo().publish(state.accession);
  const zenodo = { study: String(published.id), state: published.state, doi: published.doi };
  await saveAccessions(db, study.id, (a) => merge(a, 'zenodo', zenodo));
  await recordPublication(db, user, study, 'zenodo', 'published', zenodo);
  return { status: 'success', message: `${study.studyId} has been published to Zenodo.`, doi: published.doi };
}

async function recordPublication(
  db: Db,
  user: UserRecord,
  study: StudyRow,
  repository: Repository,
  status: 'accepted' | 'published',
  accessions: Record<string, unknown>,
) {
  await db.insert(submissions).values({
    kind: 'study',
    repository,
    action: 'publish',
    profileId: study.profileId,
    studyRowId: study.id,
    status,
    accessions,
    createdBy: user.id,
    finishedAt: sql`now()`,
  });
}
