import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, ne } from 'drizzle-orm';
import type ExcelJS from 'exceljs';
import type { Db } from '@/db/client';
import { checklists, SCHEMA_NAMES, type SchemaName, schemaWorkbookSheets } from '@/db/schema';
import { fromExcluded } from '@/db/upsert';
import type { ChecklistFields, WorkbookSheets } from '@/lib/checklists/contract';
import { parseSchemaWorkbook, type SchemaChecklist, type SchemaDefinition } from '@/lib/checklists/schema-workbook';
import { cellText } from '@/lib/spreadsheets/cells';
import { loadExcelJS } from '@/lib/spreadsheets/exceljs';

/** The workbook that configures each schema, as published in COPO-schemas (MIT; see NOTICE). */
export const SCHEMA_WORKBOOKS: Record<SchemaName, { file: string; version: string }> = {
  svc_single_cell: { file: 'singlecell_schema_main_v0.4.xlsx', version: '0.4' },
  svc_image_rembi: { file: 'rembi_image_schema_main_v0.1.xlsx', version: '0.1' },
  svc_image_stx_fish: { file: 'stx_fish_image_schema_main_v0.1.xlsx', version: '0.1' },
  svc_read: { file: 'reads_schema_main_v0.1.xlsx', version: '0.1' },
};

/** A checklist of the workbook as stored: its components (in schema order, with their terms) become `fields`. */
export interface ChecklistSeed extends Omit<SchemaChecklist, 'components'> {
  schemaName: SchemaName;
  version: string;
  fields: ChecklistFields;
}

/**
 * Where the workbooks are read from: a copy kept in the repository, so a fresh clone seeds without the design
 * folder; REFERENCE_DIR (a folder holding `schemas/`) points elsewhere, e.g. at newer workbooks.
 */
export function schemasDir(env: Record<string, string | undefined> = process.env): string {
  return env.REFERENCE_DIR ? path.resolve(env.REFERENCE_DIR, 'schemas') : path.join(process.cwd(), 'db', 'seed', 'data', 'schemas');
}

type NamedSheet = ExcelJS.stream.xlsx.WorksheetReader & { name?: string };

/** The sheets a schema workbook is read for; the others (ontology_lookup, regex_to_formula, …) are skipped. */
const SHEETS = ['data', 'allowed_values', 'checklists', 'components', 'term_mapping'];

/**
 * How the sheets kept in schema_workbook_sheets were read: the sheets named, and the version of the reading (readSheets
 * and lib/spreadsheets/cells.ts). Raise the version whenever a change there changes what a workbook reads as, so that
 * sheets kept by an earlier version are read again: tests/checklists.test.ts records what each workbook of the
 * repository reads as under each version, and fails when the reading changes under the same one.
 */
export const SHEETS_FORMAT = `1:${SHEETS.join(',')}`;

/** Trimmed text rows of the named sheets, streamed in one pass over the file. */
async function readSheets(file: string, names: readonly string[]): Promise<WorkbookSheets> {
  const reader = new (await loadExcelJS()).stream.xlsx.WorkbookReader(file, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    entries: 'ignore',
  });
  const out: WorkbookSheets = {};
  for await (const ws of reader as AsyncIterable<NamedSheet>) {
    const name = ws.name;
    const wanted = name !== undefined && names.includes(name);
    const rows: string[][] = [];
    // every sheet is read to its end: exceljs buffers sheets that precede the shared strings in temporary files,
    // and an unread one breaks the stream
    for await (const row of ws) {
      if (!wanted) continue;
      const values = Array.isArray(row.values) ? row.values.slice(1) : [];
      // row.values is sparse: holes are empty cells
      rows.push(Array.from(values, (v) => cellText(v as ExcelJS.CellValue).trim()));
    }
    if (wanted) out[name] = rows;
  }
  if (!out.checklists) throw new Error(`${path.basename(file)} has no 'checklists' sheet`);
  return out;
}

/** A schema workbook's sheets as read with exceljs, nothing kept: what schema_workbook_sheets holds of it. */
export const readWorkbookSheets = (file: string): Promise<WorkbookSheets> => readSheets(file, SHEETS);

/**
 * A workbook's sheets: as kept in the database when it holds this workbook's reading, else read with exceljs (and
 * kept). Without a database, always read.
 */
async function sheetsOf(file: string, db: Db | undefined): Promise<WorkbookSheets> {
  if (!db) return readWorkbookSheets(file);
  const key = createHash('sha256')
    .update(`${SHEETS_FORMAT}\u0000`)
    .update(await readFile(file))
    .digest('hex');
  const [kept] = await db
    .select({ sheets: schemaWorkbookSheets.sheets })
    .from(schemaWorkbookSheets)
    .where(eq(schemaWorkbookSheets.key, key));
  if (kept) return kept.sheets;
  const sheets = await readWorkbookSheets(file);
  const name = path.basename(file);
  // instances starting together may both read it: one row per reading, the other's insert does nothing
  await db.delete(schemaWorkbookSheets).where(and(eq(schemaWorkbookSheets.file, name), ne(schemaWorkbookSheets.key, key)));
  await db.insert(schemaWorkbookSheets).values({ key, file: name, sheets }).onConflictDoNothing();
  return sheets;
}

export interface SchemaSeed {
  schemaName: SchemaName;
  version: string;
  definition: SchemaDefinition;
}

const cache = new Map<string, Promise<SchemaSeed[]>>();

/**
 * Every schema workbook of the folder, parsed and checked once per process and folder; given the database, its sheets
 * are read as kept there (sheetsOf).
 */
export function readSchemas(dir: string = schemasDir(), db?: Db): Promise<SchemaSeed[]> {
  let all = cache.get(dir);
  if (!all) {
    all = Promise.all(SCHEMA_NAMES.map((schema) => readSchema(dir, schema, db)));
    all.catch(() => cache.delete(dir));
    cache.set(dir, all);
  }
  return all;
}

async function readSchema(dir: string, schemaName: SchemaName, db: Db | undefined): Promise<SchemaSeed> {
  const { file, version } = SCHEMA_WORKBOOKS[schemaName];
  // the folder is a setting read at run time (REFERENCE_DIR): nothing for the bundler to trace
  const sheets = await sheetsOf(path.join(/* turbopackIgnore: true */ dir, file), db);
  return { schemaName, version, definition: parseSchemaWorkbook(file, sheets) };
}

/** One row per checklist of every schema workbook, with its field definitions. */
export async function readChecklists(dir: string = schemasDir(), db?: Db): Promise<ChecklistSeed[]> {
  return (await readSchemas(dir, db)).flatMap(({ schemaName, version, definition }) =>
    definition.checklists.map((c) => ({
      schemaName,
      checklistId: c.checklistId,
      position: c.position,
      name: c.name,
      description: c.description,
      standard: c.standard,
      technology: c.technology,
      version,
      fields: c.components,
    })),
  );
}

/**
 * Upserts the checklist rows. The field definitions are generated data (the workbooks plus the corrections of
 * lib/checklists/corrections.ts), so they are rewritten whenever what the loader generates differs from what is
 * stored: a correction reaches existing databases at their next start.
 */
export async function seedChecklists(db: Db, dir: string = schemasDir()): Promise<number> {
  const rows = await readChecklists(dir, db);
  if (!rows.length) return 0;
  const update = fromExcluded(checklists, ['position', 'name', 'description', 'standard', 'technology', 'version', 'fields']);
  await db
    .insert(checklists)
    .values(rows)
    .onConflictDoUpdate({ target: [checklists.schemaName, checklists.checklistId], set: update.set, setWhere: update.changed });
  return rows.length;
}
