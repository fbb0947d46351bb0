import { sql } from 'drizzle-orm';
import { integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import type { ChecklistFields, SchemaName, WorkbookSheets } from '../../lib/checklists/contract';
import type { ChecklistField, ChecklistKind, ChecklistSource } from '../../lib/sample-checklists/contract';

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

/**
 * ENA's sample and sequence checklists (lib/sample-checklists): ENA's own as its reports service last published them
 * (refreshed daily; the last copy read is kept while ENA cannot be reached), and COPO's, read from
 * db/seed/data/sample-checklists at every start.
 */
export const sampleChecklists = pgTable('sample_checklists', {
  /** ERC000011, ERT000020, COPO_DWC */
  id: text('id').primaryKey(),
  kind: text('kind').$type<ChecklistKind>().notNull(),
  source: text('source').$type<ChecklistSource>().notNull(),
  /** the ENA checklist its samples are registered under (COPO_DWC: ERC000011) */
  enaChecklistId: text('ena_checklist_id').notNull(),
  name: text('name').notNull(),
  label: text('label').notNull().default(''),
  description: text('description').notNull().default(''),
  authority: text('authority').notNull().default(''),
  fields: jsonb('fields').$type<ChecklistField[]>().notNull(),
  refreshedAt: timestamp('refreshed_at', { withTimezone: true }).notNull().defaultNow(),
});
