import path from 'node:path';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { Db } from '@/db/client';
import { checklists, SCHEMA_NAMES, type SchemaName } from '@/db/schema';

/** The workbook that configures each schema, as published in COPO-schemas (MIT; see NOTICE). */
export const SCHEMA_WORKBOOKS: Record<SchemaName, { file: string; version: string }> = {
  svc_single_cell: { file: 'singlecell_schema_main_v0.4.xlsx', version: '0.4' },
  svc_image_rembi: { file: 'rembi_image_schema_main_v0.1.xlsx', version: '0.1' },
  svc_image_stx_fish: { file: 'stx_fish_image_schema_main_v0.1.xlsx', version: '0.1' },
};

export interface ChecklistSeed {
  schemaName: SchemaName;
  checklistId: string;
  position: number;
  name: string;
  description: string;
  standard: string;
  technology: string;
  version: string;
}

/**
 * Where the workbooks are read from: a copy kept in the repository, so a fresh clone seeds without the design
 * folder; REFERENCE_DIR (a folder holding `schemas/`) points elsewhere, e.g. at newer workbooks.
 */
export function schemasDir(env: Record<string, string | undefined> = process.env): string {
  return env.REFERENCE_DIR
    ? path.resolve(env.REFERENCE_DIR, 'schemas')
    : path.join(process.cwd(), 'db', 'seed', 'data', 'schemas');
}

/** The text of a cell as the workbook shows it: rich text joined, formulas by their cached result. */
export function cellText(value: ExcelJS.CellValue | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString();
  if ('richText' in value) return value.richText.map((r) => r.text).join('');
  if ('result' in value) return cellText(value.result as ExcelJS.CellValue);
  if ('text' in value) return String(value.text);
  return '';
}

type NamedSheet = ExcelJS.stream.xlsx.WorksheetReader & { name?: string };

/** Rows of one sheet, streamed so the large `data` sheets of the workbooks are skipped rather than parsed. */
async function readSheet(file: string, sheet: string): Promise<string[][]> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    entries: 'ignore',
  });
  for await (const ws of reader as AsyncIterable<NamedSheet>) {
    if (ws.name !== sheet) continue;
    const rows: string[][] = [];
    for await (const row of ws) {
      const values = Array.isArray(row.values) ? row.values.slice(1) : [];
      rows.push(values.map((v) => cellText(v as ExcelJS.CellValue).trim()));
    }
    return rows;
  }
  throw new Error(`${path.basename(file)} has no '${sheet}' sheet`);
}

const cache = new Map<string, Promise<ChecklistSeed[]>>();

/** The `checklists` sheet of every schema workbook; parsed once per process and folder. */
export function readChecklists(dir: string = schemasDir()): Promise<ChecklistSeed[]> {
  let rows = cache.get(dir);
  if (!rows) {
    rows = Promise.all(SCHEMA_NAMES.map((schema) => readSchemaChecklists(dir, schema))).then((all) => all.flat());
    rows.catch(() => cache.delete(dir));
    cache.set(dir, rows);
  }
  return rows;
}

async function readSchemaChecklists(dir: string, schemaName: SchemaName): Promise<ChecklistSeed[]> {
  const { file, version } = SCHEMA_WORKBOOKS[schemaName];
  const [header = [], ...rows] = await readSheet(path.join(dir, file), 'checklists');
  const col = (name: string) => {
    const i = header.indexOf(name);
    if (i < 0) throw new Error(`${file}: the 'checklists' sheet has no '${name}' column`);
    return i;
  };
  const [key, name, description, standard, technology] = ['key', 'name', 'description', 'standard', 'technology'].map(
    col,
  ) as [number, number, number, number, number];
  return rows
    .filter((r) => r[key])
    .map((r, position) => ({
      schemaName,
      checklistId: r[key]!,
      position,
      name: r[name] ?? '',
      description: r[description] ?? '',
      standard: r[standard] ?? '',
      technology: r[technology] ?? '',
      version,
    }));
}

/** Upserts the checklist rows; `fields` is left alone, it belongs to the studies loader. */
export async function seedChecklists(db: Db, dir: string = schemasDir()): Promise<number> {
  const rows = await readChecklists(dir);
  if (!rows.length) return 0;
  await db
    .insert(checklists)
    .values(rows)
    .onConflictDoUpdate({
      target: [checklists.schemaName, checklists.checklistId],
      set: {
        position: sql`excluded.position`,
        name: sql`excluded.name`,
        description: sql`excluded.description`,
        standard: sql`excluded.standard`,
        technology: sql`excluded.technology`,
        version: sql`excluded.version`,
      },
    });
  return rows.length;
}
