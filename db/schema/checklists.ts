import { sql } from 'drizzle-orm';
import { integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import type { ChecklistFields, SchemaName, WorkbookSheets } from '../../lib/checklists/contract';

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

/**
 * The text of a schema workbook's sheets as lib/seed/checklists.ts reads them, kept so that a start whose workbook has
 * not changed does not read it again with exceljs (most of a second of every start). `key` is the SHA-256 of the
 * workbook's bytes and of the reading's format (SHEETS_FORMAT there): a new workbook, or a change to how it is read,
 * is read afresh. The checklists themselves are still made from these sheets at every start, corrections included.
 */
export const schemaWorkbookSheets = pgTable('schema_workbook_sheets', {
  key: text('key').primaryKey(),
  file: text('file').notNull(),
  sheets: jsonb('sheets').$type<WorkbookSheets>().notNull(),
  readAt: timestamp('read_at', { withTimezone: true }).notNull().defaultNow(),
});
