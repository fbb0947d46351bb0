import { eq, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { submissions } from '@/db/schema';
import type { FileProgress, SubmissionProgress } from '@/lib/submissions/contract';

/**
 * Where each data file of a study submission stands, kept in `submissions.progress.files` by file name so the
 * status endpoint can show it while the job runs: checked against the sheet's checksum, then sent (to the Webin
 * upload area or the Zenodo bucket), byte by byte.
 */
/**
 * The files part of a submission's progress. Each entry is merged from patches (recordFileProgress), and the first
 * (`checking`) carries no size, so the counts are 0 until recorded.
 */
export function filesProgress(progress: SubmissionProgress): Record<string, FileProgress> {
  const out: Record<string, FileProgress> = {};
  for (const [name, p] of Object.entries(progress.files ?? {})) out[name] = { ...p, size: p.size ?? 0, sent: p.sent ?? 0 };
  return out;
}

/** Merges one file's progress into the submission, leaving the other files and progress keys as they are. */
export async function recordFileProgress(db: Db, submissionId: string, fileName: string, patch: Partial<FileProgress>) {
  await db
    .update(submissions)
    .set({
      progress: sql`jsonb_set(
        case when jsonb_typeof(${submissions.progress} -> 'files') = 'object' then ${submissions.progress}
             else ${submissions.progress} || '{"files": {}}'::jsonb end,
        array['files', ${fileName}::text],
        coalesce(${submissions.progress} -> 'files' -> ${fileName}::text, '{}'::jsonb) || ${JSON.stringify(patch)}::jsonb
      )`,
      updatedAt: sql`now()`,
    })
    .where(eq(submissions.id, submissionId));
}

/** How often, at most, a file being sent records how far it got: often enough for a progress bar, rarely enough for the database. */
export const PROGRESS_INTERVAL_MS = 1_000;
