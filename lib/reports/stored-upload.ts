import { eq, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { validationReports } from '@/db/schema';

const UPLOAD_SLICE_BYTES = 1024 * 1024;

/**
 * The stored workbook, read in slices. On PGlite a result passes through its WebAssembly memory (as hex text), which
 * grows to the largest result and never shrinks: read whole, a large upload raised the process's memory for good,
 * by several times the upload's size. A workbook is a zip, which PostgreSQL stores uncompressed, so a slice reads
 * only its own TOAST chunks.
 */
export async function readUpload(db: Db, reportId: string): Promise<Buffer | null> {
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
