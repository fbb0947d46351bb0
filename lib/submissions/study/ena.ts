import { getChecklistDefinition } from '@/lib/checklists/definitions';
import { crashPoint } from '@/lib/crash-points';
import type { EnaClient, EnaReceipt } from '@/lib/repositories/ena';
import type { StudyRow } from '@/lib/studies';
import type { SubmissionAccessions, SubmissionProgress } from '@/lib/submissions/contract';
import { addReceipt, recordProgress } from '../submissions';
import { merge, saveAccessions } from './accessions';
import { planReads, type ReadsDeps, submitReads } from './ena-reads';
import { Rejected } from './rejected';

function projectAccession(receipt: EnaReceipt, alias: string): { accession?: string; status?: string; holdUntilDate?: string } {
  const p = receipt.byAlias.PROJECT?.[alias] ?? receipt.byAlias.STUDY?.[alias];
  return { accession: p?.accession, status: p?.status, holdUntilDate: p?.holdUntilDate };
}

/**
 * A study at ENA: its read files checked first (nothing is sent when one is missing or not what the sheet says),
 * then the PROJECT (added once, modified afterwards), then the reads' EXPERIMENTs and RUNs.
 */
export async function submitToEna(
  deps: ReadsDeps,
  client: EnaClient,
  submissionId: string,
  study: StudyRow,
  progress: SubmissionProgress,
): Promise<SubmissionAccessions> {
  const def = await getChecklistDefinition(deps.db, study.schemaName, study.checklistId);
  const reads = await planReads(deps, submissionId, def, study, progress);
  const project = await registerProject(deps, client, submissionId, study, progress);
  if (!reads.add.length && !reads.modify.length && !reads.unchanged.length) return project;
  const runs = await submitReads(deps, client, submissionId, study, project.study, reads, progress);
  return { ...project, runs };
}

/** The study's PROJECT: ADD once (resumed through RECEIPT after a lost answer), MODIFY once it has an accession. */
async function registerProject(
  deps: Pick<ReadsDeps, 'db'>,
  client: EnaClient,
  submissionId: string,
  study: StudyRow,
  progress: SubmissionProgress,
): Promise<{ study: string; state: string; release_date: string }> {
  const values = study.components.study?.[0] ?? {};
  // stable per account: the same study is always the same ENA object
  const alias = `${study.profileId}:${study.studyId}`;
  const existing = study.accessions.ena?.study;
  const spec = {
    alias,
    name: values.project_name || values.title || study.studyId,
    title: values.title || values.project_name || study.studyId,
    description: values.description || values.title || study.studyId,
  };
  let result: { accession?: string; status?: string; holdUntilDate?: string } = {};
  if (typeof existing === 'string' && existing) {
    const receipt = await client.submit({ submission: { actions: [{ type: 'MODIFY' }] }, projects: [spec] });
    await recordProgress(deps.db, submissionId, {
      receipt: { kind: 'MODIFY', success: receipt.success, errors: receipt.errors, xml: receipt.xml },
    });
    if (!receipt.success) throw new Rejected(`Couldn't update the study at ENA: ${receipt.errors.join(' ')}`);
    result = { ...projectAccession(receipt, alias), accession: existing };
  } else {
    if (progress.sent === alias) {
      // an earlier run sent the ADD and died before recording the answer: ask for it
      const receipt = await client.fetchReceipt(alias);
      await recordProgress(deps.db, submissionId, {
        receipt: { kind: 'RECEIPT', success: receipt.success, errors: receipt.errors, xml: receipt.xml },
      });
      result = projectAccession(receipt, alias);
    }
    if (!result.accession) {
      await recordProgress(deps.db, submissionId, { progress: { sent: alias } });
      const receipt = await client.submit({ submission: { actions: [{ type: 'ADD' }] }, projects: [spec] });
      await crashPoint('study-ena:project-added');
      await recordProgress(deps.db, submissionId, {
        receipt: addReceipt(receipt),
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
