import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { samples, validationReports } from '@/db/schema';
import { NotFound } from '@/lib/errors';
import { findDefinition } from '@/lib/manifests';
import { manifestTypeOf } from '@/lib/manifests/contract';
import { buildFilledTemplate } from '@/lib/manifests/filled-template';
import { storedRowNumber, storedRowsOf, storedValue } from '@/lib/manifests/stored-rows';
import type { UserRecord } from '@/lib/users/users';
import { readableManifest } from './confirmed';

/**
 * A confirmed manifest as a spreadsheet to correct and upload again: the template of its project and version filled
 * with its samples' current values (later corrections included), in the order of the rows it was uploaded with. Its
 * rows match the stored samples by rack and tube, so the upload is an update (lib/samples/changes.ts): unchanged it
 * changes nothing, and each edited cell is one change. Symbionts are left out: an update may not name them
 * (lib/manifests/rules/existing.ts), and they take their target's values when first uploaded.
 */
export async function manifestSpreadsheet(db: Db, user: UserRecord, manifestId: string): Promise<{ fileName: string; body: Buffer }> {
  const { manifest } = await readableManifest(db, user, manifestId);
  const definition = findDefinition(manifest.project, manifest.version);
  if (!definition) throw NotFound(`No template of ${manifestTypeOf(manifest.project)} ${manifest.version} is known.`);
  const stored = await db
    .select({ fields: samples.fields })
    .from(samples)
    // a re-upload may not name symbionts (they follow their target's values): the update would be refused
    .where(and(eq(samples.manifestId, manifest.id), sql`coalesce(${samples.symbiont}, 'TARGET') = 'TARGET'`))
    .orderBy(asc(samples.timeCreated), asc(samples.id));
  const order = manifest.reportId ? await uploadedOrder(db, manifest.reportId) : new Map<string, number>();
  const rows = inUploadedOrder(stored, order).map((s) => s.fields);
  const stem = manifest.fileName.replace(/\.[^.]*$/, '').replace(/[^A-Za-z0-9._-]+/g, '_') || `${definition.manifestType}_manifest`;
  return { fileName: `${stem}_current_v${definition.version}.xlsx`, body: await buildFilledTemplate(definition, rows) };
}

/** What identifies a target sample among its manifest's rows: its rack and tube. */
const rowKey = (values: Record<string, string | undefined>): string => `${values.RACK_OR_PLATE_ID ?? ''}\t${values.TUBE_OR_WELL_ID ?? ''}`;

/** The row number of each rack and tube in the report the manifest was confirmed from, read in the database. */
async function uploadedOrder(db: Db, reportId: string): Promise<Map<string, number>> {
  const rows = await db
    .select({
      rowNumber: sql<number>`${storedRowNumber}`,
      rack: sql<string | null>`${storedValue('RACK_OR_PLATE_ID')}`,
      tube: sql<string | null>`${storedValue('TUBE_OR_WELL_ID')}`,
    })
    .from(sql`${validationReports} ${storedRowsOf(validationReports.rows)}`)
    .where(and(eq(validationReports.id, reportId), sql`coalesce(${storedValue('SYMBIONT')}, 'TARGET') = 'TARGET'`));
  return new Map(rows.map((x) => [rowKey({ RACK_OR_PLATE_ID: x.rack ?? '', TUBE_OR_WELL_ID: x.tube ?? '' }), Number(x.rowNumber)]));
}

/** Samples in the order of their uploaded rows; a sample no row names (none should be) keeps its stored place, last. */
function inUploadedOrder<S extends { fields: Record<string, string> }>(stored: S[], order: Map<string, number>): S[] {
  const position = (s: S) => order.get(rowKey(s.fields)) ?? Number.MAX_SAFE_INTEGER;
  // Array.prototype.sort is stable
  return [...stored].sort((a, b) => position(a) - position(b));
}
