import { and, desc, eq, getTableColumns, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { pageWithTotal } from '@/db/rows';
import { profiles, users, validationReports } from '@/db/schema';
import { NotFound } from '@/lib/errors';
import { isUuid } from '@/lib/identifiers/contract';
import type { StoredReportRows } from '@/lib/manifests/contract';
import { profilesWhere } from '@/lib/profiles/access';
import type { UserRecord } from '@/lib/users/users';

/** Reading reports: who may (the uploader, whoever may use its profile, admins), one, its rows, the lists. */

type ReportRow = typeof validationReports.$inferSelect;

// a report as read and shown: everything but the uploaded workbook and the parsed rows, which only the job and
// the confirmation need
const { upload: _upload, rows: _rows, ...reportColumns } = getTableColumns(validationReports);
export type ReportView = Omit<ReportRow, 'upload' | 'rows'>;

// in lists and polls: no error lists either, only the first messages as the reference's `content`
const { errors: _errors, warnings: _warnings, changes: _changes, ...summaryColumns } = reportColumns;
const CONTENT_PREVIEW_MESSAGES = 20;
export type ReportSummary = Omit<ReportView, 'errors' | 'warnings' | 'changes'> & { content: string };

const summarySelect = {
  ...summaryColumns,
  content: sql<string>`case when ${validationReports.status} = 'failed' then coalesce(${validationReports.failure}, '')
    else coalesce((select string_agg(e->>'message', E'\n') from (select jsonb_array_elements(${validationReports.errors}) as e limit ${CONTENT_PREVIEW_MESSAGES}) m), '') end`,
};

/**
 * Who may read a report: whoever may see its profile (its owner, those it is shared with, admins:
 * lib/profiles/access.ts), so that a colleague sent its address opens the same page. Its uploader is one of them
 * while the profile stays shared with them; removing the share removes the reports too.
 */
const visibleTo = (db: Db, user: UserRecord) => profilesWhere(db, user, validationReports.profileId);

/** A report its reader may see; anyone else's, and unknown ids, are the same 404. */
export async function getReport(db: Db, user: UserRecord, id: string): Promise<ReportView> {
  if (!isUuid(id)) throw NotFound('Validation report not found');
  const [row] = await db
    .select(reportColumns)
    .from(validationReports)
    .where(and(eq(validationReports.id, id.toLowerCase()), visibleTo(db, user)));
  if (!row) throw NotFound('Validation report not found');
  return row;
}

/** Where a report stands, for polling: a few columns, no error lists. */
export async function getReportSummary(db: Db, user: UserRecord, id: string): Promise<ReportSummary> {
  if (!isUuid(id)) throw NotFound('Validation report not found');
  const [row] = await db
    .select(summarySelect)
    .from(validationReports)
    .where(and(eq(validationReports.id, id.toLowerCase()), visibleTo(db, user)));
  if (!row) throw NotFound('Validation report not found');
  return row;
}

/**
 * The rows a complete report holds for its confirmation (the only read of them), as its table keeps them
 * (lib/manifests/stored-rows.ts), or null when it kept none. Confirming a new manifest takes only a few fields of each (storedRowValues), the rest being copied within the database
 * (lib/reports/confirm.ts): a big sheet's every row made an object was a part of its confirmation worth sparing
 * (docs/benchmarks.md, "Big sheets").
 */
export async function reportStoredRows(db: Db, id: string): Promise<StoredReportRows | null> {
  const [row] = await db.select({ rows: validationReports.rows }).from(validationReports).where(eq(validationReports.id, id));
  return row?.rows ?? null;
}

/**
 * A page of reports, newest first, with the true total; error lists are not read. Without a profile: the reports on
 * the profiles the caller may see (an admin's: their uploads and their own profiles'). With one: that profile's
 * reports, if the caller may see it.
 */
export async function listReports(
  db: Db,
  user: UserRecord,
  opts: { profileId?: string; limit: number; offset: number },
): Promise<{ rows: ReportSummary[]; total: number }> {
  const where = opts.profileId
    ? and(eq(validationReports.profileId, opts.profileId), visibleTo(db, user))
    : user.isAdmin
      ? // an admin's own home, not every report of the service
        or(
          eq(validationReports.userId, user.id),
          inArray(validationReports.profileId, db.select({ id: profiles.id }).from(profiles).where(eq(profiles.ownerId, user.id))),
        )
      : visibleTo(db, user);
  return pageWithTotal(
    db,
    db.select(summarySelect).from(validationReports).where(where).$dynamic(),
    [desc(validationReports.createdAt), desc(validationReports.id)],
    opts,
  );
}

/** What the report page names beside the report: its profile's title and who uploaded it. */
export async function reportNames(
  db: Db,
  report: Pick<ReportRow, 'profileId' | 'userId'>,
): Promise<{ profileTitle: string; uploadedBy: string }> {
  const [profile] = await db.select({ title: profiles.title }).from(profiles).where(eq(profiles.id, report.profileId));
  const [uploader] = await db.select({ username: users.username }).from(users).where(eq(users.id, report.userId));
  return { profileTitle: profile?.title ?? report.profileId, uploadedBy: uploader?.username ?? 'someone' };
}
