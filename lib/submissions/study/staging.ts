import type { Db } from '@/db/client';
import type { ChecklistDefinition } from '@/lib/checklists/definitions';
import type { FileStore } from '@/lib/files/store';
import type { UploadArea } from '@/lib/repositories/ena';
import { RepositoryRefused } from '@/lib/repositories/errors';
import type { StudyRow } from '@/lib/studies';
import type { ReadAccessions } from '@/lib/studies/contract';
import type { SubmissionProgress } from '@/lib/submissions/contract';
import { checkStoredFile } from './data-files';
import { filesProgress, PROGRESS_INTERVAL_MS, recordFileProgress } from './file-progress';
import { areaPathOf, type ReadRow, readRowsOf } from './read-rows';

/**
 * Before a study's reads and annotations reach ENA: which rows go (new, changed, or already there as they are), every
 * file they name checked against the sheet's MD5, then the files staged into the Webin upload area, each once per
 * submission (a run that died part-way skips the files an earlier run sent whole).
 */

/** A data file of a study row: its name in the profile's storage and the MD5 the sheet gives it. */
export interface DataFile {
  name: string;
  md5: string;
}

/** The files of these rows, each once. */
export const filesOf = (rows: readonly { files: readonly DataFile[] }[]): DataFile[] => [
  ...new Map(rows.flatMap((r) => r.files.map((f) => [f.name, f] as const))).values(),
];

export interface ReadsDeps {
  db: Db;
  files: FileStore;
  uploadArea: () => UploadArea;
}

export const rowAccessions = (study: StudyRow): Record<string, ReadAccessions> => study.accessions.ena?.file ?? {};

export interface ReadsPlan {
  add: ReadRow[];
  modify: ReadRow[];
  /** rows already at ENA as they are */
  unchanged: ReadRow[];
}

/**
 * Which rows go to ENA this time, with every file they name checked against the sheet's MD5 (the store's own
 * checksum, or the bytes themselves), before anything is sent anywhere.
 */
export async function planReads(
  deps: ReadsDeps,
  submissionId: string,
  def: ChecklistDefinition,
  study: StudyRow,
  progress: SubmissionProgress,
): Promise<ReadsPlan> {
  const rows = readRowsOf(def, study);
  const known = rowAccessions(study);
  const plan: ReadsPlan = { add: [], modify: [], unchanged: [] };
  for (const r of rows) {
    const at = known[r.fileId];
    if (!at) plan.add.push(r);
    else if (at.digest !== r.digest) plan.modify.push(r);
    else plan.unchanged.push(r);
  }
  await checkFiles(deps, submissionId, study.profileId, filesOf([...plan.add, ...plan.modify]), progress);
  return plan;
}

/** Every file checked against the sheet's MD5 before anything is sent, its state kept on the submission. */
export async function checkFiles(
  deps: ReadsDeps,
  submissionId: string,
  profileId: string,
  files: readonly DataFile[],
  progress: SubmissionProgress,
): Promise<void> {
  // files an earlier run of this submission staged, checked then, keep their state: they are not sent again
  const staged = stagedFiles(progress);
  for (const f of files) {
    if (staged.get(f.name) === f.md5) continue;
    await recordFileProgress(deps.db, submissionId, f.name, { state: 'checking', sent: 0 });
    const stored = await checkStoredFile(deps.files, profileId, f.name, f.md5).catch(async (err: unknown) => {
      await recordFileProgress(deps.db, submissionId, f.name, { state: 'failed', error: (err as Error).message });
      throw err;
    });
    await recordFileProgress(deps.db, submissionId, f.name, { state: 'waiting', size: stored.sizeInBytes, md5: f.md5 });
  }
}

/** The files an earlier run of this submission sent whole into the upload area, with the MD5 they were sent with. */
export function stagedFiles(progress: SubmissionProgress): Map<string, string> {
  const staged = new Map<string, string>();
  for (const [name, p] of Object.entries(filesProgress(progress))) {
    if (p.state === 'sent' && p.md5) staged.set(name, p.md5);
  }
  return staged;
}

/** Sends files into the upload area, skipping those an earlier run of this submission sent. */
export async function stageFiles(
  deps: ReadsDeps,
  submissionId: string,
  study: StudyRow,
  files: readonly DataFile[],
  alreadySent: Map<string, string>,
) {
  const waiting = files.filter((f) => alreadySent.get(f.name) !== f.md5);
  if (!waiting.length) return;
  const area = deps.uploadArea();
  try {
    for (const f of waiting) {
      const stored = await deps.files.stat(study.profileId, f.name);
      if (!stored) throw new RepositoryRefused('ena', `File ${f.name} is no longer in the profile's storage.`);
      await recordFileProgress(deps.db, submissionId, f.name, { state: 'sending', sent: 0, size: stored.sizeInBytes });
      let last = 0;
      const pending: Promise<void>[] = [];
      await area.send(
        areaPathOf(study.profileId, f.name),
        stored.sizeInBytes,
        () => deps.files.read(study.profileId, f.name),
        (p) => {
          if (Date.now() - last < PROGRESS_INTERVAL_MS) return;
          last = Date.now();
          pending.push(recordFileProgress(deps.db, submissionId, f.name, { sent: p.sent }));
        },
      );
      await Promise.all(pending);
      await recordFileProgress(deps.db, submissionId, f.name, { state: 'sent', sent: stored.sizeInBytes });
    }
  } finally {
    area.close();
  }
}
