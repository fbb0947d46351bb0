import type ExcelJS from 'exceljs';
import type { ComponentDefinition, FieldDefinition } from '@/lib/checklists/contract';
import { isDateTerm } from '@/lib/checklists/corrections';
import type { ChecklistDefinition } from '@/lib/checklists/definitions';
import { loadExcelJS } from '@/lib/spreadsheets/exceljs';
import { columnLetter, DATA_VALUES_SHEET, FIRST_DATA_ROW, headerOf, SEPARATOR_TEXT, TEMPLATE_ROWS } from './layout';
import type { StudyComponents } from './validate';

// exceljs types only the per-cell validation; the sheet-level collection takes range addresses
type ListValidation = {
  type: 'list';
  allowBlank: boolean;
  formulae: string[];
  showErrorMessage: boolean;
  errorStyle?: 'stop' | 'warning';
  errorTitle?: string;
  error?: string;
};
type WithValidations = { dataValidations: { add(range: string, v: ListValidation): void } };

const GREY = { argb: 'FF6E7781' };
const SEPARATOR_FILL: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFB5EAAA' } };
// Excel's limit for an inline list is 255 characters, and an inline list cannot hold a comma or a quote
const INLINE_LIST_MAX = 255;

/**
 * A study workbook in the layout of docs/studies-and-checklists.md §10: one sheet per component of the checklist, labels
 * in row 1 (mandatory ones bold, others with " (optional)"), description and example in rows 2–3, the separator in
 * row 4 and data from row 5; drop-downs for enums (long lists on a hidden `data_values` sheet) and for references
 * to other sheets' identifiers. Without `components` it is the blank template, which also carries convenience
 * formulas (study_id from the study sheet, prefixed identifiers numbered); with them it is an export that re-uploads
 * to the same study.
 */
