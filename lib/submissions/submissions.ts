import { and, desc, eq, getTableColumns, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { pageWithTotal } from '@/db/rows';
import { profiles, submissionReceipts, submissions } from '@/db/schema';
import { NotFound } from '@/lib/errors';
import { isUuid } from '@/lib/identifiers/contract';
import { visibleProfiles } from '@/lib/profiles/access';
import type { EnaReceipt } from '@/lib/repositories/ena/receipt';
import type { UserRecord } from '@/lib/users/users';
import type { Receipt, Submission, SubmissionAccessions, SubmissionProgress } from './contract';

export type SubmissionRow = typeof submissions.$inferSelect;

/**
 * Saves progress and appends a receipt or answer to the submission's history, outside any other transaction. The
 * answer is a row of its own (submission_receipts): appending never rewrites the answers before it.
 */
export async function recordProgress(
  db: Db,
  id: string,
  change: { progress?: SubmissionProgress; receipt?: Omit<Receipt, 'at'> },
): Promise<void> {
  const { receipt } = change;
  await db.transaction(async (tx) => {
    await tx
      .update(submissions)
      .set({
        ...(change.progress && { progress: sql`${submissions.progress} || ${JSON.stringify(change.progress)}::jsonb` }),
        updatedAt: sql`now()`,
      })
      .where(eq(submissions.id, id));
    if (!receipt) return;
    // the row lock taken by the update above orders two writers of one submission, so the next place is free
    await tx.insert(submissionReceipts).values({
      submissionId: id,
      seq: sql`(select coalesce(max(${submissionReceipts.seq}) + 1, 0) from ${submissionReceipts} where ${submissionReceipts.submissionId} = ${id})`,
      kind: receipt.kind,
      alias: receipt.alias,
      objects: receipt.objects,
      success: receipt.success,
      submission: receipt.submission,
      errors: receipt.errors,
      infos: receipt.infos,
      deposition: receipt.deposition,
      xml: receipt.xml,
    });
  });
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
export const visibleTo = (db: Db, user: UserRecord) =>
  user.isAdmin
    ? undefined
    : or(
        visibleProfiles(db, user),
        user.managerOf.length ? and(eq(submissions.kind, 'samples'), inArray(profiles.type, user.managerOf)) : undefined,
      );

// read everywhere but the receipt's own download: each receipt without its XML (a registration's receipt names every
// sample), with whether it has one, in the receipts' order. Built as the JSONB the answers were once kept in, so the
// API's objects keep their keys and key order: absent fields absent, `at` as JavaScript's toISOString wrote it.
type ListedReceipt = Omit<Receipt, 'xml'> & { has_xml: boolean };
const r = submissionReceipts;
const listedColumns = {
  ...getTableColumns(submissions),
  receipts: sql<ListedReceipt[]>`(select coalesce(jsonb_agg(jsonb_strip_nulls(jsonb_build_object(
      'at', to_char(${r.at} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'kind', ${r.kind}, 'alias', ${r.alias},
      'objects', ${r.objects}, 'success', ${r.success}, 'submission', ${r.submission}, 'errors', ${r.errors},
      'infos', ${r.infos}, 'deposition', ${r.deposition})) || jsonb_build_object('has_xml', ${r.xml} is not null)
      order by ${r.seq}), '[]'::jsonb)
    from ${r} where ${r.submissionId} = ${submissions.id})`,
};
type ListedSubmission = SubmissionRow & { receipts: ListedReceipt[] };

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

/** A page of submissions as GET /api/submissions answers it: for the route and for the page that reads it with itself. */
export async function submissionsAnswer(db: Db, user: UserRecord, page: { limit: number; offset: number }) {
  const { rows, total } = await listSubmissions(db, user, page);
  return { number_found: total, data: rows.map((r) => submissionJson(r.submission, r.profileTitle)) };
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
    .select({ xml: submissionReceipts.xml, kind: submissionReceipts.kind })
    .from(submissions)
    .innerJoin(profiles, eq(profiles.id, submissions.profileId))
    .leftJoin(submissionReceipts, and(eq(submissionReceipts.submissionId, submissions.id), eq(submissionReceipts.seq, n)))
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
