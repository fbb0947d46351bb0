import type { Db } from '@/db/client';
import { crashPoint } from '@/lib/crash-points';
import { type EnaClient, type ExperimentSpec, type OnceResult, type RunSpec, sendOnce } from '@/lib/repositories/ena';
import { RepositoryRefused } from '@/lib/repositories/errors';
import type { StudyRow } from '@/lib/studies';
import type { ReadAccessions } from '@/lib/studies/contract';
import type { SubmissionProgress } from '@/lib/submissions/contract';
import { enaLedger } from '../ledger';
import { saveAccessions } from './accessions';
import { areaPathOf, type ReadRow } from './read-rows';
import { filesOf, type ReadsDeps, type ReadsPlan, rowAccessions, stagedFiles, stageFiles } from './staging';

/**
 * Reads at ENA (docs/studies-and-checklists.md §11.2–11.3): the plan's files staged (./staging.ts), then an
 * EXPERIMENT and a RUN for each new row (ADD) and each changed one (MODIFY), sent exactly once
 * (lib/repositories/ena/once.ts) in documents of at most ROWS_PER_SUBMISSION rows.
 */

export type { ReadsDeps } from './staging';
export { planReads } from './staging';

// rows per Webin submission: few enough for the size and time ENA allows a synchronous submit (docs/repositories.md,
// Limits)
const ROWS_PER_SUBMISSION = 200;

const specsOf = (profileId: string, project: string, rows: ReadRow[]): { experiments: ExperimentSpec[]; runs: RunSpec[] } => ({
  experiments: rows.map((r) => ({ ...r.experiment, alias: r.experimentAlias, study: { accession: project } })),
  runs: rows.map((r) => ({
    alias: r.runAlias,
    title: r.experiment.title,
    experiment: { refname: r.experimentAlias },
    files: r.files.map((f) => ({
      filename: areaPathOf(profileId, f.name),
      filetype: f.filetype,
      checksum: f.md5,
      checksumMethod: 'MD5' as const,
    })),
  })),
});

async function saveRows(db: Db, study: StudyRow, rows: Map<string, ReadAccessions>) {
  if (!rows.size) return;
  await saveAccessions(db, study.id, (a) => {
    const byRow = { ...a.ena?.file };
    for (const [id, v] of rows) byRow[id] = v;
    return { ...a, ena: { ...a.ena, file: byRow } };
  });
}

const accessionsOf = (r: ReadRow, result: OnceResult): ReadAccessions => {
  const experiment = result.objects[r.experimentAlias]?.accession;
  const run = result.objects[r.runAlias]?.accession;
  if (!experiment || !run) throw new RepositoryRefused('ena', `ENA returned no run accession for ${r.fileId}.`);
  return { experiment_accession: experiment, run_accession: run, digest: r.digest };
};

/**
 * Stages the files, then ADDs an EXPERIMENT and a RUN for each new row and MODIFYs the changed ones. Returns the
 * accessions of every row now at ENA, by row identifier.
 */
export async function submitReads(
  deps: ReadsDeps,
  client: EnaClient,
  submissionId: string,
  study: StudyRow,
  projectAccession: string,
  plan: ReadsPlan,
  progress: SubmissionProgress,
): Promise<Record<string, ReadAccessions>> {
  await stageFiles(deps, submissionId, study, filesOf([...plan.add, ...plan.modify]), stagedFiles(progress));
  await crashPoint('study-ena:files-staged');

  const ledger = enaLedger(deps.db, submissionId, progress, 'reads', 'reads');
  const known = rowAccessions(study);
  const done = new Map<string, ReadAccessions>();
  for (const [action, rows] of [
    ['ADD', plan.add],
    ['MODIFY', plan.modify],
  ] as const) {
    for (let i = 0; i < rows.length; i += ROWS_PER_SUBMISSION) {
      const chunk = rows.slice(i, i + ROWS_PER_SUBMISSION);
      const byId = new Map(chunk.map((r) => [r.fileId, r]));
      const sent = await sendOnce(client, ledger, {
        action,
        items: chunk.map((r) => ({
          key: r.fileId,
          objects: [
            { type: 'EXPERIMENT' as const, alias: r.experimentAlias },
            { type: 'RUN' as const, alias: r.runAlias },
          ],
        })),
        document: (items) =>
          specsOf(
            study.profileId,
            projectAccession,
            items.flatMap((it) => byId.get(it.key) ?? []),
          ),
        crashPoint: 'study-ena:runs-added',
      }).catch((err: unknown) => {
        if (!(err instanceof RepositoryRefused)) throw err;
        const ids = chunk.map((r) => r.fileId).join(', ');
        throw new RepositoryRefused(
          'ena',
          action === 'ADD'
            ? `Submission error for datafiles: ${ids} due to the following errors: ${err.message}`
            : `Couldn't update the runs ${ids} at ENA: ${err.message}`,
        );
      });
      const saved = new Map<string, ReadAccessions>();
      for (const r of chunk) {
        const result = sent.get(r.fileId);
        // a MODIFY keeps the row's accessions; an ADD's answer carries them
        const accessions = result ? accessionsOf(r, result) : undefined;
        const kept = known[r.fileId];
        const row = accessions ?? (kept ? { ...kept, digest: r.digest } : undefined);
        if (!row) throw new RepositoryRefused('ena', `ENA returned no run accession for ${r.fileId}.`);
        saved.set(r.fileId, row);
        done.set(r.fileId, row);
      }
      await saveRows(deps.db, study, saved);
    }
  }
  for (const r of plan.unchanged) {
    const kept = known[r.fileId];
    if (!kept) throw new Error(`expected the ENA accessions of row ${r.fileId}`);
    done.set(r.fileId, kept);
  }
  return Object.fromEntries(done);
}
