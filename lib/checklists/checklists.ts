import { asc, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { checklists } from '@/db/schema';
import { NotFound } from '@/lib/errors';
import { SCHEMA_NAMES, type SchemaName } from './contract';

export interface ChecklistSummary {
  checklistId: string;
  name: string;
  description: string;
  standard: string;
  technology: string;
}

/** The schema named by a path segment, in any case; null when there is none. */
export const parseSchemaName = (raw: string): SchemaName | null => SCHEMA_NAMES.find((s) => s === raw.trim().toLowerCase()) ?? null;

/** The checklists of a schema, in workbook order. */
export async function listChecklists(db: Db, schemaName: string): Promise<ChecklistSummary[]> {
  const schema = parseSchemaName(schemaName);
  const rows = schema
    ? await db
        .select({
          checklistId: checklists.checklistId,
          name: checklists.name,
          description: checklists.description,
          standard: checklists.standard,
          technology: checklists.technology,
        })
        .from(checklists)
        .where(eq(checklists.schemaName, schema))
        .orderBy(asc(checklists.position), asc(checklists.checklistId))
    : [];
  if (!rows.length) throw NotFound(`No checklist found for schema ${schemaName.trim().toUpperCase()}`);
  return rows;
}
