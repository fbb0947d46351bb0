import type ExcelJS from 'exceljs';
import { cellText } from '@/lib/spreadsheets/cells';
import { METADATA_SHEET } from './parse/xlsx';
import { templateWorkbook } from './template';
import type { FieldDefinition, FieldKind, ManifestDefinition } from './types';

/**
 * A manifest filled back in: the blank template of a definition (lib/manifests/template.ts) with one data row per
 * record, from row 2, in the order given. Uploaded again unchanged it must read as the same values, so each cell is
 * written as Excel would hold it (a number as a number, a date as a date) only when reading that cell back gives
 * the stored text exactly; anything else ("51.50", "2023-06", a list joined by '|') is written as text.
 */

const NUMERIC_KINDS: ReadonlySet<FieldKind> = new Set(['integer', 'number', 'latitude', 'longitude']);
const DATE_KINDS: ReadonlySet<FieldKind> = new Set(['date_ena', 'date_iso']);
const DECIMAL = /^-?[0-9]+(\.[0-9]+)?$/;
const DAY = /^([0-9]{4})-[0-9]{2}-[0-9]{2}$/;
const TIME_OF_DAY = /^[0-9]{2}:[0-9]{2}(:[0-9]{2})?$/;
// Excel counts days from 1900 with a phantom 29 February 1900: earlier days are kept as text
const FIRST_EXACT_DAY = '1900-03-01';

interface Cell {
  value: ExcelJS.CellValue;
  numFmt?: string;
}

/** The cell Excel would hold for this text, before the read-back check. */
function typedCandidate(kind: FieldKind, text: string): Cell | null {
  if (NUMERIC_KINDS.has(kind) && DECIMAL.test(text)) return { value: Number(text) };
  if (DATE_KINDS.has(kind) && DAY.test(text) && text >= FIRST_EXACT_DAY) {
    const day = new Date(`${text}T00:00:00Z`);
    return Number.isNaN(day.getTime()) ? null : { value: day, numFmt: 'yyyy-mm-dd' };
  }
  if (kind === 'time' && TIME_OF_DAY.test(text)) {
    const time = new Date(`1899-12-30T${text.length === 5 ? `${text}:00` : text}Z`);
    return Number.isNaN(time.getTime()) ? null : { value: time, numFmt: text.length === 5 ? 'hh:mm' : 'hh:mm:ss' };
  }
  return null;
}

/** The cell for a stored value: typed when it reads back as the same text (lib/spreadsheets/cells.ts), else text. */
export function cellFor(field: Pick<FieldDefinition, 'kind'>, text: string): Cell {
  const typed = typedCandidate(field.kind, text);
  if (typed && cellText(typed.value, typed.numFmt, { numeric: NUMERIC_KINDS.has(field.kind) }) === text) return typed;
  return { value: text };
}

/** The template of `definition` with `rows` (values by field name) from row 2; fields outside it are left out. */
export async function buildFilledTemplate(definition: ManifestDefinition, rows: Record<string, string>[]): Promise<Buffer> {
  const workbook = await templateWorkbook(definition);
  const sheet = workbook.getWorksheet(METADATA_SHEET);
  if (!sheet) throw new Error(`the template has no ${METADATA_SHEET} sheet`);
  rows.forEach((values, i) => {
    const row = sheet.getRow(i + 2);
    definition.fields.forEach((field, c) => {
      const text = values[field.name];
      if (text === undefined || text === '') return;
      const cell = row.getCell(c + 1);
      const { value, numFmt } = cellFor(field, text);
      cell.value = value;
      if (numFmt) cell.numFmt = numFmt;
    });
  });
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
