import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { checklists } from '@/db/schema';
import { Invalid, NotFound } from '@/lib/errors';
import { parseSchemaName } from './checklists';
import { type ComponentDefinition, SCHEMA_NAMES, type SchemaName } from './contract';

/** A checklist with everything a study spreadsheet is checked against. */
export interface ChecklistDefinition {
  schemaName: SchemaName;
  checklistId: string;
  name: string;
  standard: string;
  technology: string;
  version: string;
  /** in schema order; only components with at least one term in this checklist */
  components: ComponentDefinition[];
}

/** `a, b and c`, the reference's way of listing accepted values */
export const listing = (values: readonly string[]) =>
  values.length > 1 ? `${values.slice(0, -1).join(', ')} and ${values[values.length - 1]}` : (values[0] ?? '');

/** The schema named by a path segment (any case); 404 when there is none. */
export function requireSchema(raw: string): SchemaName {
  const schema = parseSchemaName(raw);
  if (!schema) throw NotFound(`Unknown schema '${raw}'. Accepted values are: ${listing(SCHEMA_NAMES)}`);
  return schema;
}

/** The checklist of a schema; a missing, unknown or other-schema checklist_id is 400. */
export async function getChecklistDefinition(
  db: Db,
  schemaName: SchemaName,
  checklistId: string | undefined,
): Promise<ChecklistDefinition> {
  // the ids are lower-case; a client's upper-case spelling still names the checklist
  const id = checklistId?.trim().toLowerCase() ?? '';
  if (!id) {
    throw Invalid("'checklist_id' is required but not provided.", [{ path: 'checklist_id', message: 'Required' }]);
  }
  const [row] = await db
    .select()
    .from(checklists)
    .where(and(eq(checklists.schemaName, schemaName), eq(checklists.checklistId, id)));
  if (!row) throw await unknownChecklist(db, schemaName);
  return {
    schemaName,
    checklistId: row.checklistId,
    name: row.name,
    standard: row.standard,
    technology: row.technology,
    version: row.version,
    components: row.fields,
  };
}

/** The 400 for a checklist_id that the schema does not have, naming the ones it has. */
export async function unknownChecklist(db: Db, schemaName: SchemaName) {
  const ids = await db
    .select({ id: checklists.checklistId })
    .from(checklists)
    .where(eq(checklists.schemaName, schemaName))
    .orderBy(asc(checklists.position));
  const message = `Invalid value for 'checklist_id'. Accepted values are: ${listing(ids.map((r) => r.id))}`;
  return Invalid(message, [{ path: 'checklist_id', message }]);
}

/** Whether a checklist_id belongs to the schema, without loading its definitions. */
export async function checklistExists(db: Db, schemaName: SchemaName, checklistId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: checklists.checklistId })
    .from(checklists)
    .where(and(eq(checklists.schemaName, schemaName), eq(checklists.checklistId, checklistId)));
  return Boolean(row);
}