export async function writeStudyWorkbook(def: ChecklistDefinition, components?: StudyComponents): Promise<Buffer> {
  const wb = new (await loadExcelJS()).Workbook();
  wb.creator = 'Research Metadata Broker';
  const template = components === undefined;
  const lastRow = (key: string) => FIRST_DATA_ROW - 1 + (components?.[key]?.length ?? 0) + TEMPLATE_ROWS;
  const sheets = def.components.map((component) => ({ component, ws: wb.addWorksheet(component.key) }));
  const dataValues = new DataValuesSheet(wb);

  for (const { component, ws } of sheets) {
    const rows = components?.[component.key] ?? [];
    const end = lastRow(component.key);
    writeHeader(ws, component);
    rows.forEach((values, i) => {
      const row = ws.getRow(FIRST_DATA_ROW + i);
      component.fields.forEach((f, j) => {
        const v = values[f.termName];
        if (v === undefined) return;
        const cell = row.getCell(j + 1);
        cell.value = cellValue(f, v);
        if (cell.value instanceof Date) cell.numFmt = DATE_FORMAT;
      });
    });
    component.fields.forEach((f, j) => {
      const range = `${columnLetter(j + 1)}${FIRST_DATA_ROW}:${columnLetter(j + 1)}${end}`;
      const list = listFor(def, f, dataValues, lastRow);
      if (list) (ws as unknown as WithValidations).dataValidations.add(range, list);
    });
    if (template) addFormulas(def, component, ws);
    protect(ws);
  }
  dataValues.finish();
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const DATE_FORMAT = 'yyyy-mm-dd';
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A date term's ISO date as a real date cell, so Excel shows, sorts and edits it as a date; anything else as text. */
function cellValue(f: FieldDefinition, value: string): ExcelJS.CellValue {
  if (!isDateTerm(f) || !ISO_DATE.test(value)) return value;
  const date = new Date(`${value}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? value : date;
}

function writeHeader(ws: ExcelJS.Worksheet, component: ComponentDefinition) {
  component.fields.forEach((f, j) => {
    const col = ws.getColumn(j + 1);
    col.width = Math.max(12, f.label.length + 12, Math.min(f.description.length, 70));
    // text format, so identifiers such as 0012 or 3 stay text, but dates as dates; rows from the first data row
    // stay editable
    col.numFmt = isDateTerm(f) ? DATE_FORMAT : '@';
    col.protection = { locked: false };
  });
  const rowTexts = [headerOf, (f: FieldDefinition) => f.description, (f: FieldDefinition) => f.example];
  for (const [i, textOf] of rowTexts.entries()) {
    const row = ws.getRow(i + 1);
    for (const [j, f] of component.fields.entries()) {
      const text = textOf(f);
      const cell = row.getCell(j + 1);
      // the example row shows a date term's example as the date cell a submitter would type
      cell.value = i === 2 ? cellValue(f, text) : text;
      if (cell.value instanceof Date) cell.numFmt = DATE_FORMAT;
      cell.protection = { locked: true };
      cell.alignment = { wrapText: true, vertical: 'top' };
      if (i === 0) cell.font = { bold: f.mandatory };
      else cell.font = { italic: true, color: GREY };
    }
  }
  const separator = ws.getRow(FIRST_DATA_ROW - 1);
  component.fields.forEach((_f, j) => {
    const cell = separator.getCell(j + 1);
    cell.fill = SEPARATOR_FILL;
    cell.protection = { locked: true };
  });
  separator.getCell(1).value = SEPARATOR_TEXT;
  separator.getCell(1).font = { bold: true };
}

function listFor(
  def: ChecklistDefinition,
  f: FieldDefinition,
  dataValues: DataValuesSheet,
  lastRow: (key: string) => number,
): ListValidation | undefined {
  if (f.type === 'enum' && f.allowedValues?.length) {
    const inline = f.allowedValues.join(',');
    const fits = inline.length <= INLINE_LIST_MAX && !f.allowedValues.some((v) => /[,"]/.test(v));
    return {
      type: 'list',
      allowBlank: true,
      formulae: [fits ? `"${inline}"` : dataValues.range(f)],
      showErrorMessage: true,
      // several values of a multi-valued term are typed by hand
      errorStyle: f.cardinality === 'multiple' ? 'warning' : 'stop',
      errorTitle: f.label,
      error: `Choose a value from the list for ${f.label}.`,
    };
  }
  if (f.referencedComponent) {
    const target = def.components.find((c) => c.key === f.referencedComponent);
    const idIndex = target?.fields.findIndex((x) => x.identifier) ?? -1;
    if (!target || idIndex < 0) return undefined;
    const col = columnLetter(idIndex + 1);
    return {
      type: 'list',
      allowBlank: true,
      formulae: [`'${target.key}'!$${col}$${FIRST_DATA_ROW}:$${col}$${lastRow(target.key)}`],
      showErrorMessage: true,
      errorStyle: 'warning',
      errorTitle: f.label,
      error: `Use a ${target.name} identifier from the ${target.key} sheet.`,
    };
  }
  return undefined;
}

/** Template conveniences: study_id copied from the study sheet and prefixed identifiers numbered, once a row has content. */
function addFormulas(def: ChecklistDefinition, component: ComponentDefinition, ws: ExcelJS.Worksheet) {
  const study = def.components.find((c) => c.key === 'study');
  const studyIdCol = study ? study.fields.findIndex((f) => f.identifier) + 1 : 0;
  const formulas = new Map<number, (row: number, filled: string) => string>();
  component.fields.forEach((f, j) => {
    if (component.key !== 'study' && f.termName === 'study_id' && f.referencedComponent === 'study' && studyIdCol > 0) {
      formulas.set(j + 1, (_row, filled) => `IF(${filled}>0,study!$${columnLetter(studyIdCol)}$${FIRST_DATA_ROW},"")`);
    } else if (f.identifier && f.identifierPrefix && j > 0) {
      formulas.set(j + 1, (_row, filled) => `IF(${filled}>0,"${f.identifierPrefix}"&TEXT(ROW()-${FIRST_DATA_ROW - 1},"000"),"")`);
    }
  });
  if (!formulas.size) return;
  const content = component.fields
    .map((_f, j) => j + 1)
    .filter((c) => !formulas.has(c) && c > 1)
    .slice(0, 4);
  if (!content.length) return;
  for (let row = FIRST_DATA_ROW; row < FIRST_DATA_ROW + TEMPLATE_ROWS; row++) {
    const filled = `COUNTA(${content.map((c) => `${columnLetter(c)}${row}`).join(',')})`;
    for (const [col, formula] of formulas) {
      const cell = ws.getRow(row).getCell(col);
      cell.value = { formula: formula(row, filled) } as ExcelJS.CellFormulaValue;
      cell.font = { color: GREY };
    }
  }
}

function protect(ws: ExcelJS.Worksheet) {
  // no password: the protection guards the layout against slips, it is not a security boundary
  void ws.protect('', {
    selectLockedCells: true,
    selectUnlockedCells: true,
    formatColumns: true,
    formatRows: true,
    insertRows: true,
    deleteRows: true,
    sort: true,
    autoFilter: true,
  });
}

/** The hidden sheet with the drop-down lists too long (or too comma-laden) to be written inline. */
class DataValuesSheet {
  private ws: ExcelJS.Worksheet | undefined;
  private readonly columns = new Map<string, string>();

  constructor(private readonly wb: ExcelJS.Workbook) {}

  range(f: FieldDefinition): string {
    const values = f.allowedValues ?? [];
    const key = `${f.label}\u0000${values.join('\u0000')}`;
    let range = this.columns.get(key);
    if (!range) {
      this.ws ??= this.wb.addWorksheet(DATA_VALUES_SHEET, { state: 'hidden' });
      const ws = this.ws;
      const col = this.columns.size + 1;
      ws.getRow(1).getCell(col).value = f.label;
      for (const [i, v] of values.entries()) ws.getRow(i + 2).getCell(col).value = v;
      const letter = columnLetter(col);
      range = `${DATA_VALUES_SHEET}!$${letter}$2:$${letter}$${values.length + 1}`;
      this.columns.set(key, range);
    }
    return range;
  }

  finish() {
    if (this.ws) protect(this.ws);
  }
}
