import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { samples } from '@/db/schema';
import type { Issue, ManifestDefinition, ParsedManifest, ParsedRow } from '@/lib/manifests';
import type { FieldChange, RowMatch } from '@/lib/manifests/contract';
import { columnLetter } from '@/lib/spreadsheets/columns';
import { managesProject, type UserRecord } from '@/lib/users/users';

/** Changing either identifies a different organism: the ToLID no longer applies (docs/tol-manifests.md §2.6). */
export const CLEARS_PUBLIC_NAME: ReadonlySet<string> = new Set(['SPECIMEN_ID', 'TAXON_ID']);

/**
 * The field changes a re-upload makes, and the ones it may not make: once a sample is accessioned, only its
 * updatable ("non-compliant") fields change without a sample manager (docs/tol-manifests.md §2.6, §4.3).
 */
export async function findUpdateChanges(
  db: Db,
  input: {
    matches: RowMatch[];
    rows: ParsedRow[];
    parsed: ParsedManifest;
    definition: ManifestDefinition;
    uploader: UserRecord;
  },
): Promise<{ changes: FieldChange[]; errors: Issue[] }> {
  const { matches, definition, uploader } = input;
  if (!matches.length) return { changes: [], errors: [] };
  const stored = await db
    .select({ id: samples.id, fields: samples.fields, biosampleAccession: samples.biosampleAccession })
    .from(samples)
    .where(sql`${samples.id} = any(${sql.param(matches.map((m) => m.sampleId))}::text[])`);
  const byId = new Map(stored.map((s) => [s.id, s]));
  const rowByNumber = new Map(input.rows.map((r) => [r.rowNumber, r]));
  const columnOf = new Map<string, string>();
  for (const [i, h] of input.parsed.headers.entries()) columnOf.set(h.trim(), input.parsed.columns?.[i] ?? columnLetter(i + 1));
  const isManager = managesProject(uploader, definition.project);

  const changes: FieldChange[] = [];
  const errors: Issue[] = [];
  for (const m of matches) {
    const sample = byId.get(m.sampleId);
    const row = rowByNumber.get(m.row);
    if (!sample || !row) continue;
    for (const field of definition.fields) {
      const oldValue = sample.fields[field.name] ?? '';
      const newValue = row.values[field.name] ?? '';
      if (oldValue === newValue) continue;
      if (!isManager && sample.biosampleAccession && !field.updatable) {
        errors.push({
          row: m.row,
          column: columnOf.get(field.name) ?? null,
          field: field.name,
          value: newValue,
          rule: 'not_updatable',
          message:
            `Field ${field.name} cannot be updated because it is a part of the compliance process. ` +
            `Please contact your ${definition.manifestType} sample manager for the update.`,
        });
        continue;
      }
      changes.push({ sampleId: m.sampleId, row: m.row, field: field.name, oldValue, newValue });
    }
  }
  return { changes, errors };
}
