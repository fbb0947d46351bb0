import { and, desc, eq, getTableColumns, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { pageWithTotal } from '@/db/rows';
import { profiles, submissions } from '@/db/schema';
import { NotFound } from '@/lib/errors';
import { isUuid } from '@/lib/identifiers/contract';
import { visibleProfiles } from '@/lib/profiles/access';
import type { EnaReceipt } from '@/lib/repositories/ena/receipt';
import type { UserRecord } from '@/lib/users/users';
import type { Receipt, Submission, SubmissionAccessions, SubmissionProgress } from './contract';

export type SubmissionRow = typeof submissions.$inferSelect;

/** Appends a receipt or answer to the submission's history and saves progress, outside any other transaction. */
export async function recordProgress(
  db: Db,
  id: string,
  change: { progress?: SubmissionProgress; receipt?: Omit<Receipt, 'at'> },
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

/** ENA's answer to an ADD (or a MODIFY), as the submission's history keeps it (the receipt's XML served as received). */
export const addReceipt = (
  receipt: Pick<EnaReceipt, 'success' | 'submission' | 'errors' | 'infos' | 'xml'>,
  about: Pick<Receipt, 'objects'> = {},
  kind: 'ADD' | 'MODIFY' = 'ADD',
): Omit<Receipt, 'at'> => ({
  kind,
  ...about,
  success: receipt.success,
  submission: receipt.submission?.accession,
  errors: receipt.errors,
  infos: receipt.infos,
  xml: receipt.xml,
});

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
  outcome: { status: 'accepted' | 'rejected' | 'published' | 'failed'; accessions?: SubmissionAccessions; error?: string | null },
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

/**
 * The give-up of a submission's job: still open, it is marked failed with the reason; nothing else waits for it,
 * and a new submission of the same thing is accepted.
 */
export async function failSubmission(db: Db, id: string, reason: string): Promise<boolean> {
  const rows = await db
    .update(submissions)
    .set({ status: 'failed', error: reason, finishedAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(submissions.id, id), sql`${submissions.status} in ('pending', 'processing')`))
    .returning({ id: submissions.id });
  return rows.length > 0;
}

/**
 * Who may see a submission: whoever may see its profile (lib/profiles/access.ts), a sample manager of the project
 * for sample registrations of that project's profiles, and admins.
 */
const visibleTo = (db: Db, user: UserRecord) =>
  user.isAdmin
    ? undefined
    : or(
        visibleProfiles(db, user),
        user.managerOf.length ? and(eq(submissions.kind, 'samples'), inArray(profiles.type, user.managerOf)) : undefined,
      );

// read everywhere but the receipt's own download: each receipt without its XML (a registration's receipt names every
// sample), with whether it has one, in the receipts' order
const { receipts: _receipts, ...plainColumns } = getTableColumns(submissions);
type ListedReceipt = Omit<Receipt, 'xml'> & { has_xml: boolean };
const listedColumns = {
  ...plainColumns,
  receipts: sql<
    ListedReceipt[]
  >`(select coalesce(jsonb_agg((r.e - 'xml') || jsonb_build_object('has_xml', r.e ? 'xml') order by r.i), '[]'::jsonb)
    from jsonb_array_elements(${submissions.receipts}) with ordinality as r(e, i))`,
};
type ListedSubmission = Omit<SubmissionRow, 'receipts'> & { receipts: ListedReceipt[] };

/** A page of the submissions the caller may see, newest first, with the true total. */
export async function listSubmissions(db: Db, user: UserRecord, page: { limit: number; offset: number }) {
  const where = visibleTo(db, user);
  const list = db
    .select({ submission: listedColumns, profileTitle: profiles.title })
    .from(submissions)
    .innerJoin(profiles, eq(profiles.id, submissions.profileId))
    .where(where)
    .$dynamic();
  return pageWithTotal(db, list, [desc(submissions.createdAt), desc(submissions.id)], page);
}

export async function getSubmission(db: Db, user: UserRecord, id: string) {
  if (!isUuid(id)) throw NotFound('Submission not found');
  const [row] = await db
    .select({ submission: listedColumns, profileTitle: profiles.title })
    .from(submissions)
    .innerJoin(profiles, eq(profiles.id, submissions.profileId))
    .where(and(eq(submissions.id, id.toLowerCase()), visibleTo(db, user)));
  if (!row) throw NotFound('Submission not found');
  return row;
}

/**
 * ENA's RECEIPT document of a submission's n-th answer (from 0), as received, for whoever may see the submission.
 * Answers that are not a RECEIPT (Zenodo's, or recorded before receipts were kept whole) are not found.
 */
export async function getReceiptXml(db: Db, user: UserRecord, id: string, n: number): Promise<{ xml: string; name: string }> {
  if (!isUuid(id)) throw NotFound('Submission not found');
  const [row] = await db
    .select({
      xml: sql<string | null>`${submissions.receipts} -> ${n}::int ->> 'xml'`,
      kind: sql<string | null>`${submissions.receipts} -> ${n}::int ->> 'kind'`,
    })
    .from(submissions)
    .innerJoin(profiles, eq(profiles.id, submissions.profileId))
    .where(and(eq(submissions.id, id.toLowerCase()), visibleTo(db, user)));
  if (!row) throw NotFound('Submission not found');
  if (!row.xml)
    throw NotFound(row.kind ? `Answer ${n} of this submission is not an ENA receipt kept as XML` : `This submission has no answer ${n}`);
  return { xml: row.xml, name: `receipt-${id.toLowerCase()}-${n}${row.kind ? `-${row.kind.toLowerCase()}` : ''}.xml` };
}

const receiptUrl = (id: string, n: number) => `/api/submissions/${id}/receipts/${n}`;

export function submissionJson(s: ListedSubmission, profileTitle?: string): Submission {
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
    receipts: s.receipts.map(({ has_xml, ...r }, n) => ({ ...r, ...(has_xml && { xml_url: receiptUrl(s.id, n) }) })),
    attempts: s.attempts,
    error: s.error,
    created: s.createdAt.toISOString(),
    updated: s.updatedAt.toISOString(),
    finished: s.finishedAt?.toISOString() ?? null,
  };
}
