import { sql } from 'drizzle-orm';
import { integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import type { ChecklistFields, SchemaName } from '../../lib/checklists/contract';

export { SCHEMA_NAMES, type SchemaName } from '../../lib/checklists/contract';

/** One checklist (a column of a schema workbook's `data` sheet), seeded from the workbooks at start-up. */
export const checklists = pgTable(
  'checklists',
  {
    schemaName: text('schema_name').$type<SchemaName>().notNull(),
    checklistId: text('checklist_id').notNull(),
    /** row order in the workbook's `checklists` sheet, which the listing keeps */
    position: integer('position').notNull().default(0),
    name: text('name').notNull().default(''),
    description: text('description').notNull().default(''),
    standard: text('standard').notNull().default(''),
    technology: text('technology').notNull().default(''),
    /** version of the workbook the row came from, e.g. 0.4 */
    version: text('version').notNull().default(''),
    /** field definitions of the checklist; filled by the studies loader */
    fields: jsonb('fields').$type<ChecklistFields>().notNull().default(sql`'[]'::jsonb`),
  },
  (t) => [primaryKey({ columns: [t.schemaName, t.checklistId] })],
);
