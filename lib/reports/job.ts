import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Db } from '@/db/client';
import { validationReports } from '@/db/schema';
import { AppError, Conflict } from '@/lib/errors';
import { UuidSchema } from '@/lib/identifiers/contract';
import type { JobQueue } from '@/lib/jobs/queue';
import { jobSpec } from '@/lib/jobs/spec';
import {
  currentDefinition,
  type Issue,
  parseManifest,
  type TaxonomyLookup,
  TaxonomyUnavailableError,
  validateManifest,
} from '@/lib/manifests';
import type { ParsedRow } from '@/lib/manifests/contract';
import { requiredPermits } from '@/lib/permits/required';
import { getProfile } from '@/lib/profiles/profiles';
import { findUpdateChanges } from '@/lib/samples/changes';
import { existingSamplesOf, samplesFingerprint } from '@/lib/samples/existing';
import { getUser } from '@/lib/users/users';
import { MANIFEST_MAX_ROWS } from './create';
import { validateSampleSheetReport } from './sample-sheet';

/** The `manifest.validate` job: a report's validation, with its progress, its failure and its give-up. */

/** Issues in the order of the sheet's cells. */
const byCell = (a: Issue, b: Issue) => (a.row ?? 0) - (b.row ?? 0) || (a.column ?? '').localeCompare(b.column ?? '');

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
  const { upload: _upload, ...columns } = getTableColumns(validationReports);
  const [report] = await db
    .update(validationReports)
    .set({ status: 'running', progress: 5, attempts: sql`${validationReports.attempts} + 1` })
    .where(and(eq(validationReports.id, reportId), sql`${validationReports.status} in ('pending', 'running')`))
    .returning(columns);
  if (!report) return; // already finished: a redelivered job has nothing to do
  try {
    const upload = await readUpload(db, reportId);
    if (!upload) throw new Error('the uploaded file is gone');
    if (report.project === 'biodata') {
      await validateSampleSheetReport(deps, report, upload);
      return;
    }
    const definition = currentDefinition(report.project);
    const parsed = await parseManifest(upload, report.fileName, { definition, maxRows: MANIFEST_MAX_ROWS });
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

const UPLOAD_SLICE_BYTES = 1024 * 1024;

/**
 * The stored workbook, read a megabyte at a time. On PGlite a result passes through its WebAssembly memory (as hex
 * text), which grows to the largest result and never shrinks: read whole, a 12 MB upload raised the process's memory
 * by some 85 MB for good. A workbook is a zip, which PostgreSQL stores uncompressed, so a slice reads only its own
 * TOAST chunks.
 */
async function readUpload(db: Db, reportId: string): Promise<Buffer | null> {
  const [row] = await db
    .select({ bytes: sql<number | null>`octet_length(${validationReports.upload})` })
    .from(validationReports)
    .where(eq(validationReports.id, reportId));
  if (row?.bytes == null) return null;
  const size = Number(row.bytes);
  const upload = Buffer.allocUnsafe(size);
  for (let offset = 0; offset < size; offset += UPLOAD_SLICE_BYTES) {
    const [slice] = await db
      .select({ part: sql<Uint8Array>`substring(${validationReports.upload} from ${offset + 1} for ${UPLOAD_SLICE_BYTES})` })
      .from(validationReports)
      .where(eq(validationReports.id, reportId));
    // removed between two slices (the report's profile deleted): gone, as if never read
    if (!slice?.part) return null;
    upload.set(slice.part, offset);
  }
  return upload;
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

const ValidateManifestData = z.object({ reportId: UuidSchema });

declare module '@/lib/jobs/contract' {
  interface JobDataByName {
    'manifest.validate': z.infer<typeof ValidateManifestData>;
  }
}

/** `manifest.validate`: a report's validation, run as soon as its upload commits. */
export const validateManifestJob = jobSpec({
  name: 'manifest.validate',
  label: 'Validation of a manifest',
  data: ValidateManifestData,
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
