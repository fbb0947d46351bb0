import { randomUUID } from 'node:crypto';
import { and, desc, eq, getTableColumns, inArray, or, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '@/db/client';
import { one, pageWithTotal } from '@/db/rows';
import { profiles, users, validationReports } from '@/db/schema';
import { AppError, Conflict, Invalid, NotFound } from '@/lib/errors';
import { isUuid } from '@/lib/identifiers/contract';
import type { JobQueue } from '@/lib/jobs/queue';
import { jobSpec } from '@/lib/jobs/spec';
import {
  checkManifestFile,
  currentDefinition,
  type Issue,
  isManifestProject,
  parseManifest,
  type TaxonomyLookup,
  TaxonomyUnavailableError,
  validateManifest,
} from '@/lib/manifests';
import {
  manifestTypeOf,
  type ParsedRow,
  type ReportRows,
  type ValidationReport,
  type ValidationReportState,
  type ValidationReportSummary,
} from '@/lib/manifests/contract';
import type { ReportPermit } from '@/lib/permits/contract';
import { requiredPermits } from '@/lib/permits/required';
import { getProfile } from '@/lib/profiles/profiles';
import { findUpdateChanges } from '@/lib/samples/changes';
import { existingSamplesOf, samplesFingerprint } from '@/lib/samples/existing';
import { getUser, type UserRecord } from '@/lib/users/users';

/** The reference stops at 1,000 rows; the broker validates ten times that in seconds (bench/manifest-validate.ts). */
export const MANIFEST_MAX_ROWS = 10_000;

type ReportRow = typeof validationReports.$inferSelect;

/**
 * Stores the upload and returns the report id at once; the `manifest.validate` job, queued in the same transaction,
 * does the work.
 */
export async function createValidationReport(
  db: Db,
  jobs: JobQueue,
  user: UserRecord,
  input: { profileId: string; fileName: string; bytes: Uint8Array },
): Promise<ReportRow> {
  const profile = await getProfile(db, user, input.profileId);
  if (!isManifestProject(profile.type)) {
    throw Invalid(`Profile type '${profile.type}' has no sample manifest: only ASG, DTOL, DTOLENV and ERGA profiles do.`);
  }
  // other file types (415), non-spreadsheets and workbooks without the data sheet (422) are refused before anything is stored
  await checkManifestFile(input.bytes, input.fileName);
  const project = profile.type;
  const definition = currentDefinition(project);
  const report = await db.transaction(async (tx) => {
    const row = one(
      await tx
        .insert(validationReports)
        .values({
          id: randomUUID(),
          userId: user.id,
          profileId: profile.id,
          project,
          version: definition.version,
          fileName: input.fileName,
          fileSize: input.bytes.length,
          upload: Buffer.from(input.bytes),
        })
        .returning(),
      'the new report',
    );
    await jobs.send('manifest.validate', { reportId: row.id }, { tx });
    return row;
  });
  // the uploader waits on the report: its job is fetched now, not at the worker's next poll
  jobs.wake('manifest.validate');
  return report;
}

export interface ValidationDeps {
  db: Db;
  taxonomy: TaxonomyLookup;
  logger: Logger;
}

/**
 * The job: parse, validate, and for re-uploads find the field changes and the ones that are not allowed. Every run
 * ends in `complete` or `failed`; only a taxonomy outage is thrown back, so the queue runs it again, and the give-up
 * of its last run (giveUpValidation) fails the report with the reason.
 */
export async function runValidation(deps: ValidationDeps, reportId: string): Promise<void> {
  const { db } = deps;
  const [report] = await db
    .update(validationReports)
    .set({ status: 'running', progress: 5, attempts: sql`${validationReports.attempts} + 1` })
    .where(and(eq(validationReports.id, reportId), sql`${validationReports.status} in ('pending', 'running')`))
    .returning();
  if (!report) return; // already finished: a redelivered job has nothing to do
  try {
    if (!report.upload) throw new Error('the uploaded file is gone');
    const definition = currentDefinition(report.project);
    const parsed = await parseManifest(report.upload, report.fileName, { definition, maxRows: MANIFEST_MAX_ROWS });
    const progress = new RowProgress(db, reportId, parsed.rows);
    await progress.started();
    const fingerprint = await samplesFingerprint(db, report.profileId);
    const uploader = await getUser(db, report.userId);
    const profile = await getProfile(db, uploader, report.profileId);
    const result = await validateManifest(parsed, definition, {
      taxonomy: progress.counting(deps.taxonomy),
      existingSamples: existingSamplesOf(db),
      profileId: report.profileId,
      profileTitle: profile.title,
      associatedProjectTypes: profile.associatedTypes,
      maxRows: MANIFEST_MAX_ROWS,
    });
    await progress.finished();
    const update =
      result.mode === 'update'
        ? await findUpdateChanges(db, { matches: result.matches, rows: result.normalised, parsed, definition, uploader })
        : { changes: [], errors: [] as Issue[] };
    const errors = [...result.errors, ...update.errors].sort(byCell);
    const permits = requiredPermits(
      result.normalised,
      result.mode === 'update' ? { changes: update.changes, matches: result.matches } : undefined,
    );
    await db
      .update(validationReports)
      .set({
        status: 'complete',
        progress: 100,
        summary: { rows: result.rows, errors: errors.length, warnings: result.warnings.length },
        errors,
        warnings: result.warnings,
        rows: errors.length ? null : { normalised: result.normalised, matches: result.matches },
        mode: result.mode,
        changes: update.changes,
        permits,
        samplesFingerprint: fingerprint,
        upload: null,
        finishedAt: sql`now()`,
      })
      .where(eq(validationReports.id, reportId));
  } catch (err) {
    if (err instanceof TaxonomyUnavailableError) {
      await db
        .update(validationReports)
        .set({ status: 'pending', progress: 0, summary: { rows: 0, errors: 0, warnings: 0 } })
        .where(eq(validationReports.id, reportId));
      throw err;
    }
    const failure = err instanceof AppError ? err.message : 'The manifest could not be validated because of an internal error.';
    if (!(err instanceof AppError)) deps.logger.error({ err, report_id: reportId }, 'validation failed');
    await failReport(db, reportId, failure);
  }
}

/**
 * The give-up of `manifest.validate`: its last run failed or its process died. The upload is kept, so an admin can
 * run the validation again from the dead-letter list.
 */
export async function giveUpValidation(db: Db, reportId: string, reason: string): Promise<void> {
  await failReport(db, reportId, reason, { keepUpload: true });
}

export async function failReport(db: Db, reportId: string, failure: string, opts: { keepUpload?: boolean } = {}): Promise<void> {
  await db
    .update(validationReports)
    .set({ status: 'failed', failure, ...(!opts.keepUpload && { upload: null }), progress: 100, finishedAt: sql`now()` })
    .where(and(eq(validationReports.id, reportId), sql`${validationReports.status} in ('pending', 'running')`));
}

const PROGRESS_EVERY_MS = 250;

/**
 * Rows checked of the total, for the report's readers while the job runs. The slow part of a validation is the
 * taxonomy (one lookup per distinct taxon, over the network), so a row counts as checked once the lookup its
 * TAXON_ID (or, without one, its SCIENTIFIC_NAME) waits on has answered; rows naming no taxon count once the
 * lookups begin, the cell checks being done by then. Written at most every PROGRESS_EVERY_MS, one write at a time,
 * and only while the report runs, so a late write never overtakes the result.
 */
class RowProgress {
  private readonly waiting = new Map<string, number>();
  private readonly total: number;
  private withoutTaxon = 0;
  private checked = 0;
  private began = false;
  private lastWrite = 0;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly reportId: string,
    rows: ParsedRow[],
  ) {
    this.total = rows.length;
    for (const r of rows) {
      const taxId = (r.values.TAXON_ID ?? '').trim();
      const name = (r.values.SCIENTIFIC_NAME ?? '').trim().toLowerCase();
      const key = taxId ? `id:${taxId}` : name ? `name:${name}` : null;
      if (key) this.waiting.set(key, (this.waiting.get(key) ?? 0) + 1);
      else this.withoutTaxon += 1;
    }
  }

  /** The file is read: the total is known, nothing is checked yet. */
  started(): Promise<void> {
    return this.write();
  }

  /** The lookups wrapped so that each answer counts the rows that waited on it. */
  counting(taxonomy: TaxonomyLookup): TaxonomyLookup {
    return {
      byTaxId: async (id) => {
        const record = await taxonomy.byTaxId(id);
        this.done(`id:${id.trim()}`);
        return record;
      },
      byScientificName: async (name) => {
        const records = await taxonomy.byScientificName(name);
        this.done(`name:${name.trim().toLowerCase()}`);
        return records;
      },
    };
  }

  /** Every row is checked; waits for any write under way, so the result is written after it. */
  async finished(): Promise<void> {
    this.checked = this.total;
    await this.writing;
    await this.write();
  }

  private done(key: string): void {
    if (!this.began) {
      this.began = true;
      this.checked += this.withoutTaxon;
    }
    const n = this.waiting.get(key);
    if (n) {
      this.waiting.delete(key);
      this.checked += n;
    }
    if (Date.now() - this.lastWrite < PROGRESS_EVERY_MS) return;
    this.lastWrite = Date.now();
    this.writing = this.writing.then(() => this.write()).catch(() => undefined);
  }

  private write(): Promise<void> {
    const checked = Math.min(this.checked, this.total);
    const percent = this.total ? 25 + Math.floor((60 * checked) / this.total) : 85;
    return this.db
      .update(validationReports)
      .set({ progress: percent, summary: { rows: 0, errors: 0, warnings: 0, rows_total: this.total, rows_checked: checked } })
      .where(and(eq(validationReports.id, this.reportId), eq(validationReports.status, 'running')))
      .then(() => undefined);
  }
}

