import { eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { studies } from '@/db/schema';
import type { StudyAccessions } from '@/lib/studies/contract';
import type { Repository } from '@/lib/submissions/contract';

/** The study's own accessions are written without touching updated_at: it is the study's data, not a change by the user. */
export async function saveAccessions(db: Db, studyRowId: string, change: (a: StudyAccessions) => StudyAccessions) {
  await db.transaction(async (tx) => {
    const [row] = await tx.select({ accessions: studies.accessions }).from(studies).where(eq(studies.id, studyRowId)).for('update');
    if (!row) return;
    await tx
      .update(studies)
      .set({ accessions: change(row.accessions) })
      .where(eq(studies.id, studyRowId));
  });
}

export const merge = <R extends Repository>(a: StudyAccessions, repo: R, values: NonNullable<StudyAccessions[R]>): StudyAccessions => ({
  ...a,
  [repo]: { ...a[repo], ...values },
});
