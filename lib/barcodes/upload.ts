import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { barcodes, samples, specimens } from '@/db/schema';
import { AppError, Conflict, TooLarge, Unprocessable } from '@/lib/errors';
import { getProfile, type ProfileView } from '@/lib/profiles/profiles';
import { isTolProject } from '@/lib/projects/contract';
import type { SampleChecklist } from '@/lib/sample-checklists/contract';
import { findChecklist } from '@/lib/sample-checklists/store';
import type { UserRecord } from '@/lib/users/users';
import { type BarcodeChecklist, BarcodeChecklistSchema, type BarcodeStatus, type BarcodeUploadAnswer } from './contract';
import { barcodeJson } from './read';
import { readBarcodeSheet } from './sheet';
import { type BarcodeSheetContext, checklistOfSheet, type ProfileSpecimen, validateBarcodeSheet } from './validate';

/**
 * An uploaded barcoding sheet, answered in the request as a study upload is: checked whole (lib/barcodes/validate.ts)
 * and stored, or 422 with every error and nothing stored. A row whose ENTRYNUMBER names a barcode of the profile not
 * yet sent (pending, waiting or rejected) replaces it.
 */

export const INVALID_SHEET = 'The barcoding sheet is not valid: the errors say where.';

/** The profile a caller may add barcodes to: a Tree of Life profile they may contribute to. */
export async function barcodeProfile(db: Db, user: UserRecord, profileId: string, need: 'view' | 'contribute'): Promise<ProfileView> {
  const profile = await getProfile(db, user, profileId, need);
  if (!isTolProject(profile.type)) {
    throw Conflict(
      `A ${profile.type} profile has no specimens to barcode: barcodes belong to the specimens of a Tree of Life profile (ASG, DTOL, DTOLENV, ERGA).`,
    );
  }
  return profile;
}

/** The specimens of the profile's samples, by SPECIMEN_ID and by ToLID (lower-cased), with their scientific name. */
async function specimensOf(db: Db, profileId: string): Promise<Map<string, ProfileSpecimen>> {
  const rows = await db
    .selectDistinct({
      specimenId: samples.specimenId,
      sampleTolid: samples.publicName,
      specimenTolid: specimens.publicName,
      scientificName: samples.scientificName,
    })
    .from(samples)
    .leftJoin(specimens, and(eq(specimens.project, samples.project), eq(specimens.specimenId, samples.specimenId)))
    .where(and(eq(samples.profileId, profileId), isNotNull(samples.specimenId)));
  const out = new Map<string, ProfileSpecimen>();
  for (const r of rows) {
    if (!r.specimenId) continue;
    const tolid = r.specimenTolid ?? r.sampleTolid;
    const known = out.get(r.specimenId.toLowerCase());
    const specimen: ProfileSpecimen = {
      specimenId: r.specimenId,
      tolid: tolid ?? known?.tolid ?? null,
      scientificName: known?.scientificName ?? r.scientificName,
    };
    out.set(r.specimenId.toLowerCase(), specimen);
    if (specimen.tolid) out.set(specimen.tolid.toLowerCase(), specimen);
  }
  return out;
}

async function storedOf(db: Db, profileId: string): Promise<Map<string, { status: BarcodeStatus }>> {
  const rows = await db
    .select({ entry: barcodes.entryNumber, status: barcodes.status })
    .from(barcodes)
    .where(eq(barcodes.profileId, profileId));
  return new Map(rows.map((r) => [r.entry.toLowerCase(), { status: r.status }]));
}

/** The checklist as last read from ENA; 409 while ENA's sequence checklists have not been read yet. */
async function sequenceChecklist(db: Db, id: BarcodeChecklist): Promise<SampleChecklist> {
  const checklist = await findChecklist(db, id).catch((err: unknown) => {
    if (err instanceof AppError && err.code === 'not_found') {
      throw Conflict(
        `ENA's sequence checklist ${id} has not been read yet (it is read from ENA daily and when the service starts): try again later.`,
      );
    }
    throw err;
  });
  if (checklist.kind !== 'sequence') throw Conflict(`${id} is not one of ENA's sequence checklists.`);
  return checklist;
}

export async function uploadBarcodes(
  deps: { db: Db; config: { UPLOAD_MAX_BYTES: number } },
  user: UserRecord,
  input: { profileId: string; fileName: string; bytes: Uint8Array; checklist?: BarcodeChecklist; studyAccession?: string },
): Promise<BarcodeUploadAnswer> {
  const { db } = deps;
  const profile = await barcodeProfile(db, user, input.profileId, 'contribute');
  if (input.bytes.byteLength > deps.config.UPLOAD_MAX_BYTES) {
    throw TooLarge(`The file is larger than the limit of ${deps.config.UPLOAD_MAX_BYTES} bytes.`);
  }
  const sheet = await readBarcodeSheet(input.bytes, input.fileName);
  const checklistId = input.checklist ?? checklistOfSheet(sheet);
  const checklist = await sequenceChecklist(db, checklistId);
  const ctx: BarcodeSheetContext = {
    specimens: await specimensOf(db, profile.id),
    stored: await storedOf(db, profile.id),
    studyAccession: input.studyAccession,
  };
  const result = validateBarcodeSheet(sheet, checklist, ctx);
  if (result.errors.length) throw Unprocessable(INVALID_SHEET, { errors: result.errors });

  return db.transaction(async (tx) => {
    let created = 0;
    const stored = [];
    for (const r of result.rows) {
      const values = {
        specimenId: r.specimenId,
        checklistId: BarcodeChecklistSchema.parse(checklist.id),
        studyAccession: r.studyAccession,
        fields: r.fields,
        sequence: r.sequence,
      };
      const [row] = await tx
        .insert(barcodes)
        .values({ profileId: profile.id, entryNumber: r.entryNumber, createdBy: user.id, ...values })
        .onConflictDoUpdate({
          target: [barcodes.profileId, barcodes.entryNumber],
          set: { ...values, status: 'pending', error: null, batchId: null, timeUpdated: sql`now()` },
          // one sent meanwhile stays as ENA has it
          setWhere: sql`${barcodes.status} in ('pending', 'waiting', 'rejected')`,
        })
        .returning();
      if (!row) throw Conflict(`The barcode ${r.entryNumber} was sent to ENA meanwhile: it cannot be replaced.`);
      if (row.timeCreated.getTime() === row.timeUpdated.getTime()) created++;
      stored.push(barcodeJson(row));
    }
    return {
      checklist_id: BarcodeChecklistSchema.parse(checklist.id),
      study_accession: [...new Set(result.rows.map((r) => r.studyAccession))].join(', '),
      rows: result.rows.length,
      created,
      updated: result.rows.length - created,
      data: stored,
    };
  });
}
