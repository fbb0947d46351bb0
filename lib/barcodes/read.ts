import { and, asc, count, desc, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { barcodes } from '@/db/schema';
import type { Barcode, BarcodeStatus } from './contract';

/** A profile's barcodes as their owner and those it is shared with read them. */

type Row = typeof barcodes.$inferSelect;

export const barcodeJson = (r: Row): Barcode => ({
  id: r.id,
  profile_id: r.profileId,
  specimen_id: r.specimenId,
  checklist_id: r.checklistId,
  entry_number: r.entryNumber,
  study_accession: r.studyAccession,
  status: r.status,
  error: r.error,
  accession: r.accession,
  fields: r.fields,
  sequence_length: r.sequence.length,
  time_created: r.timeCreated.toISOString(),
  time_updated: r.timeUpdated.toISOString(),
});

/** A page of the profile's barcodes, newest first, with the total; the caller has checked who may see the profile. */
export async function listBarcodes(
  db: Db,
  profileId: string,
  query: { status?: BarcodeStatus; limit: number; offset: number },
): Promise<{ rows: Barcode[]; total: number }> {
  const where = and(eq(barcodes.profileId, profileId), query.status ? eq(barcodes.status, query.status) : undefined);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(barcodes)
      .where(where)
      .orderBy(desc(barcodes.timeCreated), asc(barcodes.entryNumber))
      .limit(query.limit)
      .offset(query.offset),
    db.select({ n: count() }).from(barcodes).where(where),
  ]);
  return { rows: rows.map(barcodeJson), total: total?.n ?? 0 };
}
