import { createHash } from 'node:crypto';
import { and, desc, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { idsOf, one } from '@/db/rows';
import { permits, profiles, samples, type validationReports } from '@/db/schema';
import { approverScopeIn, decidesOn } from '@/lib/approvals/approvals';
import { AppError, Conflict, Invalid, NotFound, TooLarge } from '@/lib/errors';
import { isSvcId } from '@/lib/identifiers/contract';
import { roleOn } from '@/lib/profiles/access';
import type { UserRecord } from '@/lib/users/users';
import { PERMIT_KINDS, type PermitKind, type ReportPermit, type SamplePermit } from './contract';
import { pdfProblem } from './pdf';
import { filenameField } from './required';

/**
 * ERGA permits (docs/tol-manifests.md §1.6, §2.6): the PDFs a manifest names, uploaded for its validation report before
 * it is confirmed, stored under the reference's `<name>_YYYYMMDD.pdf`, and readable afterwards by the sample
 * managers of the project (and the profile's owner) from each sample that names them.
 */

/** A permit is a few pages: larger uploads are refused before they are stored. */
export const PERMIT_MAX_BYTES = 20 * 1024 * 1024;

type ReportRow = Pick<typeof validationReports.$inferSelect, 'id' | 'profileId' | 'permits'>;

/** `test_permit.pdf` uploaded on 24 Nov 2026 → `test_permit_20261124.pdf` */
export function storedPermitName(fileName: string, at: Date): string {
  const stamp = at.toISOString().slice(0, 10).replace(/-/g, '');
  const m = /^(.*?)(\.pdf)$/i.exec(fileName);
  return m ? `${m[1]}_${stamp}${m[2]}` : `${fileName}_${stamp}`;
}

const requiredOf = (report: Pick<ReportRow, 'permits'>) => report.permits;

/** What the report needs and what has arrived, by file name. */
export async function permitsOfReport(db: Db, report: Pick<ReportRow, 'id' | 'permits'>): Promise<ReportPermit[]> {
  const required = requiredOf(report);
  if (!required.length) return [];
  const got = await db
    .select({ fileName: permits.fileName, storedName: permits.storedName, size: permits.sizeInBytes, at: permits.uploadedAt })
    .from(permits)
    .where(eq(permits.reportId, report.id));
  return required.map((p) => {
    const r = got.find((g) => g.fileName === p.filename);
    return {
      ...p,
      received: Boolean(r),
      stored_name: r?.storedName ?? null,
      size_in_bytes: r?.size ?? null,
      uploaded: r?.at.toISOString() ?? null,
    };
  });
}

/** The files a report still waits for. */
export async function missingPermits(db: Db, report: Pick<ReportRow, 'id' | 'permits'>): Promise<string[]> {
  return (await missingPermitsOfReports(db, [report])).get(report.id) ?? [];
}

/**
 * The files each of several reports still waits for, read in one statement whatever the number of reports (a list
 * of them, as the home page shows, asks once and not once a report). Reports that wait for nothing are left out.
 */
export async function missingPermitsOfReports(
  db: Db,
  reports: readonly Pick<ReportRow, 'id' | 'permits'>[],
): Promise<Map<string, string[]>> {
  const needing = reports.filter((r) => requiredOf(r).length);
  if (!needing.length) return new Map();
  const got = await db
    .select({ reportId: permits.reportId, fileName: permits.fileName })
    .from(permits)
    .where(inArray(permits.reportId, idsOf(needing)));
  const received = new Set(got.map((g) => `${g.reportId} ${g.fileName}`));
  const missing = new Map<string, string[]>();
  for (const r of needing) {
    const files = requiredOf(r)
      .filter((p) => !received.has(`${r.id} ${p.filename}`))
      .map((p) => p.filename);
    if (files.length) missing.set(r.id, files);
  }
  return missing;
}

export interface PermitUpload {
  name: string;
  bytes: Uint8Array;
}

/**
 * Stores the PDFs a report's manifest names. Every file is checked first (named by the manifest, a real PDF,
 * within the size limit) and then all are stored in one transaction, or none. A file sent again replaces the
 * earlier one.
 */
export async function storeReportPermits(
  db: Db,
  user: UserRecord,
  report: ReportRow & Pick<typeof validationReports.$inferSelect, 'status' | 'confirmedManifestId'>,
  files: PermitUpload[],
): Promise<ReportPermit[]> {
  if (report.status !== 'complete') throw Conflict(`The report is ${report.status}: permits are taken once the manifest is validated.`);
  if (report.confirmedManifestId) throw Conflict(`This report was already confirmed (manifest ${report.confirmedManifestId}).`);
  const required = requiredOf(report);
  if (!required.length)
    throw Invalid('This manifest names no permit files that are required.', [{ path: 'file', message: 'No permit is required' }]);
  if (!files.length) throw Invalid('Send one or more permit PDFs in the `file` part.', [{ path: 'file', message: 'Required' }]);
  const names = required.map((p) => p.filename);
  const checked = files.map((f) => {
    // the name as the manifest spells it, whatever case the file system gave it
    const filename = names.find((n) => n === f.name) ?? names.find((n) => n.toLowerCase() === f.name.toLowerCase());
    if (!filename) {
      throw Invalid(`${f.name} is not a permit file this manifest names; it names ${names.join(', ')}.`, [
        { path: 'file', message: `Unexpected file ${f.name}` },
      ]);
    }
    if (f.bytes.length > PERMIT_MAX_BYTES) throw TooLarge(`${f.name} is larger than the permit limit of ${PERMIT_MAX_BYTES} bytes.`);
    const problem = pdfProblem(f.bytes);
    if (problem) throw new AppError('unprocessable', `${f.name} is not a PDF: ${problem}`, [{ path: 'file', message: problem }]);
    return { filename, bytes: f.bytes };
  });
  const now = new Date();
  await db.transaction(async (tx) => {
    for (const f of checked) {
      const values = {
        storedName: storedPermitName(f.filename, now),
        sizeInBytes: f.bytes.length,
        sha256: createHash('sha256').update(f.bytes).digest('hex'),
        content: Buffer.from(f.bytes),
        uploadedBy: user.id,
        uploadedAt: now,
      };
      await tx
        .insert(permits)
        .values({ profileId: report.profileId, reportId: report.id, fileName: f.filename, ...values })
        .onConflictDoUpdate({ target: [permits.reportId, permits.fileName], set: values });
    }
  });
  return permitsOfReport(db, report);
}

/** Ties a confirmed report's permits to its manifest (in the confirming transaction). */
export async function attachPermits(tx: Db, reportId: string, manifestId: string): Promise<void> {
  await tx.update(permits).set({ manifestId }).where(eq(permits.reportId, reportId));
}

/** A stored permit of a sample; the API adds where to download it. */
type StoredSamplePermit = Omit<SamplePermit, 'url'>;

/** The permit file names a sample's fields give, by kind, where the permit is required. */
export function permitNamesOf(fields: Record<string, string>): { kind: PermitKind; fileName: string }[] {
  return PERMIT_KINDS.flatMap((kind) => {
    const required = (fields[`${kind}_PERMITS_REQUIRED`] ?? '').trim().toUpperCase() === 'Y';
    const fileName = (fields[filenameField(kind)] ?? '').trim();
    return required && fileName ? [{ kind, fileName }] : [];
  });
}

/** The latest confirmed upload of each of these names in a profile. */
async function latestPermits(db: Db, profileId: string, fileNames: string[]) {
  if (!fileNames.length) return [];
  const rows = await db
    .select({
      id: permits.id,
      fileName: permits.fileName,
      storedName: permits.storedName,
      size: permits.sizeInBytes,
      at: permits.uploadedAt,
    })
    .from(permits)
    .where(and(eq(permits.profileId, profileId), inArray(permits.fileName, fileNames), isNotNull(permits.manifestId)))
    .orderBy(desc(permits.uploadedAt));
  const latest = new Map<string, (typeof rows)[number]>();
  for (const r of rows) if (!latest.has(r.fileName)) latest.set(r.fileName, r);
  return [...latest.values()];
}

/**
 * The sample, when the caller may read its permits: whoever may see its profile (lib/profiles/access.ts), and those
 * who decide on it (the project's sample managers, the approvers of one of its types), who review the permits with it.
 */
async function permittedSample(db: Db, user: UserRecord, svcId: string) {
  const id = svcId.trim().toLowerCase();
  if (!isSvcId(id)) throw NotFound('Sample not found');
  const [row] = await db
    .select({
      id: samples.id,
      project: samples.project,
      associatedTolProjects: samples.associatedTolProjects,
      profileId: samples.profileId,
      fields: samples.fields,
      ownerId: profiles.ownerId,
    })
    .from(samples)
    .innerJoin(profiles, eq(profiles.id, samples.profileId))
    .where(eq(samples.id, id));
  // anyone else is told what an unknown id is told
  const maySee = async (r: NonNullable<typeof row>) =>
    decidesOn(await approverScopeIn(db, user), r) || (await roleOn(db, user, { id: r.profileId, ownerId: r.ownerId })) !== null;
  if (!row || !(await maySee(row))) throw NotFound('Sample not found');
  return row;
}

export async function samplePermits(db: Db, user: UserRecord, svcId: string): Promise<StoredSamplePermit[]> {
  const sample = await permittedSample(db, user, svcId);
  const named = permitNamesOf(sample.fields);
  const stored = await latestPermits(db, sample.profileId, [...new Set(named.map((n) => n.fileName))]);
  return named.flatMap((n) => {
    const p = stored.find((s) => s.fileName === n.fileName);
    return p
      ? [{ kind: n.kind, file_name: n.fileName, stored_name: p.storedName, size_in_bytes: p.size, uploaded: p.at.toISOString() }]
      : [];
  });
}

/** One permit PDF of a sample, by its stored name. */
export async function readSamplePermit(
  db: Db,
  user: UserRecord,
  svcId: string,
  storedName: string,
): Promise<{ name: string; content: Buffer }> {
  const sample = await permittedSample(db, user, svcId);
  const names = permitNamesOf(sample.fields).map((n) => n.fileName);
  const stored = await latestPermits(db, sample.profileId, names);
  const match = stored.find((s) => s.storedName === storedName);
  if (!match) throw NotFound(`The sample has no permit ${storedName}`);
  const row = one(await db.select({ content: permits.content }).from(permits).where(eq(permits.id, match.id)), 'the permit just listed');
  return { name: match.storedName, content: row.content };
}

/** Stored names of a specimen's permits, by kind, for its ENA record. */
export async function storedPermitNames(
  db: Db,
  profileId: string,
  fields: Record<string, string>,
): Promise<{ kind: PermitKind; storedName: string }[]> {
  const named = permitNamesOf(fields);
  const stored = await latestPermits(db, profileId, [...new Set(named.map((n) => n.fileName))]);
  return named.flatMap((n) => {
    const p = stored.find((s) => s.fileName === n.fileName);
    return p ? [{ kind: n.kind, storedName: p.storedName }] : [];
  });
}