const byCell = (a: Issue, b: Issue) => (a.row ?? 0) - (b.row ?? 0) || (a.column ?? '').localeCompare(b.column ?? '');

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

/** The profiles the user owns, as a subquery. */
const ownProfiles = (db: Db, user: UserRecord) => db.select({ id: profiles.id }).from(profiles).where(eq(profiles.ownerId, user.id));

/**
 * Who may read a report: whoever uploaded it, whoever may use its profile (the profile's owner; admins, who may use
 * every profile), so that a colleague sent its address opens the same page.
 */
const visibleTo = (db: Db, user: UserRecord) =>
  user.isAdmin ? undefined : or(eq(validationReports.userId, user.id), inArray(validationReports.profileId, ownProfiles(db, user)));

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

/** The rows a complete report holds for its confirmation (the only read of them). */
export async function reportRows(db: Db, id: string): Promise<ReportRows | null> {
  const [row] = await db.select({ rows: validationReports.rows }).from(validationReports).where(eq(validationReports.id, id));
  return row?.rows ?? null;
}

/**
 * A page of reports, newest first, with the true total; error lists are not read. Without a profile: the caller's
 * uploads and the reports on the caller's profiles. With one: that profile's reports the caller may read.
 */
export async function listReports(
  db: Db,
  user: UserRecord,
  opts: { profileId?: string; limit: number; offset: number },
): Promise<{ rows: ReportSummary[]; total: number }> {
  const where = opts.profileId
    ? and(eq(validationReports.profileId, opts.profileId), visibleTo(db, user))
    : or(eq(validationReports.userId, user.id), inArray(validationReports.profileId, ownProfiles(db, user)));
  return pageWithTotal(
    db,
    db.select(summarySelect).from(validationReports).where(where).$dynamic(),
    [desc(validationReports.createdAt), desc(validationReports.id)],
    opts,
  );
}

