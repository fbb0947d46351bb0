import { eq, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { biodataSamples, biodataSampleUpdates, submissions } from '@/db/schema';
import type { Registered } from '@/lib/submissions/registration/send';
import { finishSubmission } from '@/lib/submissions/submissions';

/** What ENA answered a registration of biodata samples, written onto the samples and their submission. */

type Sample = typeof biodataSamples.$inferSelect;

/** ENA's messages about one sample: those naming its alias, else every message (a refusal of the whole document). */
function messagesFor(alias: string, messages: readonly string[]): string {
  const own = messages.filter((m) => m.includes(alias));
  return (own.length ? own : messages).join(' ');
}

/** Accessions onto the samples ENA took (with a `system` history row each), ENA's words onto those it refused. */
export async function recordOutcome(
  db: Db,
  submissionId: string,
  rows: Sample[],
  registered: Map<string, Registered>,
  refused: { rows: Sample[]; messages: readonly string[] }[],
): Promise<void> {
  await db.transaction(async (tx) => {
    const summary: Record<string, { biosampleAccession: string; sraAccession: string; alias: string }> = {};
    for (const r of rows) {
      const reg = registered.get(r.id);
      if (!reg) continue;
      const next = { biosampleAccession: reg.biosampleAccession ?? r.biosampleAccession, sraAccession: reg.accession };
      await tx
        .update(biodataSamples)
        .set({
          ...next,
          submissionAccession: reg.submissionAccession ?? null,
          status: 'accepted',
          statusDetail: null,
          timeUpdated: sql`now()`,
        })
        .where(eq(biodataSamples.id, r.id));
      const history = [
        { field: 'biosampleAccession', oldValue: r.biosampleAccession, newValue: next.biosampleAccession },
        { field: 'sraAccession', oldValue: r.sraAccession, newValue: next.sraAccession },
        { field: 'status', oldValue: r.status, newValue: 'accepted' },
      ].filter((h) => h.oldValue !== h.newValue);
      if (history.length)
        await tx.insert(biodataSampleUpdates).values(history.map((h) => ({ sampleId: r.id, updateType: 'system' as const, ...h })));
      summary[r.id] = { biosampleAccession: next.biosampleAccession ?? '', sraAccession: next.sraAccession, alias: r.alias };
    }
    for (const f of refused) for (const r of f.rows) await refuseRow(tx, r, messagesFor(r.id, f.messages));
    const refusedCount = refused.reduce((n, f) => n + f.rows.length, 0);
    await tx
      .update(submissions)
      .set({
        status: refusedCount ? 'rejected' : 'accepted',
        accessions: { samples: summary },
        error: refusedCount
          ? `ENA refused ${refusedCount} of ${rows.length} samples: ${refused.flatMap((f) => f.messages).join(' ')}`
          : null,
        finishedAt: sql`now()`,
        updatedAt: sql`now()`,
      })
      .where(eq(submissions.id, submissionId));
  });
}

/** A sample ENA refused (or whose registration gave up): refused, with the reason, its accessions kept. */
async function refuseRow(tx: Db, r: Sample, message: string): Promise<void> {
  await tx
    .update(biodataSamples)
    .set({ status: 'refused', statusDetail: message, timeUpdated: sql`now()` })
    .where(eq(biodataSamples.id, r.id));
  await tx
    .insert(biodataSampleUpdates)
    .values({ sampleId: r.id, updateType: 'system', field: 'status', oldValue: r.status, newValue: 'refused' });
}

export async function refuseAll(
  db: Db,
  submissionId: string,
  rows: Sample[],
  message: string,
  outcome: 'rejected' | 'failed',
): Promise<void> {
  await db.transaction(async (tx) => {
    for (const r of rows) await refuseRow(tx, r, message);
    await finishSubmission(tx, submissionId, { status: outcome, error: message });
  });
}
