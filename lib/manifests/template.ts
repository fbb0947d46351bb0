import type ExcelJS from 'exceljs';
import { loadExcelJS } from '@/lib/spreadsheets/exceljs';
import { ListValidations } from '@/lib/spreadsheets/list-validation';
import { METADATA_SHEET } from './parse/xlsx';
import type { FieldDefinition, ManifestDefinition } from './types';
import { DEFAULT_MAX_ROWS } from './validate';

/** Hidden sheet holding the vocabularies that are too long (or contain commas) for an inline list. */
export const LISTS_SHEET = 'Allowed Values';

function headerNote(f: FieldDefinition): string {
  const parts = [f.label, f.required ? 'Required.' : 'Optional.'];
  if (f.kind === 'enum_list') parts.push("One or more of the listed values, separated by '|'.");
  else if (f.allowedValues && f.kind === 'enum') parts.push('Choose a value from the list.');
  if (f.patternDescription) parts.push(`Format: ${f.patternDescription}.`);
  if (f.kind === 'location') parts.push("Country | region | locality, e.g. 'United Kingdom | Oxfordshire | Wytham Woods'.");
  if (f.unit) parts.push(`Unit: ${f.unit}.`);
  return parts.join(' ');
}

/**
 * A blank manifest for a definition: the `Metadata Entry` sheet with the header row in definition order, a
 * drop-down on every vocabulary column for the first 1000 data rows, and nothing else; it round-trips through
 * parseManifest as a manifest with no rows.
 */
export async function buildTemplate(definition: ManifestDefinition): Promise<Buffer> {
  return Buffer.from(await (await templateWorkbook(definition)).xlsx.writeBuffer());
}

/** The blank template as a workbook, for a writer that fills its data rows (lib/manifests/filled-template.ts). */
export async function templateWorkbook(definition: ManifestDefinition): Promise<ExcelJS.Workbook> {
  const workbook = new (await loadExcelJS()).Workbook();
  workbook.creator = 'Research Metadata Broker';
  const sheet = workbook.addWorksheet(METADATA_SHEET, { views: [{ state: 'frozen', ySplit: 1 }] });
  const lists = workbook.addWorksheet(LISTS_SHEET, { state: 'hidden' });
  const validations = new ListValidations(sheet, lists, DEFAULT_MAX_ROWS + 1);

  sheet.columns = definition.fields.map((f) => ({ header: f.name, key: f.name, width: Math.max(14, f.name.length + 3) }));
  const header = sheet.getRow(1);
  header.font = { bold: true };
  definition.fields.forEach((f, i) => {
    const cell = header.getCell(i + 1);
    cell.note = headerNote(f);
    if (f.required) cell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFFFF2CC' } };
  });

  definition.fields.forEach((f, i) => {
    if ((f.kind !== 'enum' && f.kind !== 'enum_list') || !f.allowedValues?.length) return;
    // several ORGANISM_PART terms joined by '|' are valid, so the list only suggests there
    validations.add(i + 1, f.name, f.allowedValues, { strict: f.kind !== 'enum_list', error: `Choose a value allowed for ${f.name}.` });
  });

  return workbook;
}
