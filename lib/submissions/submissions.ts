import { and, desc, eq, or, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { profiles, submissions } from '@/db/schema';
import { NotFound } from '@/lib/errors';
import type { UserRecord } from '@/lib/users/users';

export type SubmissionRow = typeof submissions.$inferSelect;

// A job retried this many times without an answer from the repository gives up and says why.
export const MAX_ATTEMPTS = 5;

/** Appends a receipt or answer to the submission's history and saves progress, outside any other transaction. */
export async function recordProgress(
  db: Db,
  id: string,
  change: { progress?: Record<string, unknown>; receipt?: Record<string, unknown> },
): Promise<void> {
  await db
    .update(submissions)
    .set({
      ...(change.progress && { progress: sql`${submissions.progress} || ${JSON.stringify(change.progress)}::jsonb` }),
      ...(change.receipt && {
        receipts: sql`${submissions.receipts} || ${JSON.stringify([{ at: new Date().toISOString(), ...change.receipt }])}::jsonb`,
      }),
      updatedAt: sql`now()`,
    })
    .where(eq(submissions.id, id));
}

/** Starts a run: processing, one more attempt. Returns null when the submission already ended. */
export async function beginAttempt(db: Db, id: string): Promise<SubmissionRow | null> {
  const [row] = await db
    .update(submissions)
    .set({ status: 'processing', attempts: sql`${submissions.attempts} + 1`, updatedAt: sql`now()` })
    .where(and(eq(submissions.id, id), sql`${submissions.status} in ('pending', 'processing')`))
    .returning();
  return row ?? null;
}

export async function finishSubmission(
  db: Db,
  id: string,
  outcome: { status: 'accepted' | 'rejected' | 'published'; accessions?: Record<string, unknown>; error?: string | null },
): Promise<void> {
  await db
    .update(submissions)
    .set({
      status: outcome.status,
      ...(outcome.accessions && { accessions: sql`${submissions.accessions} || ${JSON.stringify(outcome.accessions)}::jsonb` }),
      error: outcome.error ?? null,
      finishedAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(eq(submissions.id, id));
}

/** Submissions of the caller's profiles and those the caller started (a sample manager's), newest first; all for admins. */
export async function listSubmissions(db: Db, user: UserRecord, opts: { limit?: number } = {}) {
  return db
    .select({ submission: submissions, profileTitle: profiles.title })
    .from(submissions)
    .innerJoin(profiles, eq(profiles.id, submissions.profileId))
    .where(user.isAdmin ? undefined : or(eq(profiles.ownerId, user.id), eq(submissions.createdBy, user.id)))
    .orderBy(desc(submissions.createdAt))
    .limit(opts.limit ?? 200);
}

export async function getSubmission(db: Db, user: UserRecord, id: string) {
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw NotFound('Submission not found');
  const [row] = await db
    .select({ submission: submissions, profileTitle: profiles.title, ownerId: profiles.ownerId })
    .from(submissions)
    .innerJoin(profiles, eq(profiles.id, submissions.profileId))
    .where(eq(submissions.id, id.toLowerCase()));
  if (!row || (row.ownerId !== user.id && !user.isAdmin && row.submission.createdBy !== user.id)) throw NotFound('Submission not found');
  return row;
}

export function submissionJson(s: SubmissionRow, profileTitle?: string) {
  return {
    submission_id: s.id,
    kind: s.kind,
    repository: s.repository,
    action: s.action,
    profile_id: s.profileId,
    ...(profileTitle !== undefined && { profile_title: profileTitle }),
    status: s.status,
    samples: s.sampleIds.length,
    accessions: s.accessions,
    receipts: s.receipts,
    attempts: s.attempts,
    error: s.error,
    created: s.createdAt.toISOString(),
    updated: s.updatedAt.toISOString(),
    finished: s.finishedAt?.toISOString() ?? null,
  };
}