/** docs/architecture.md, Decision 12, plus the reference's names (validation_report_id, submitted, content). */
export function reportJson(r: ReportView, permits: ReportPermit[]): ValidationReport {
  return {
    ...common(r),
    content: r.status === 'failed' ? (r.failure ?? '') : r.errors.map((e) => e.message).join('\n'),
    errors: r.errors,
    warnings: r.warnings,
    changes: r.changes,
    // ERGA: the permit PDFs the manifest names and whether each has arrived; confirming waits for all
    permits,
  };
}

/** A report in a list: its first error messages as `content`, and the permits it names (not whether they arrived). */
export function reportSummaryJson(r: ReportSummary): ValidationReportSummary {
  return {
    ...common(r),
    content: r.content,
    permits: r.permits.map((p) => ({ ...p, received: false, stored_name: null, size_in_bytes: null, uploaded: null })),
  };
}

/** Where a report stands, for polling. */
export function reportStateJson(r: ReportSummary): ValidationReportState {
  const { report_id, status, progress, summary, failure, finished, confirmed_manifest_id, file_name, manifest_type, version } = common(r);
  return { report_id, status, progress, summary, failure, finished, confirmed_manifest_id, file_name, manifest_type, version };
}

function common(r: ReportView | ReportSummary) {
  return {
    report_id: r.id,
    validation_report_id: r.id,
    status: r.status,
    progress: r.progress,
    profile_id: r.profileId,
    manifest_type: manifestTypeOf(r.project),
    version: r.version,
    file_name: r.fileName,
    created: r.createdAt.toISOString(),
    submitted: r.createdAt.toISOString(),
    finished: r.finishedAt?.toISOString() ?? null,
    summary: r.summary,
    mode: r.mode,
    failure: r.failure,
    confirmed_manifest_id: r.confirmedManifestId,
  };
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

/** `manifest.validate`: a report's validation, run as soon as its upload commits. */
export const validateManifestJob = jobSpec({
  name: 'manifest.validate',
  expireSeconds: 30 * 60,
  run: (deps: ValidationDeps & { jobs: JobQueue }, data) => runValidation(deps, data.reportId),
  giveUp: (deps, data, reason) => giveUpValidation(deps.db, data.reportId, reason),
  openWork: { key: 'reportId', open: sql`select id::text as id from validation_reports where status in ('pending', 'running')` },
  async reopen(tx, deps, data) {
    const [report] = await tx
      .update(validationReports)
      .set({ status: 'pending', failure: null, progress: 0, attempts: 0, finishedAt: null })
      .where(
        and(eq(validationReports.id, data.reportId), eq(validationReports.status, 'failed'), sql`${validationReports.upload} is not null`),
      )
      .returning({ id: validationReports.id });
    if (!report) throw Conflict('The report cannot be validated again: its upload is gone. Upload the manifest again.');
    await deps.jobs.send('manifest.validate', { reportId: report.id }, { tx });
    return `report ${report.id}`;
  },
});
