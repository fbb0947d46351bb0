import { randomUUID } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '@/db/client';
import { validationReports, type ReportStatus, type TolProject } from '@/db/schema';
import { AppError, Invalid, NotFound } from '@/lib/errors';
import {
  currentDefinition,
  checkManifestFile,
  isManifestProject,
  parseManifest,
  TaxonomyUnavailableError,
  validateManifest,
  type Issue,
  type TaxonomyLookup,
} from '@/lib/manifests';
import { getProfile } from '@/lib/profiles/profiles';
import { findUpdateChanges } from '@/lib/samples/changes';
import { existingSamplesOf, samplesFingerprint } from '@/lib/samples/existing';
import { getUser, type UserRecord } from '@/lib/users/users';

/** The reference stops at 1,000 rows; the broker validates ten times that in seconds (bench/manifest-validate.ts). */
export const MANIFEST_MAX_ROWS = 10_000;
/** pg-boss runs a job at most 1 + retryLimit (3) times; the last run must end the report. */
export const VALIDATION_MAX_ATTEMPTS = 4;

type ReportRow = typeof validationReports.$inferSelect;

/** Stores the upload and returns the report id at once; the `manifest.validate` job does the work. */
export async function createValidationReport(
  db: Db,
  user: UserRecord,
  input: { profileId: string; fileName: string; bytes: Uint8Array },
): Promise<ReportRow> {
  const profile = await getProfile(db, user, input.profileId);
  if (!isManifestProject(profile.type)) {
    throw Invalid(`Profile type '${profile.type}' has no sample manifest: only ASG, DTOL, DTOLENV and ERGA profiles do.`);
  }
  // other file types (415), non-spreadsheets and workbooks without the data sheet (422) are refused before anything is stored
  await checkManifestFile(input.bytes, input.fileName);
  const definition = currentDefinition(profile.type);
  const [row] = await db
    .insert(validationReports)
    .values({
      id: randomUUID(),
      userId: user.id,
      profileId: profile.id,
      project: profile.type,
      version: definition.version,
      fileName: input.fileName,
      fileSize: input.bytes.length,
      upload: Buffer.from(input.bytes),
    })
    .returning();
  return row!;
}

export interface ValidationDeps {
  db: Db;
  taxonomy: TaxonomyLookup;
  logger: Logger;
}

/**
 * The job: parse, validate, and for re-uploads find the field changes and the ones that are not allowed. Every run
 * ends in `complete` or `failed`; only a taxonomy outage is thrown back, so the queue retries later.
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
    const definition = currentDefinition(report.project as TolProject);
    const parsed = await parseManifest(report.upload, report.fileName, { definition });
    await setProgress(db, reportId, 25);
    const fingerprint = await samplesFingerprint(db, report.profileId);
    const uploader = await getUser(db, report.userId);
    const profile = await getProfile(db, uploader, report.profileId);
    const result = await validateManifest(parsed, definition, {
      taxonomy: deps.taxonomy,
      existingSamples: existingSamplesOf(db),
      profileId: report.profileId,
      profileTitle: profile.title,
      associatedProjectTypes: profile.associatedTypes,
      maxRows: MANIFEST_MAX_ROWS,
    });
    await setProgress(db, reportId, 85);
    const update =
      result.mode === 'update'
        ? await findUpdateChanges(db, { matches: result.matches, rows: result.normalised, parsed, definition, uploader })
        : { changes: [], errors: [] as Issue[] };
    const errors = [...result.errors, ...update.errors].sort(byCell);
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
        samplesFingerprint: fingerprint,
        upload: null,
        finishedAt: sql`now()`,
      })
      .where(eq(validationReports.id, reportId));
  } catch (err) {
    if (err instanceof TaxonomyUnavailableError) {
      if (report.attempts >= VALIDATION_MAX_ATTEMPTS) {
        await failReport(db, reportId, err.message);
        return;
      }
      await db.update(validationReports).set({ status: 'pending', progress: 0 }).where(eq(validationReports.id, reportId));
      throw err;
    }
    const failure = err instanceof AppError ? err.message : 'The manifest could not be validated because of an internal error.';
    if (!(err instanceof AppError)) deps.logger.error({ err, report_id: reportId }, 'validation failed');
    await failReport(db, reportId, failure);
  }
}

export async function failReport(db: Db, reportId: string, failure: string): Promise<void> {
  await db
    .update(validationReports)
    .set({ status: 'failed', failure, upload: null, progress: 100, finishedAt: sql`now()` })
    .where(and(eq(validationReports.id, reportId), sql`${validationReports.status} in ('pending', 'running')`));
}

const setProgress = (db: Db, id: string, progress: number) =>
  db.update(validationReports).set({ progress }).where(eq(validationReports.id, id));

const byCell = (a: Issue, b: Issue) => (a.row ?? 0) - (b.row ?? 0) || (a.column ?? '').localeCompare(b.column ?? '');

const REPORT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The caller's report; anyone else's, and unknown ids, are the same 404. Admins read all. */
export async function getReport(db: Db, user: UserRecord, id: string): Promise<ReportRow> {
  if (!REPORT_ID.test(id)) throw NotFound('Validation report not found');
  const [row] = await db.select().from(validationReports).where(eq(validationReports.id, id.toLowerCase()));
  if (!row || (row.userId !== user.id && !user.isAdmin)) throw NotFound('Validation report not found');
  return row;
}

export async function listReports(db: Db, user: UserRecord, opts: { profileId?: string } = {}): Promise<ReportRow[]> {
  const mine = eq(validationReports.userId, user.id);
  return db
    .select()
    .from(validationReports)
    .where(opts.profileId ? and(mine, eq(validationReports.profileId, opts.profileId)) : mine)
    .orderBy(desc(validationReports.createdAt))
    .limit(500);
}

/** ARCHITECTURE.md Decision 12, plus the reference's names (validation_report_id, submitted, content). */
export function reportJson(r: ReportRow, opts: { details?: boolean } = { details: true }) {
  const summary = r.summary as { rows: number; errors: number; warnings: number };
  return {
    report_id: r.id,
    validation_report_id: r.id,
    status: r.status as ReportStatus,
    progress: r.progress,
    profile_id: r.profileId,
    manifest_type: r.project.toUpperCase(),
    version: r.version,
    file_name: r.fileName,
    created: r.createdAt.toISOString(),
    submitted: r.createdAt.toISOString(),
    finished: r.finishedAt?.toISOString() ?? null,
    summary,
    mode: r.mode,
    failure: r.failure,
    confirmed_manifest_id: r.confirmedManifestId,
    content: r.status === 'failed' ? (r.failure ?? '') : (r.errors as Issue[]).map((e) => e.message).join('\n'),
    ...(opts.details && {
      errors: r.errors as Issue[],
      warnings: r.warnings as Issue[],
      changes: r.changes as unknown[],
    }),
  };
}
