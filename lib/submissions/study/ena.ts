import { eq } from 'drizzle-orm';
import { profiles } from '@/db/schema';
import { getChecklistDefinition } from '@/lib/checklists/definitions';
import { type EnaClient, sendOnce } from '@/lib/repositories/ena';
import { RepositoryRefused } from '@/lib/repositories/errors';
import type { StudyRow } from '@/lib/studies';
import type { SubmissionAccessions, SubmissionProgress } from '@/lib/submissions/contract';
import { enaLedger } from '../ledger';
import { merge, saveAccessions } from './accessions';
import { planAnnotations, submitAnnotations } from './ena-annotations';
import { type AssemblyDeps, planAssemblies, submitAssemblies } from './ena-assemblies';
import { planReads, submitReads } from './ena-reads';

/**
 * A study at ENA: its data files checked first (nothing is sent when one is missing or not what the sheet says),
 * then the PROJECT (added once, modified afterwards), the reads' EXPERIMENTs and RUNs, the sequence annotations'
 * ANALYSes, and the assemblies through Webin-CLI.
 */
export async function submitToEna(
  deps: AssemblyDeps,
  client: EnaClient,
  submissionId: string,
  study: StudyRow,
  progress: SubmissionProgress,
): Promise<SubmissionAccessions> {
  const def = await getChecklistDefinition(deps.db, study.schemaName, study.checklistId);
  const reads = await planReads(deps, submissionId, def, study, progress);
  const annotations = await planAnnotations(deps, submissionId, def, study, progress);
  const assemblies = await planAssemblies(deps, submissionId, def, study, progress);
  const project = await registerProject(deps, client, submissionId, study, progress);
  const hasReads = reads.add.length + reads.modify.length + reads.unchanged.length > 0;
  const runs = hasReads ? await submitReads(deps, client, submissionId, study, project.study, reads, progress) : {};
  // annotations and assemblies may name read rows sent before this submission
  const allRuns = { ...study.accessions.ena?.file, ...runs };
  const analyses = await submitAnnotations(deps, client, submissionId, study, project.study, allRuns, annotations, progress);
  const assembled = await submitAssemblies(deps, submissionId, study, project.study, allRuns, assemblies);
  return {
    ...project,
    ...(hasReads && { runs }),
    ...(Object.keys(analyses).length && {
      analyses: Object.fromEntries(Object.entries(analyses).map(([k, v]) => [k, v.analysis_accession])),
    }),
    ...(Object.keys(assembled).length && {
      assemblies: Object.fromEntries(Object.entries(assembled).map(([k, v]) => [k, v.assembly_accession || v.waiting || v.error || ''])),
    }),
  };
}

/**
 * The study's PROJECT, sent exactly once (lib/repositories/ena/once.ts): ADD the first time, MODIFY once it has an
 * accession. A study is always the same ENA object: its alias is stable per account.
 */
async function registerProject(
  deps: Pick<AssemblyDeps, 'db'>,
  client: EnaClient,
  submissionId: string,
  study: StudyRow,
  progress: SubmissionProgress,
): Promise<{ study: string; state: string; release_date: string }> {
  const values = study.components.study?.[0] ?? {};
  const alias = `${study.profileId}:${study.studyId}`;
  const existing = study.accessions.ena?.study;
  // the profile's locus-tag prefixes are registered on the project, which its annotated genomes then name genes by
  const [profile] = await deps.db.select({ tags: profiles.enaLocusTags }).from(profiles).where(eq(profiles.id, study.profileId));
  const spec = {
    alias,
    name: values.project_name || values.title || study.studyId,
    title: values.title || values.project_name || study.studyId,
    description: values.description || values.title || study.studyId,
    ...(profile?.tags.length && { locusTagPrefixes: profile.tags }),
  };
  const modify = typeof existing === 'string' && existing !== '';
  const sent = await sendOnce(client, enaLedger(deps.db, submissionId, progress, 'project'), {
    action: modify ? 'MODIFY' : 'ADD',
    items: [{ key: alias, objects: [{ type: 'PROJECT', alias }] }],
    document: () => ({ projects: [spec] }),
    crashPoint: 'study-ena:project-added',
  }).catch((err: unknown) => {
    if (!(err instanceof RepositoryRefused)) throw err;
    throw new RepositoryRefused(
      'ena',
      `${modify ? "Couldn't update the study at ENA" : "Couldn't register STUDY due to the following errors"}: ${err.message}`,
    );
  });
  const project = sent.get(alias)?.objects[alias];
  const accession = modify ? existing : project?.accession;
  if (!accession) throw new RepositoryRefused('ena', 'ENA returned no accession for the study.');
  const ena = { study: accession, state: project?.status ?? 'PRIVATE', release_date: project?.holdUntilDate ?? '' };
  await saveAccessions(deps.db, study.id, (a) => merge(a, 'ena', ena));
  return ena;
}
